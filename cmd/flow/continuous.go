package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
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
	enter := enterPresses(env.Stdin)
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
		fmt.Fprintf(env.Stdout, "\nwatching %s for changes; press ENTER to run again (Ctrl-C to stop)\n", strings.Join(watch, ", "))
		wctx, stop := context.WithCancel(ctx)
		pressed := make(chan bool, 1)
		go func() {
			select {
			case <-enter:
				pressed <- true
				stop()
			case <-wctx.Done():
				pressed <- false
			}
		}()
		changed, werr := fswatch.Wait(wctx, before, 0)
		stop()
		byEnter := <-pressed
		switch {
		case ctx.Err() != nil:
			return canonical.NewError(canonical.CodeInterrupted, "continuous run stopped").
				WithHint("the last run's result is above").Wrap(ctx.Err())
		case werr != nil && byEnter:
			fmt.Fprint(env.Stdout, "\nENTER: running again\n\n")
		case werr != nil:
			return werr
		default:
			fmt.Fprintf(env.Stdout, "\n%s changed: running again\n\n", strings.Join(changed, ", "))
		}
	}
}

// enterPresses delivers a value for each line read from stdin: Maestro's
// continuous mode restarts the flow on ENTER, changed or not. The reader
// ends with stdin (EOF, or the process's end).
func enterPresses(stdin io.Reader) <-chan struct{} {
	ch := make(chan struct{}, 1)
	if stdin == nil {
		return ch
	}
	go func() {
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			select {
			case ch <- struct{}{}:
			default: // one restart pending is enough
			}
		}
	}()
	return ch
}

// watchFiles are the flow file and every flow it runs, as far as they
// load now (the file alone when it does not): the file given first, then
// the others in name order, for a stable line.
func watchFiles(c *cli.Context, env Env, o testOptions) []string {
	first := filepath.FromSlash(o.paths[0])
	firstAbs, _ := filepath.Abs(first)
	seen := map[string]bool{firstAbs: true}
	var rest []string
	loaded, err := flowapi.Load(c.Context, o.paths, flowapi.LoadOptions{Workspace: o.plan, Vars: o.env, Device: o.device, Env: env,
		MaestroVersion: o.maestroVersion})
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
