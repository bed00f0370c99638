package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

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
			res := runCheck(osSource{}, toSlash(c.Args().Slice()), targets)
			if c.Bool("json") {
				data, _ := json.MarshalIndent(res.jsonView(), "", "  ")
				fmt.Fprintln(env.Stdout, string(data))
			} else {
				res.render(env.Stdout, osSource{})
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
		return []planTarget{{planner.Android, defaultViewport(planner.Android)}, {planner.IOS, defaultViewport(planner.IOS)}}, nil
	}
	p, err := planner.ParsePlatform(platform)
	if err != nil {
		return nil, err
	}
	t := planTarget{p, defaultViewport(p)}
	if viewport != "" {
		if t.viewport, err = parseViewport(viewport); err != nil {
			return nil, err
		}
	}
	return []planTarget{t}, nil
}

type checkResult struct {
	files    int
	commands int
	problems []*canonical.Error
	warnings []*canonical.Error
}

// runCheck loads every flow under paths and plans their coordinate
// gestures on each target.
func runCheck(src maestro.Source, paths []string, targets []planTarget) checkResult {
	var res checkResult
	var adWarnings []*canonical.Error
	l := maestro.NewLoader(src)
	for _, p := range paths {
		files, err := flowFiles(src, p)
		if err != nil {
			res.problems = append(res.problems, canonical.Coded(err))
			continue
		}
		for _, f := range files {
			if isAdScript(f) {
				flow, err := loadAdScript(f, nil, nil, "")
				if err != nil {
					res.problems = append(res.problems, canonical.Coded(err))
					continue
				}
				res.files++
				adWarnings = append(adWarnings, flow.Warnings...)
				canonical.Walk(flow.Commands, func(canonical.Command) { res.commands++ })
				continue
			}
			_, _ = l.Load(f)
		}
	}
	res.problems = append(res.problems, l.Problems()...)
	res.warnings = append(l.Warnings(), adWarnings...)
	for _, f := range append(l.Flows(), l.Partial()...) {
		res.files++
		f.AllCommands(func(c canonical.Command) {
			res.commands++
			if sw, ok := c.(*canonical.Swipe); ok {
				failures := planSwipeChecks(sw, targets)
				if len(targets) > 1 && len(failures) > 0 && len(failures) < len(targets) {
					// It fits some default platform: absolute coordinates
					// written for one device size. Say so, but do not fail
					// a suite that may never run there.
					res.warnings = append(res.warnings, failures...)
				} else {
					res.problems = append(res.problems, failures...)
				}
			}
		})
	}
	res.files += failedFiles(res.problems, append(l.Flows(), l.Partial()...))
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

// flowFiles lists the flow files a path names: the file itself, or every
// .yaml/.yml file under a folder except workspace config files, sorted.
func flowFiles(src maestro.Source, p string) ([]string, error) {
	info, err := src.Stat(p)
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s does not exist", p).
			WithHint("give a flow file or a folder of flows")
	}
	if !info.IsDir() {
		return []string{path.Clean(p)}, nil
	}
	var out []string
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := src.ReadDir(dir)
		if err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "cannot read folder %s: %v", dir, err)
		}
		for _, e := range entries {
			full := path.Join(dir, e.Name())
			if e.IsDir() {
				if !strings.HasPrefix(e.Name(), ".") {
					if err := walk(full); err != nil {
						return err
					}
				}
				continue
			}
			if (isFlowFile(e) && !isAppModel(src, full)) || isAdScript(e.Name()) {
				out = append(out, full)
			}
		}
		return nil
	}
	if err := walk(path.Clean(p)); err != nil {
		return nil, err
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s holds no flow files", p).
			WithHint("flow files end in .yaml or .yml")
	}
	return out, nil
}

func isFlowFile(e fs.DirEntry) bool {
	name := strings.ToLower(e.Name())
	ext := path.Ext(name)
	if ext != ".yaml" && ext != ".yml" {
		return false
	}
	return strings.TrimSuffix(name, ext) != "config"
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

func (r checkResult) render(w io.Writer, src maestro.Source) {
	for _, p := range r.problems {
		renderWithSnippet(w, src, p, "")
	}
	for _, p := range r.warnings {
		renderWithSnippet(w, src, p, "warning: ")
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
	return map[string]any{"files": r.files, "commands": r.commands,
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
