package main

import (
	"context"
	"errors"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/flow-runner/flow/canonical"
)

// Env is everything the CLI takes from the process, passed in so tests run
// the real command in-process.
type Env struct {
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  func(string) string
	Environ func() []string
	// IsTTY says stdout is a terminal, where progress redraws in place.
	IsTTY bool
	// StateDir keeps sim's device state between invocations; empty keeps
	// none (tests run isolated).
	StateDir string
}

// Exit codes of contracts §1.
const (
	exitOK      = 0
	exitFailed  = 1
	exitInvalid = 2
	exitDevice  = 3
)

// exitCode maps an error code to the process exit status in one place.
func exitCode(code canonical.Code) int {
	switch code {
	case "":
		return exitOK
	case canonical.CodeInvalidArgs:
		return exitInvalid
	case canonical.CodeElementNotFound, canonical.CodeAssertionFailed, canonical.CodeTimeout,
		canonical.CodeCommandFailed:
		return exitFailed
	case canonical.CodeDeviceUnavailable, canonical.CodeUnsupportedOperation, canonical.CodeInternal:
		return exitDevice
	}
	return exitDevice
}

// reported marks an error the command already rendered (for example inside a
// JSON document); run only maps it to an exit code.
type reported struct{ err error }

func (r reported) Error() string { return r.err.Error() }
func (r reported) Unwrap() error { return r.err }

func newApp(env Env) *cli.App {
	app := &cli.App{
		Name:            "flow",
		Usage:           "run mobile UI test flows (Maestro YAML, .ad scripts) and plan gestures",
		Writer:          env.Stdout,
		ErrWriter:       env.Stderr,
		HideHelpCommand: true,
		// urfave must never exit the process for us: run owns the exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return canonical.NewError(canonical.CodeInvalidArgs, err.Error()).
				WithHint("run flow --help for usage")
		},
		Commands: []*cli.Command{
			testCommand(env),
			checkCommand(env),
			planCommand(env),
			schemaCommand(env),
			simCommand(env),
			convertCommand(env),
		},
	}
	app.Commands = append(app.Commands, deviceCommands(env)...)
	ownHelpFlags(app)
	for _, c := range app.Commands {
		c.OnUsageError = func(cc *cli.Context, err error, _ bool) error {
			return canonical.NewError(canonical.CodeInvalidArgs, err.Error()).
				WithHint("run flow " + cc.Command.Name + " --help for usage")
		}
	}
	return app
}

// run executes one flow invocation and returns the exit status.
func run(ctx context.Context, env Env, args []string) int {
	app := newApp(env)
	err := app.RunContext(ctx, hoistArgs(app, args))
	if err == nil {
		return exitOK
	}
	var done reported
	if errors.As(err, &done) {
		return exitCode(canonical.CodeOf(done.err))
	}
	ce := canonical.Coded(err)
	renderError(env.Stderr, ce, wantsJSON(args))
	return exitCode(ce.Code)
}

// wantsJSON reports whether --json appears before any "--" terminator.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "-json" {
			return true
		}
	}
	return false
}

// ownHelpFlags gives the app and every command a --help flag of their own.
// urfave/cli's default is one package-level flag that every parse writes
// to, so two apps parsing at once (the in-process tests, a library user)
// race on it; the help output and behaviour are the same.
func ownHelpFlags(app *cli.App) {
	help := func() cli.Flag {
		return &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}
	}
	app.HideHelp = true
	app.Flags = append(app.Flags, help())
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			c.HideHelp = true
			c.Flags = append(c.Flags, help())
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
}
