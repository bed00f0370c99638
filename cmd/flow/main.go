package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first Ctrl-C stops the run cleanly; a second one kills it.
		<-ctx.Done()
		stop()
	}()
	env := Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ,
		IsTTY: isTerminal(os.Stdout), StateDir: stateDir(os.Getenv)}
	code := run(ctx, env, os.Args)
	stop()
	os.Exit(code)
}
