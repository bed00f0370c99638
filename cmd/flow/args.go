package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/flow-runner/flow/canonical"
)

// urfave/cli v2 stops reading flags at the first positional argument, but
// users type `flow test flows/ --format junit`. hoistArgs moves a
// subcommand's flags (with their values) in front of its positionals, keeping
// everything after "--" untouched, so both orders parse the same.
func hoistArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	args = hoistGlobals(app, args)
	global := takesValue(app.Flags)
	var cmd *cli.Command
	idx := -1
	for i := 1; i < len(args); i++ {
		if name, ok := flagName(args[i]); ok {
			if global[name] && !strings.Contains(args[i], "=") {
				i++ // the option's value is no command
			}
			continue
		}
		cmd = app.Command(args[i])
		idx = i
		break
	}
	// Descend into subcommands (flow ios runner build --iphone): the
	// flags belong to the innermost one named.
	for cmd != nil && idx+1 < len(args) {
		sub := subcommand(cmd, args[idx+1])
		if sub == nil {
			break
		}
		cmd, idx = sub, idx+1
	}
	if cmd == nil || cmd.SkipFlagParsing {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	rest := args[idx+1:]
	var flags, pos, tail []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			tail = rest[i+1:]
			break
		}
		name, ok := flagName(a)
		if !ok {
			pos = append(pos, a)
			continue
		}
		value, known := takesValue[name]
		if !known {
			if isNumber(a) || cmd.SkipFlagParsing {
				pos = append(pos, a)
			} else if keepsUnknownFlags(cmd) && len(pos) > 0 {
				pos = append(pos, a)
			} else {
				flags = append(flags, a)
			}
			continue
		}
		if optionalValue(cmd, name) && !strings.Contains(a, "=") && (i+1 >= len(rest) || !isNumber(rest[i+1])) {
			// A bare flag whose count may be left out: its zero value.
			flags = append(flags, a+"=0")
			continue
		}
		flags = append(flags, a)
		if value && !strings.Contains(a, "=") && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	out := append([]string{}, args[:idx+1]...)
	out = append(out, flags...)
	out = append(out, "--")
	out = append(out, pos...)
	return append(out, tail...)
}

func subcommand(cmd *cli.Command, name string) *cli.Command {
	for _, c := range cmd.Subcommands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func flagName(a string) (string, bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", false
	}
	name := strings.TrimLeft(a, "-")
	name, _, _ = strings.Cut(name, "=")
	return name, name != ""
}

func isNumber(a string) bool {
	return canonical.IsFinite(canonical.ParseNumber(a)) && strings.TrimSpace(a) != ""
}

// optionalValue is true for the number flags that may be given bare:
// flow test --device a,b,c --parallel (one device per entry).
func optionalValue(cmd *cli.Command, name string) bool {
	return cmd.Name == "test" && name == "parallel"
}

// keepsUnknownFlags is true for commands whose positionals are a gesture
// command line with flags of its own (flow plan swipe ... --count 3).
func keepsUnknownFlags(cmd *cli.Command) bool {
	switch cmd.Name {
	case "plan":
		return true
	}
	return false
}
