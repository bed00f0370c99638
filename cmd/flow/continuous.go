package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/fswatch"
)

// runContinuous is flow test -c: the flow runs, then runs again each time
// it or a subflow it runs is saved, until Ctrl-C, as Maestro's continuous
// mode (TestRunner.runContinuous, which watches YamlCommandReader's
// watch files). A failed run, or a flow that no longer loads while it is
// being edited, is shown and waited past: only a stop ends the mode.
func runContinuous(c *cli.Context, env Env, o testOptions) error {
	ctx := c.Context
	for {
		watch := watchFiles(c, env, o)
		before := fswatch.Take(watch)
		err := runTestOnce(c, env, o)
		if ctx.Err() != nil {
			return err
		}
		var done reported
		if err != nil && !errors.As(err, &done) {
			renderError(env.Stderr, canonical.Coded(err), false)
		}
		fmt.Fprintf(env.Stdout, "\nwatching %s for changes (Ctrl-C to stop)\n", strings.Join(watch, ", "))
		changed, werr := fswatch.Wait(ctx, before, 0)
		if werr != nil {
			return canonical.NewError(canonical.CodeInterrupted, "continuous run stopped").
				WithHint("the last run's result is above").Wrap(werr)
		}
		fmt.Fprintf(env.Stdout, "\n%s changed: running again\n\n", strings.Join(changed, ", "))
	}
}

// watchFiles are the flow file and every flow it runs, as far as they
// load now (the file alone when it does not): the file given first, then
// the others in name order, for a stable line.
func watchFiles(c *cli.Context, env Env, o testOptions) []string {
	first := filepath.FromSlash(o.paths[0])
	firstAbs, _ := filepath.Abs(first)
	seen := map[string]bool{firstAbs: true}
	var rest []string
	loaded, err := flowapi.Load(c.Context, o.paths, flowapi.LoadOptions{Workspace: o.plan, Vars: o.env, Device: o.device, Env: env})
	if err == nil && loaded.Sources.Loader != nil {
		for _, f := range loaded.Sources.Loader.Flows() {
			p := filepath.FromSlash(f.File)
			abs, aerr := filepath.Abs(p)
			if f.File == "" || aerr != nil || seen[abs] {
				continue
			}
			seen[abs] = true
			rest = append(rest, p)
		}
	}
	slices.Sort(rest)
	return append([]string{first}, rest...)
}
