package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
	"github.com/flow-runner/flow/planner"
)

func checkCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check flows without a device: syntax, keys, referenced files, and every coordinate gesture planned",
		ArgsUsage: "PATH...",
		Description: `Checks every flow file given, or found in the folders given, and the subflows,
   scripts and media they reference. Coordinate swipes are planned against a phone-sized
   Android (1080x2400) and iOS (390x844) viewport unless --platform/--viewport say otherwise.
   Exits 0 when there is no problem, 2 otherwise.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "platform", Aliases: []string{"p"}, Usage: "plan gestures for android, ios or web only (default: android and ios)"},
			&cli.StringFlag{Name: "config", Usage: "workspace config file, as flow test's (default: config.yaml in the first folder given)"},
			&cli.StringFlag{Name: "include-tags", Usage: "check only flows with one of these tags (comma-separated), as flow test would run"},
			&cli.StringFlag{Name: "exclude-tags", Usage: "skip flows with one of these tags (comma-separated), as flow test would"},
			&cli.StringFlag{Name: "viewport", Usage: "viewport X,Y,W,H to plan against (with --platform)"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			maestroVersionFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() == 0 {
				return canonical.NewError(canonical.CodeInvalidArgs, "nothing to check").
					WithHint("give flow files or folders: flow check flows/")
			}
			o, err := checkOptions(c.String("platform"), c.String("viewport"))
			if err != nil {
				return err
			}
			if err := configExists(c.String("config")); err != nil {
				return err
			}
			o.Selection = maestro.PlanOptions{ConfigFile: c.String("config"),
				IncludeTags: splitTags(c.String("include-tags")), ExcludeTags: splitTags(c.String("exclude-tags"))}
			if o.MaestroVersion, err = maestroVersion(c, env); err != nil {
				return err
			}
			res, err := flowapi.Check(c.Context, toSlash(c.Args().Slice()), o)
			if err != nil {
				return err // incomplete: no summary that could pass for a verdict
			}
			if c.Bool("json") {
				data, _ := json.MarshalIndent(checkResultJSON(res), "", "  ")
				fmt.Fprintln(env.Stdout, string(data))
			} else {
				renderCheck(env.Stdout, res)
			}
			if len(res.Problems) > 0 {
				return reported{err: res.Problems[0]}
			}
			return nil
		},
	}
}

func toSlash(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.ToSlash(p)
	}
	return out
}

// checkOptions reads --platform and --viewport.
func checkOptions(platform, viewport string) (flowapi.CheckOptions, error) {
	if platform == "" {
		if viewport != "" {
			return flowapi.CheckOptions{}, canonical.NewError(canonical.CodeInvalidArgs, "--viewport needs --platform").
				WithHint("say which platform the viewport belongs to: --platform ios --viewport 0,0,390,844")
		}
		return flowapi.CheckOptions{}, nil
	}
	p, err := planner.ParsePlatform(platform)
	if err != nil {
		return flowapi.CheckOptions{}, err
	}
	o := flowapi.CheckOptions{Platform: p}
	if viewport != "" {
		vp, err := parseViewport(viewport)
		if err != nil {
			return flowapi.CheckOptions{}, err
		}
		o.Viewport = &vp
	}
	return o, nil
}

func checkSummary(r flowapi.CheckResult) string {
	return fmt.Sprintf("checked %d %s, %d %s: %d %s, %d %s", r.Files, plural(r.Files, "file"),
		r.Commands, plural(r.Commands, "command"), len(r.Problems), plural(len(r.Problems), "problem"),
		len(r.Warnings), plural(len(r.Warnings), "warning"))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func renderCheck(w io.Writer, r flowapi.CheckResult) {
	for _, p := range r.Problems {
		renderWithSnippet(w, r.Sources, p, "")
	}
	for _, p := range r.Warnings {
		renderWithSnippet(w, r.Sources, p, "warning: ")
	}
	fmt.Fprintln(w, checkSummary(r))
}

func checkResultJSON(r flowapi.CheckResult) map[string]any {
	list := func(es []*canonical.Error) []*canonical.Error {
		if es == nil {
			return []*canonical.Error{}
		}
		return es
	}
	selected := r.Selected
	if selected == nil {
		selected = []string{}
	}
	return map[string]any{"flows": selected, "files": r.Files, "commands": r.Commands,
		"problems": list(r.Problems), "warnings": list(r.Warnings), "summary": checkSummary(r)}
}
