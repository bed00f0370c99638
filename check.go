package flow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
	"github.com/flow-runner/flow/planner"
)

// CheckOptions say what Check plans gestures for.
type CheckOptions struct {
	// Platform plans for this platform only; empty plans for an Android
	// phone and an iPhone both, a gesture that fits only one being a
	// warning.
	Platform planner.Platform
	// Viewport, with Platform, is the screen to plan for; nil is the
	// platform's phone.
	Viewport *canonical.Viewport
	// Source reads the files; nil is the file system.
	Source maestro.Source
	// Selection is flow test's selection: --config, --include-tags,
	// --exclude-tags. Flows the tags leave out are not checked, as flow
	// test would not run them (the subflows they call may still be, when
	// a selected flow or another file loads them).
	Selection maestro.PlanOptions
	// MaestroVersion is the Maestro semantics flows are checked with, as
	// flow test would read them; "" lets the workspace config decide, else
	// the current Maestro.
	MaestroVersion canonical.MaestroVersion
}

// CheckResult is what Check found. Problems make `flow check` exit 2;
// warnings do not.
type CheckResult struct {
	// Selected are the files discovery selected as flows and scripts.
	Selected []string
	Files    int
	Commands int
	Problems []*canonical.Error
	Warnings []*canonical.Error
	// Sources give the text of the files read, to quote a problem's line.
	Sources Sources
	// stopped is the INTERRUPTED error when ctx ended the check early.
	stopped error
}

// planTarget is one platform and viewport gestures are planned against.
type planTarget struct {
	platform planner.Platform
	viewport canonical.Viewport
}

// Check checks flows and .ad scripts without a device, as flow check
// does: it selects the files of paths as flow test would (one workspace
// discovery), loads each with everything it references, and plans every
// coordinate gesture it can know without a screen. A ctx that ends stops
// it between files and commands with an INTERRUPTED error and the result
// so far.
func Check(ctx context.Context, paths []string, o CheckOptions) (CheckResult, error) {
	src := o.Source
	if src == nil {
		src = OSSource{}
	}
	targets := []planTarget{{planner.Android, DefaultViewport(planner.Android)}, {planner.IOS, DefaultViewport(planner.IOS)}}
	if o.Platform != "" || o.Viewport != nil {
		if o.Platform == "" {
			return CheckResult{}, canonical.NewError(canonical.CodeInvalidArgs, "a viewport needs a platform").
				WithHint("say which platform the viewport belongs to: --platform ios --viewport 0,0,390,844")
		}
		p, err := planner.ParsePlatform(string(o.Platform))
		if err != nil {
			return CheckResult{}, err
		}
		t := planTarget{p, DefaultViewport(p)}
		if o.Viewport != nil {
			t.viewport = *o.Viewport
		}
		targets = []planTarget{t}
	}
	res := runCheck(ctx, src, paths, targets, o.Selection, o.MaestroVersion)
	return res, res.stopped
}

