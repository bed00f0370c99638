package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
)

// Env is everything the CLI takes from the process (flowapi.Env), passed in
// so tests run the real command in-process.
type Env = flowapi.Env

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
	case canonical.CodeInterrupted:
		// run answers a stopped command with the signal's own status
		// (interruptedExit) before it gets here; this is the fallback.
		return exitInterrupted
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
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageError(err, "flow", c.App.Flags)
		},
		// Maestro's global options, accepted before any command.
		Flags:  globalFlags(),
		Before: func(c *cli.Context) error { return warnUnusedGlobals(c, env) },
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				return printVersion(env.Stdout, false)
			}
			return groupAction(c, "")
		},
		Commands: []*cli.Command{
			testCommand(env),
			checkCommand(env),
			planCommand(env),
			schemaCommand(env),
			simCommand(env),
			devicesCommand(env),
			androidCommand(env),
			iosCommand(env),
			mcpCommand(env),
			studioCommand(env),
			convertCommand(env),
			versionCommand(env),
		},
	}
	app.Commands = append(app.Commands, deviceCommands(env)...)
	ownHelpFlags(app)
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			full := prefix + " " + c.Name
			c.OnUsageError = func(cc *cli.Context, err error, _ bool) error {
				return usageError(err, full, cc.Command.Flags)
			}
			if len(c.Subcommands) > 0 && c.Action == nil {
				// The group's full command line: urfave's context only
				// knows the last word, and "flow runner" is no command.
				c.Action = func(cc *cli.Context) error { return groupAction(cc, full) }
			}
			walk(full, c.Subcommands)
		}
	}
	walk("flow", app.Commands)
	return app
}

// invoke runs one flow invocation as run does, but hands its error back
// instead of printing it (flow mcp answers with it).
func invoke(ctx context.Context, env Env, args []string) error {
	env = withArgs(env, args)
	app := newApp(env)
	return app.RunContext(ctx, hoistArgs(app, args))
}

// run executes one flow invocation and returns the exit status.
func run(ctx context.Context, env Env, args []string) int {
	env = withArgs(env, args)
	app := newApp(env)
	err := app.RunContext(ctx, hoistArgs(app, args))
	if ctx.Err() != nil {
		// Stopped (Ctrl-C, SIGTERM): whatever the command returned, it did
		// not finish, and that is what the exit status says. A command
		// that knows more (flow test: the report was written) gives the
		// hint.
		e := interruptedError(ctx, commandName(app, args))
		e.Hint = "run it again to finish; a second signal quits at once, without cleanup"
		var done reported
		if ce, ok := canonical.AsError(err); ok && !errors.As(err, &done) && errors.Is(err, ctx.Err()) {
			// The command said where it stopped (waiting for a lock, ...).
			if ce.Message != "" && ce.Message != "interrupted" {
				e.Message += ": " + ce.Message
			}
			if ce.Code == canonical.CodeInterrupted && ce.Hint != "" {
				e.Hint = ce.Hint
			}
		}
		renderError(env.Stderr, e, wantsJSON(args))
		return interruptedExit(ctx)
	}
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

// withArgs gives env this invocation's command line unless it has one
// (flow mcp passes its own): a device lock names the run by it.
func withArgs(env Env, args []string) Env {
	if env.Args == nil {
		env.Args = append([]string(nil), args...)
	}
	return env
}

// commandName is "flow" and the command args run, for messages.
func commandName(app *cli.App, args []string) string {
	for _, a := range args[min(1, len(args)):] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if app.Command(a) != nil {
			return "flow " + a
		}
		break
	}
	return "flow"
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

// groupAction runs a command that only groups subcommands (flow itself,
// flow sim): without arguments it prints the group's help; an argument
// that names no subcommand is invalid input (exit 2) with a did-you-mean
// hint, never urfave's "No help topic" internal error. At the top level,
// flow help [COMMAND] prints help as --help does. group is the group's
// full command line (flow ios runner), "" for flow itself.
func groupAction(c *cli.Context, group string) error {
	root := group == ""
	subs := c.App.Commands
	if !root {
		subs = c.Command.Subcommands
	}
	if !c.Args().Present() {
		if root {
			return cli.ShowAppHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
	}
	name := c.Args().First()
	if root && name == "help" {
		switch topic := c.Args().Get(1); {
		case topic == "":
			return cli.ShowAppHelp(c)
		case c.App.Command(topic) != nil:
			return cli.ShowCommandHelp(c, topic)
		default:
			return unknownCommand("flow", topic, subs)
		}
	}
	if root {
		group = "flow"
	}
	return unknownCommand(group, name, subs)
}

// unknownCommand is the error for a command name the group does not have.
func unknownCommand(group, name string, cmds []*cli.Command) *canonical.Error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	e := canonical.Errorf(canonical.CodeInvalidArgs, "%s has no command %q", group, name).With("command", name)
	if near := canonical.Suggest(name, names); near != "" {
		return e.WithHint(fmt.Sprintf("did you mean %s %s? Run %s --help to see the commands", group, near, group))
	}
	if group == "flow" {
		return e.WithHint("run flow --help to see the commands")
	}
	return e.WithHint(group + "'s commands are " + strings.Join(names, ", ") + "; run " + group + " --help for more")
}

// usageError is a flag parse error as INVALID_ARGS, suggesting the flag
// that was probably meant.
func usageError(err error, cmd string, flags []cli.Flag) *canonical.Error {
	e := canonical.NewError(canonical.CodeInvalidArgs, err.Error())
	if bad, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
		bad = strings.TrimLeft(bad, "-")
		var names []string
		for _, f := range flags {
			names = append(names, f.Names()...)
		}
		if near := canonical.Suggest(bad, names); near != "" {
			dashes := "--"
			if len(near) == 1 {
				dashes = "-"
			}
			return e.WithHint(fmt.Sprintf("did you mean %s%s? Run %s --help for usage", dashes, near, cmd))
		}
	}
	return e.WithHint("run " + cmd + " --help for usage")
}
