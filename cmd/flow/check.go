package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

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
			&cli.StringFlag{Name: "platform", Usage: "plan gestures for android, ios or web only (default: android and ios)"},
			&cli.StringFlag{Name: "viewport", Usage: "viewport X,Y,W,H to plan against (with --platform)"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() == 0 {
				return canonical.NewError(canonical.CodeInvalidArgs, "nothing to check").
					WithHint("give flow files or folders: flow check flows/")
			}
			targets, err := checkTargets(c.String("platform"), c.String("viewport"))
			if err != nil {
				return err
			}
			res := runCheck(c.Context, flowapi.OSSource{}, toSlash(c.Args().Slice()), targets)
			if res.stopped != nil {
				return res.stopped // incomplete: no summary that could pass for a verdict
			}
			if c.Bool("json") {
				data, _ := json.MarshalIndent(res.jsonView(), "", "  ")
				fmt.Fprintln(env.Stdout, string(data))
			} else {
				res.render(env.Stdout)
			}
			if len(res.problems) > 0 {
				return reported{err: res.problems[0]}
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

// planTarget is one platform and viewport gestures are planned against.
type planTarget struct {
	platform planner.Platform
	viewport canonical.Viewport
}

func checkTargets(platform, viewport string) ([]planTarget, error) {
	if platform == "" {
		if viewport != "" {
			return nil, canonical.NewError(canonical.CodeInvalidArgs, "--viewport needs --platform").
				WithHint("say which platform the viewport belongs to: --platform ios --viewport 0,0,390,844")
		}
		return []planTarget{{planner.Android, flowapi.DefaultViewport(planner.Android)}, {planner.IOS, flowapi.DefaultViewport(planner.IOS)}}, nil
	}
	p, err := planner.ParsePlatform(platform)
	if err != nil {
		return nil, err
	}
	t := planTarget{p, flowapi.DefaultViewport(p)}
	if viewport != "" {
		if t.viewport, err = parseViewport(viewport); err != nil {
			return nil, err
		}
	}
	return []planTarget{t}, nil
}

type checkResult struct {
	// selected are the files discovery selected as flows and scripts.
	selected []string
	files    int
	commands int
	problems []*canonical.Error
	warnings []*canonical.Error
	// stopped is the INTERRUPTED error when ctx ended the check early.
	stopped error
	// sources are the files whose lines the rendered problems may quote.
	sources knownSources
}

// runCheck selects the flows of paths as flow test does (one workspace
// discovery, the same rules), loads each with everything it references,
// and plans their coordinate gestures on each target. It stops between
// files and commands once ctx is done, with res.stopped set.
func runCheck(ctx context.Context, src maestro.Source, paths []string, targets []planTarget) (res checkResult) {
	defer func() {
		if ctx.Err() != nil {
			res.stopped = canonical.Interrupted(ctx.Err())
		}
	}()
	var adWarnings []*canonical.Error
	l := maestro.NewLoader(src).WithContext(ctx)
	res.sources.loader = l
	opts := workspaceOptions(src, maestro.PlanOptions{KeepGoing: true})
	ws, err := l.Discover(paths, opts)
	if err == nil {
		res.selected = append(append([]string{}, ws.Files...), ws.Scripts...)
		_, err = l.PlanWorkspace(ws, opts)
	}
	res.problems = append(res.problems, l.Problems()...)
	if err != nil {
		seen := map[*canonical.Error]bool{}
		for _, p := range res.problems {
			seen[p] = true
		}
		var le *maestro.LoadError
		if errors.As(err, &le) {
			for _, p := range le.Problems {
				if !seen[p] {
					res.problems = append(res.problems, p)
				}
			}
		} else {
			res.problems = append(res.problems, canonical.Coded(err))
		}
	}
	var scripts []*canonical.Flow
	// check counts a command and plans its gesture on every target.
	check := func(c canonical.Command) {
		if ctx.Err() != nil {
			return
		}
		res.commands++
		var failures []*canonical.Error
		switch x := c.(type) {
		case *canonical.Swipe:
			failures = planSwipeChecks(x, targets)
		case *canonical.GestureStep, *canonical.SwipeSeries:
			// .ad and CLI gestures with their points written out: flow
			// test refuses them before the device acts, so check does.
			failures = planCommandChecks(c, targets)
		}
		if len(failures) > 0 {
			if len(targets) > 1 && len(failures) < len(targets) {
				// It fits some default platform: absolute coordinates
				// written for one device size. Say so, but do not fail
				// a suite that may never run there.
				res.warnings = append(res.warnings, failures...)
			} else {
				res.problems = append(res.problems, failures...)
			}
		}
	}
	if ws != nil {
		// Every selected script is checked, whatever its tags would do.
		for _, f := range ws.Scripts {
			if ctx.Err() != nil {
				return res
			}
			flow, text, err := flowapi.LoadAdFile(f, nil, nil, "")
			res.sources.addScript(f, text)
			if err != nil {
				res.problems = append(res.problems, canonical.Coded(err))
				continue
			}
			res.files++
			scripts = append(scripts, flow)
			adWarnings = append(adWarnings, flow.Warnings...)
			canonical.Walk(flow.Commands, check)
		}
	}
	res.warnings = append(l.Warnings(), adWarnings...)
	for _, f := range append(l.Flows(), l.Partial()...) {
		if ctx.Err() != nil {
			return res
		}
		res.files++
		f.AllCommands(check)
	}
	res.files += failedFiles(res.problems, append(append(l.Flows(), l.Partial()...), scripts...))
	sortProblems(res.problems)
	sortProblems(res.warnings)
	return res
}

// failedFiles counts files that failed to load (they have problems but no
// flow), so the summary counts every file checked.
func failedFiles(problems []*canonical.Error, loaded []*canonical.Flow) int {
	ok := map[string]bool{}
	for _, f := range loaded {
		ok[f.File] = true
	}
	bad := map[string]bool{}
	for _, p := range problems {
		if p.Pos.File != "" && !ok[p.Pos.File] {
			bad[p.Pos.File] = true
		}
	}
	return len(bad)
}

func sortProblems(ps []*canonical.Error) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Pos, ps[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// planCommandChecks plans a gesture command on every target, as flow
// test's pre-planning does; one that cannot fit fails here.
func planCommandChecks(c canonical.Command, targets []planTarget) []*canonical.Error {
	var out []*canonical.Error
	for _, t := range targets {
		_, handled, err := planGestureCommand(c, planOptions{platform: t.platform, viewport: t.viewport})
		if !handled || err == nil {
			continue
		}
		ce := canonical.Coded(canonical.AtIfNone(err, c.Base().Pos))
		e := *ce
		e.Message = fmt.Sprintf("%s on %s %s", ce.Message, t.platform, viewportText(t.viewport))
		e.Details = map[string]any{}
		for k, v := range ce.Details {
			e.Details[k] = v
		}
		e.Details["platform"] = string(t.platform)
		out = append(out, &e)
	}
	return out
}

// planSwipeChecks plans a swipe whose ends are known without a screen on
// every target; a swipe that cannot fit fails here, before any device.
func planSwipeChecks(sw *canonical.Swipe, targets []planTarget) []*canonical.Error {
	if sw.Start.NeedsScreen() || sw.End.NeedsScreen() {
		return nil
	}
	var out []*canonical.Error
	for _, t := range targets {
		percent := func(a canonical.Anchor) (string, bool) {
			if a.Kind != canonical.AnchorPercent {
				return "", true
			}
			return a.Percent.Literal()
		}
		ps, ok1 := percent(sw.Start)
		pe, ok2 := percent(sw.End)
		if !ok1 || !ok2 {
			return nil // ${} percentages are known only when the flow runs
		}
		from, err := sw.Start.Resolve(t.viewport, string(t.platform), ps, nil, nil)
		if err == nil {
			var to canonical.Point
			if to, err = sw.End.Resolve(t.viewport, string(t.platform), pe, &from, nil); err == nil {
				var g canonical.Gesture
				if g, err = sw.Pan(from, to, string(t.platform)); err == nil {
					_, err = planner.Gesture(g, t.viewport, t.platform)
				}
			}
		}
		if err != nil {
			ce := canonical.Coded(err)
			e := *ce
			e.Pos = sw.Pos
			e.Message = fmt.Sprintf("%s on %s %s", ce.Message, t.platform, viewportText(t.viewport))
			e.Details = map[string]any{}
			for k, v := range ce.Details {
				e.Details[k] = v
			}
			e.Details["platform"] = string(t.platform)
			out = append(out, &e)
		}
	}
	return out
}

func viewportText(v canonical.Viewport) string {
	return fmt.Sprintf("%sx%s", canonical.FormatNumber(v.Width), canonical.FormatNumber(v.Height))
}

func (r checkResult) summary() string {
	return fmt.Sprintf("checked %d %s, %d %s: %d %s, %d %s", r.files, plural(r.files, "file"),
		r.commands, plural(r.commands, "command"), len(r.problems), plural(len(r.problems), "problem"),
		len(r.warnings), plural(len(r.warnings), "warning"))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (r checkResult) render(w io.Writer) {
	for _, p := range r.problems {
		renderWithSnippet(w, r.sources, p, "")
	}
	for _, p := range r.warnings {
		renderWithSnippet(w, r.sources, p, "warning: ")
	}
	fmt.Fprintln(w, r.summary())
}

func (r checkResult) jsonView() map[string]any {
	list := func(es []*canonical.Error) []*canonical.Error {
		if es == nil {
			return []*canonical.Error{}
		}
		return es
	}
	selected := r.selected
	if selected == nil {
		selected = []string{}
	}
	return map[string]any{"flows": selected, "files": r.files, "commands": r.commands,
		"problems": list(r.problems), "warnings": list(r.warnings), "summary": r.summary()}
}

// isAppModel recognises a sim app model (contracts §7) inside a folder of
// flows: one document with a top-level screens: key. Such files describe
// an app, not a test, so checking a folder skips them.
func isAppModel(src maestro.Source, file string) bool {
	data, err := src.ReadFile(file)
	if err != nil {
		return false
	}
	screens := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(line, "---") && strings.TrimSpace(line) == "---" {
			return false
		}
		if strings.HasPrefix(line, "screens:") {
			screens = true
		}
	}
	return screens
}
