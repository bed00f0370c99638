package main

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestEveryGroupNamesItself: an unknown subcommand of any command group,
// however deep (flow ios runner bogus), is INVALID_ARGS naming the group
// by its full command line, and the hint lists the group's real
// subcommands.
func TestEveryGroupNamesItself(t *testing.T) {
	t.Parallel()
	var groups [][]string
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string(nil), path...), c.Name)
			if len(c.Subcommands) > 0 {
				groups = append(groups, p)
				walk(p, c.Subcommands)
			}
		}
	}
	walk(nil, newApp(Env{}).Commands)
	deep := false
	for _, g := range groups {
		deep = deep || len(g) > 1
		t.Run(strings.Join(g, "_"), func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", append(g, "bogus")...)
			want := `flow ` + strings.Join(g, " ") + ` has no command "bogus"`
			if r.code != 2 || !strings.Contains(r.stderr, want) {
				t.Fatalf("want exit 2 and %q, got\n%s", want, r)
			}
			cmd := findCommand(newApp(Env{}).Commands, g)
			for _, sub := range cmd.Subcommands {
				if !sub.Hidden && !strings.Contains(r.stderr, sub.Name) {
					t.Errorf("the hint does not name the subcommand %q:\n%s", sub.Name, r)
				}
			}
		})
	}
	if !deep {
		t.Fatal("no nested group found: the test checks nothing deep")
	}
}

func findCommand(cmds []*cli.Command, path []string) *cli.Command {
	for _, c := range cmds {
		if c.Name == path[0] {
			if len(path) == 1 {
				return c
			}
			return findCommand(c.Subcommands, path[1:])
		}
	}
	return nil
}
