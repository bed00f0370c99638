package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
)

// simCommand manages the built-in simulated device's saved state.
func simCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "sim",
		Usage: "manage the built-in simulated device (its state persists between flow commands)",
		Description: `sim keeps its state (installed app models, screens, typed text, scroll offsets, the
   virtual clock) in sim-state.json under FLOW_STATE_DIR, default .flow in the working folder,
   so separate flow commands act on one device as they would on a real one. Commands run at
   once queue on the folder's lock (flow.lock) and fail with exit 3 after FLOW_LOCK_TIMEOUT
   (default 30s).`,
		Subcommands: []*cli.Command{
			{
				Name:  "reset",
				Usage: "forget the saved state: the next command starts a fresh sim device",
				Action: func(c *cli.Context) error {
					if err := noArgs(c, "flow sim reset"); err != nil {
						return err
					}
					// Under the lock, so a reset never lands between another
					// command's read and write of the state.
					state, err := flowapi.LockSimState(c.Context, env)
					if err != nil || state == nil {
						return err
					}
					defer state.Release()
					if err := state.Reset(); err != nil {
						return err
					}
					fmt.Fprintln(env.Stdout, "sim reset: the next command starts a fresh device")
					return nil
				},
			},
			{
				Name:  "state",
				Usage: "print where the saved state lives and whether it exists",
				Action: func(c *cli.Context) error {
					if err := noArgs(c, "flow sim state"); err != nil {
						return err
					}
					file := filepath.Join(env.StateDir, flowapi.SimStateFile)
					if _, err := os.Stat(file); err != nil {
						fmt.Fprintf(env.Stdout, "%s (none yet)\n", file)
						return nil
					}
					fmt.Fprintln(env.Stdout, file)
					return nil
				},
			},
		},
	}
}

// noArgs refuses arguments a command does not take, so a typo is never
// silently ignored.
func noArgs(c *cli.Context, cmd string) error {
	if c.Args().Present() {
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s takes no arguments, got %q", cmd, c.Args().First()).
			WithHint("run " + cmd + " --help for usage")
	}
	return nil
}