// runCheck selects the flows of paths as flow test does (one workspace
// discovery, the same rules), loads each with everything it references,
// and plans their coordinate gestures on each target. It stops between
// files and commands once ctx is done, with res.stopped set.
func runCheck(ctx context.Context, src maestro.Source, paths []string, targets []planTarget, sel maestro.PlanOptions, v canonical.MaestroVersion) (res CheckResult) {
	defer func() {
		if ctx.Err() != nil {
			res.stopped = canonical.Interrupted(ctx.Err())
		}
	}()
	var adWarnings []*canonical.Error
	kept := &readOnce{Source: src, kept: map[string][]byte{}}
	l := maestro.NewLoader(kept).WithContext(ctx).WithMaestroVersion(v)
	res.Sources.Loader = l
	sel.KeepGoing = true
	opts := WorkspaceOptions(src, sel)
	// Discovery reads every file to tell app models from flows; the
	// loader then gets that text instead of reading the file again.
	opts.Skip = func(file string) bool {
		data, err := src.ReadFile(file)
		if err != nil {
			return false
		}
		if appModelText(data) {
			return true
		}
		kept.keep(file, data)
		return false
	}
	ws, err := l.Discover(paths, opts)
	// left are the flows the tags leave out: loaded to read their tags,
	// never run, so never checked.
	left := map[string]bool{}
	if err == nil {
		var plan *maestro.ExecutionPlan
		plan, err = l.PlanWorkspace(ws, opts)
		files := ws.Files
		if plan != nil {
			files, left = selectedFiles(ws.Files, plan)
			ws.Scripts = plan.Scripts
		}
		res.Selected = append(append([]string{}, files...), ws.Scripts...)
	}
	res.Problems = append(res.Problems, l.Problems()...)
	if err != nil {
		seen := map[*canonical.Error]bool{}
		for _, p := range res.Problems {
			seen[p] = true
		}
		var le *maestro.LoadError
		if errors.As(err, &le) {
			for _, p := range le.Problems {
				if !seen[p] {
					res.Problems = append(res.Problems, p)
				}
			}
		} else {
			res.Problems = append(res.Problems, canonical.Coded(err))
		}
	}
	var scripts []*canonical.Flow
	var sc flowCheck
	if ws != nil {
		// Every selected script is checked, whatever its tags would do.
		for _, f := range ws.Scripts {
			if ctx.Err() != nil {
				res.add(sc)
				return res
			}
			flow, text, err := LoadAdFile(f, nil, nil, "")
			res.Sources.AddScript(f, text)
			if err != nil {
				res.Problems = append(res.Problems, canonical.Coded(err))
				continue
			}
			res.Files++
			scripts = append(scripts, flow)
			adWarnings = append(adWarnings, flow.Warnings...)
			canonical.Walk(flow.Commands, func(c canonical.Command) { sc.command(ctx, c, targets) })
		}
	}
	// The loader's and the scripts' own warnings first, then what
	// planning the scripts' gestures found (res.add), none dropped.
	res.Warnings = append(append(l.Warnings(), adWarnings...), res.Warnings...)
	res.add(sc)
	var flows []*canonical.Flow
	for _, f := range append(l.Flows(), l.Partial()...) {
		if !left[f.File] {
			flows = append(flows, f)
		}
	}
	for _, fc := range checkFlows(ctx, flows, targets) {
		if ctx.Err() != nil {
			return res
		}
		res.Files++
		res.add(fc)
	}
	res.Files += failedFiles(res.Problems, append(append(l.Flows(), l.Partial()...), scripts...))
	canonical.SortByPos(res.Problems)
	canonical.SortByPos(res.Warnings)
	return res
}

// flowCheck is what checking the commands of one flow found.
type flowCheck struct {
	commands           int
	problems, warnings []*canonical.Error
}

// command counts a command and plans its gesture on every target.
func (fc *flowCheck) command(ctx context.Context, c canonical.Command, targets []planTarget) {
	if ctx.Err() != nil {
		return
	}
	fc.commands++
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
			fc.warnings = append(fc.warnings, failures...)
		} else {
			fc.problems = append(fc.problems, failures...)
		}
	}
}

func (res *CheckResult) add(fc flowCheck) {
	res.Commands += fc.commands
	res.Problems = append(res.Problems, fc.problems...)
	res.Warnings = append(res.Warnings, fc.warnings...)
}

// checkFlows checks the commands of each flow on every core: a flow's
// planning reads only that flow. The results are in the flows' order, so
// what check reports does not depend on which core was first.
func checkFlows(ctx context.Context, flows []*canonical.Flow, targets []planTarget) []flowCheck {
	out := make([]flowCheck, len(flows))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(flows)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(flows) || ctx.Err() != nil {
					return
				}
				flows[i].AllCommands(func(c canonical.Command) { out[i].command(ctx, c, targets) })
			}
		}()
	}
	wg.Wait()
	return out
}

