package main

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
	"github.com/flow-runner/flow/planner"
)

// planFlowFile prints, for every command of a flow file (hooks and inline
// bodies included), its canonical form and, for a coordinate gesture, its
// plan; commands that need a live screen say so. One JSON object per line.
func planFlowFile(ctx context.Context, w io.Writer, src maestro.Source, file string, o planOptions) error {
	file = filepath.ToSlash(file)
	var f *canonical.Flow
	var err error
	if flowapi.IsAdScript(file) {
		f, err = flowapi.LoadAdScript(file, nil, nil, string(o.platform))
	} else {
		f, err = maestro.NewLoader(src).WithContext(ctx).WithMaestroVersion(o.maestroVersion).Load(file)
	}
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var firstErr error
	emit := func(section string, cmds []canonical.Command) {
		canonical.Walk(cmds, func(c canonical.Command) {
			line, err := planFlowCommand(c, o)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			line["section"] = section
			_ = enc.Encode(line)
		})
	}
	emit("onFlowStart", f.OnFlowStart)
	emit("commands", f.Commands)
	emit("onFlowComplete", f.OnFlowComplete)
	if firstErr != nil {
		return reported{err: firstErr}
	}
	return nil
}

func planFlowCommand(c canonical.Command, o planOptions) (map[string]any, error) {
	data, err := canonical.EncodeCommand(c)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"canonical": json.RawMessage(data)}
	if plan, handled, err := planGestureCommand(c, o); handled {
		if err != nil {
			ce := canonical.Coded(canonical.AtIfNone(err, c.Base().Pos))
			out["error"] = ce
			return out, ce
		}
		out["plan"] = plan
		return out, nil
	}
	sw, ok := c.(*canonical.Swipe)
	if !ok {
		if need := needsScreen(c); need != "" {
			out["needs"] = need
		}
		return out, nil
	}
	if sw.Start.NeedsScreen() {
		out["needs"] = "a live screen: the swipe starts on an element"
		return out, nil
	}
	pct := func(a canonical.Anchor) (string, bool) {
		if a.Kind != canonical.AnchorPercent {
			return "", true
		}
		return a.Percent.Literal()
	}
	ps, ok1 := pct(sw.Start)
	pe, ok2 := pct(sw.End)
	if !ok1 || !ok2 {
		out["needs"] = "the run: its percentages use ${...}"
		return out, nil
	}
	p := string(o.platform)
	from, err := sw.Start.Resolve(o.viewport, p, ps, nil, nil)
	if err == nil {
		var to canonical.Point
		if to, err = sw.End.Resolve(o.viewport, p, pe, &from, nil); err == nil {
			var g canonical.Gesture
			if g, err = sw.Pan(from, to, p); err == nil {
				var plan planner.Plan
				if plan, err = planner.Gesture(g, o.viewport, o.platform); err == nil {
					if o.lower == "" {
						out["plan"] = plan
					} else if out["lowered"], err = lowerPlan(o.lower, plan, o.appID); err != nil {
						out["lowered"] = nil
					}
				}
			}
		}
	}
	if err != nil {
		ce := canonical.Coded(canonical.AtIfNone(err, sw.Pos))
		out["error"] = ce
		return out, ce
	}
	return out, nil
}

// needsScreen says why a command cannot be planned without a device, or ""
// for commands with nothing to plan.
func needsScreen(c canonical.Command) string {
	switch t := c.(type) {
	case *canonical.Tap:
		if t.Selector != nil {
			return "a live screen: the tap target is an element"
		}
		return "a live screen: taps are not gestures to plan"
	case *canonical.ScrollUntilVisible:
		return "a live screen: it swipes until the element is visible"
	case *canonical.Assert, *canonical.CopyText:
		return "a live screen: it reads the hierarchy"
	}
	return ""
}

// planGestureCommand plans the gesture syntax commands of .ad scripts: a
// gesture, or every fling of a repeated swipe.
func planGestureCommand(c canonical.Command, o planOptions) (any, bool, error) {
	switch t := c.(type) {
	case *canonical.GestureStep:
		out, err := planGesture(t.Input, o)
		return out, true, err
	case *canonical.SwipeSeries:
		out, err := planSwipe(t.Swipe, o)
		return out, true, err
	}
	return nil, false, nil
}
