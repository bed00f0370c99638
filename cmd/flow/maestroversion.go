package main

import (
	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
)

// maestroVersionFlag is --maestro-version, shared by the commands that
// read flows (test, check, plan), so each reads them as the others do.
func maestroVersionFlag() cli.Flag {
	return &cli.StringFlag{Name: "maestro-version",
		Usage: "Maestro semantics: 1.39 (taps retried, Rhino, 1.39's commands) or 2.10, today's and the default (also $FLOW_MAESTRO_VERSION, or maestroVersion in the workspace config)"}
}

// maestroVersion reads --maestro-version, else FLOW_MAESTRO_VERSION; ""
// leaves the choice to the workspace config, else the current Maestro.
func maestroVersion(c *cli.Context, env Env) (canonical.MaestroVersion, error) {
	return flowapi.ResolveMaestroVersion(c.String("maestro-version"), env)
}