// selectedFiles splits the discovered flow files into those the plan
// runs (or could not load, which check reports) and those its tag
// filter left out.
func selectedFiles(files []string, plan *maestro.ExecutionPlan) ([]string, map[string]bool) {
	keep := map[string]bool{}
	for _, f := range plan.All() {
		keep[f.File] = true
	}
	for _, b := range plan.Broken {
		keep[b.File] = true
	}
	var out []string
	left := map[string]bool{}
	for _, f := range files {
		if keep[f] {
			out = append(out, f)
		} else {
			left[f] = true
		}
	}
	return out, left
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

// GestureProblems plans a gesture command whose points are known without
// a screen — a Maestro coordinate swipe, an .ad or CLI gesture or swipe
// line — for a platform and viewport, as flow test's pre-planning and
// flow check do: nil when it fits or cannot be known yet, else why not.
func GestureProblems(c canonical.Command, platform planner.Platform, viewport canonical.Viewport) []*canonical.Error {
	t := []planTarget{{platform, viewport}}
	if sw, ok := c.(*canonical.Swipe); ok {
		return planSwipeChecks(sw, t)
	}
	return planCommandChecks(c, t)
}

// planCommand plans an .ad or CLI gesture line's command.
func planCommand(c canonical.Command, t planTarget) (bool, error) {
	switch x := c.(type) {
	case *canonical.GestureStep:
		_, err := PlanInput(x.Input, PlanOptions{Platform: t.platform, Viewport: &t.viewport})
		return true, err
	case *canonical.SwipeSeries:
		_, err := planner.SwipeSeries(x.Swipe, t.viewport, t.platform)
		return true, err
	}
	return false, nil
}

// planCommandChecks plans a gesture command on every target, as flow
// test's pre-planning does; one that cannot fit fails here.
func planCommandChecks(c canonical.Command, targets []planTarget) []*canonical.Error {
	var out []*canonical.Error
	for _, t := range targets {
		handled, err := planCommand(c, t)
		if !handled || err == nil {
			continue
		}
		out = append(out, onTarget(canonical.Coded(canonical.AtIfNone(err, c.Base().Pos)), t))
	}
	return out
}

// onTarget is a planning error that names the platform and viewport it
// was planned for, in its message and details.
func onTarget(ce *canonical.Error, t planTarget) *canonical.Error {
	e := *ce
	e.Message = fmt.Sprintf("%s on %s %s", ce.Message, t.platform, viewportText(t.viewport))
	e.Details = map[string]any{}
	for k, v := range ce.Details {
		e.Details[k] = v
	}
	e.Details["platform"] = string(t.platform)
	return &e
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
			e := onTarget(canonical.Coded(err), t)
			e.Pos = sw.Pos
			out = append(out, e)
		}
	}
	return out
}

func viewportText(v canonical.Viewport) string {
	return fmt.Sprintf("%sx%s", canonical.FormatNumber(v.Width), canonical.FormatNumber(v.Height))
}

// WorkspaceOptions completes the planning options flow test and flow
// check share: sim app models in a folder of flows are not flows.
func WorkspaceOptions(src maestro.Source, o maestro.PlanOptions) maestro.PlanOptions {
	o.Skip = func(file string) bool { return IsAppModel(src, file) }
	return o
}

// IsAppModel recognises a sim app model (contracts §7) inside a folder of
// flows: one document with a top-level screens: key. Such files describe
// an app, not a test, so checking a folder skips them.
func IsAppModel(src maestro.Source, file string) bool {
	data, err := src.ReadFile(file)
	if err != nil {
		return false
	}
	return appModelText(data)
}

func appModelText(data []byte) bool {
	screens := false
	// Line by line in place: splitting a copy of every file of a workspace
	// was a tenth of flow check's allocations.
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimRight(line, "\r")
		if bytes.HasPrefix(line, []byte("---")) && string(bytes.TrimSpace(line)) == "---" {
			return false
		}
		if bytes.HasPrefix(line, []byte("screens:")) {
			screens = true
		}
	}
	return screens
}

// readOnce is a Source that hands out, once, the text of a file read
// before: flow check's discovery reads every file of a folder, and the
// loader would read each again. Safe for concurrent use, as the loader
// needs (maestro.Source).
type readOnce struct {
	maestro.Source
	mu   sync.Mutex
	kept map[string][]byte
}

func (r *readOnce) keep(file string, data []byte) {
	r.mu.Lock()
	r.kept[file] = data
	r.mu.Unlock()
}

// ReadFile is the kept text the first time; the file after that, so a
// file read again is read as it is now.
func (r *readOnce) ReadFile(name string) ([]byte, error) {
	r.mu.Lock()
	data, ok := r.kept[name]
	delete(r.kept, name)
	r.mu.Unlock()
	if ok {
		return data, nil
	}
	return r.Source.ReadFile(name)
}

// Sources are the files of one command an error may quote: the loader's
// recognized flows and the .ad scripts that parsed; never a file a flow
// merely names, so an error never prints someone's secrets.
type Sources struct {
	Loader  *maestro.Loader
	scripts map[string][]byte
}

// Recognized is a file's text when it may be quoted.
func (k Sources) Recognized(file string) ([]byte, bool) {
	if data, ok := k.scripts[file]; ok {
		return data, true
	}
	if k.Loader == nil {
		return nil, false
	}
	return k.Loader.Recognized(file)
}

// AddScript records an .ad script's text when it parsed (text is nil
// otherwise).
func (k *Sources) AddScript(file string, text []byte) {
	if text == nil {
		return
	}
	if k.scripts == nil {
		k.scripts = map[string][]byte{}
	}
	k.scripts[filepath.ToSlash(file)] = text
}
