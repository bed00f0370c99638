package main

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"os/signal"
	"syscall"

	flowapi "github.com/flow-runner/flow"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		// The first Ctrl-C or SIGTERM stops the run cleanly (reports
		// written, devices released); from here on the signals have their
		// default effect, so a second one kills flow at once.
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		fmt.Fprintf(os.Stderr, "\nflow: %s received, stopping (send it again to quit at once)\n", signalName(sig))
		cancel(stopSignal{sig})
	}()
	env := Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ,
		IsTTY: isTerminal(os.Stdout), StateDir: flowapi.DefaultStateDir(os.Getenv), LookPath: osexec.LookPath}
	code := run(ctx, env, os.Args)
	os.Exit(code)
}

// isTerminal reports whether f is a character device, which is how the
// CLI decides to redraw the running step in place.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
