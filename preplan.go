package flow

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/maestro"
	"github.com/flow-runner/flow/planner"
)

// preplan plans every statically known coordinate gesture of every flow
// of the plan (subflows, hooks and loop bodies included) against the
// device's viewport, with the code flow check and flow plan use, before
// the device does anything: a flow with a gesture that cannot fit is
// refused (INVALID_ARGS, exit 2) and never starts, so it causes no device
// action at all. The other flows still run, as they do beside a flow that
// cannot load.
//
// The viewport is read, never acted for: an app's own viewport when the
// device knows it without launching it (sim's app models), else the
// device's current one (the browser window). Branches of runFlow for
// another platform (when: platform) are not planned; they never run here.
func preplan(ctx context.Context, dev exec.Device, plan *maestro.ExecutionPlan) (map[*canonical.Flow]*canonical.Error, error) {
	info, err := dev.Info(ctx)
	if err != nil {
		return nil, deviceError(err, "read the device information")
	}
	p := &preplanner{ctx: ctx, dev: dev, platform: planner.Platform(strings.ToLower(info.Platform)),
		viewports: map[string]canonical.Viewport{}}
	refused := map[*canonical.Flow]*canonical.Error{}
	for _, f := range plan.All() {
		e, err := p.flow(f, map[*canonical.Flow]bool{})
		if err != nil {
			return nil, err
		}
		if e != nil {
			refused[f] = e
		}
	}
	return refused, nil
}

type preplanner struct {
	ctx       context.Context
	dev       exec.Device
	platform  planner.Platform
	viewports map[string]canonical.Viewport // by app id; "" is the device's
}

// viewport is the viewport f's gestures run against.
func (p *preplanner) viewport(f *canonical.Flow) (canonical.Viewport, error) {
	app, _ := f.AppID.Literal()
	if vp, ok := p.viewports[app]; ok {
		return vp, nil
	}
	if av, ok := p.dev.(exec.AppViewports); ok && app != "" {
		vp, known, err := av.AppViewport(p.ctx, app)
		if err != nil {
			return canonical.Viewport{}, deviceError(err, "read the app's viewport")
		}
		if known {
			p.viewports[app] = vp
			return vp, nil
		}
	}
	vp, ok := p.viewports[""]
	if !ok {
		var err error
		if vp, err = p.dev.Viewport(p.ctx); err != nil {
			return canonical.Viewport{}, deviceError(err, "read the viewport")
		}
		p.viewports[""] = vp
	}
	p.viewports[app] = vp
	return vp, nil
}

// flow is the first gesture of f (and the subflows it runs) that cannot
// fit, or nil.
func (p *preplanner) flow(f *canonical.Flow, seen map[*canonical.Flow]bool) (*canonical.Error, error) {
	if f == nil || seen[f] {
		return nil, nil
	}
	seen[f] = true
	// The viewport is read only for a flow with a gesture to plan: most
	// flows have none, and on a remote device a read is a round trip.
	var t *planTarget
	target := func() (planTarget, error) {
		if t == nil {
			vp, err := p.viewport(f)
			if err != nil {
				return planTarget{}, err
			}
			t = &planTarget{platform: p.platform, viewport: vp}
		}
		return *t, nil
	}
	for _, cmds := range [][]canonical.Command{f.OnFlowStart, f.Commands, f.OnFlowComplete} {
		if e, err := p.commands(cmds, target, seen); e != nil || err != nil {
			return e, err
		}
	}
	return nil, nil
}

func (p *preplanner) commands(cmds []canonical.Command, target func() (planTarget, error),
	seen map[*canonical.Flow]bool) (*canonical.Error, error) {
	for _, c := range cmds {
		switch c.(type) {
		case *canonical.Swipe, *canonical.GestureStep, *canonical.SwipeSeries:
			t, err := target()
			if err != nil {
				return nil, err
			}
			if e := staticGestureProblem(c, t); e != nil {
				return e, nil
			}
		}
		var inner []canonical.Command
		var sub *canonical.Flow
		switch x := c.(type) {
		case *canonical.RunFlow:
			if x.When != nil && x.When.Platform != "" && !strings.EqualFold(x.When.Platform, string(p.platform)) {
				continue
			}
			inner, sub = x.Commands, x.Flow
		case *canonical.Repeat:
			inner = x.Commands
		case *canonical.Retry:
			inner, sub = x.Commands, x.Flow
		}
		if e, err := p.commands(inner, target, seen); e != nil || err != nil {
			return e, err
		}
		if e, err := p.flow(sub, seen); e != nil || err != nil {
			return e, err
		}
	}
	return nil, nil
}

// staticGestureProblem plans one command whose gesture is known without a
// screen, as flow check does, and says why it cannot run on t.
func staticGestureProblem(c canonical.Command, t planTarget) *canonical.Error {
	if failures := GestureProblems(c, t.platform, t.viewport); len(failures) > 0 {
		return refusal(failures[0])
	}
	return nil
}

// refusal says that the flow did not start because of e.
func refusal(e *canonical.Error) *canonical.Error {
	out := *e
	note := "the flow did not run: flow test plans every coordinate gesture before the device acts"
	if out.Hint != "" {
		out.Hint += "\n" + note
	} else {
		out.Hint = note
	}
	return &out
}

// refusedFlow is a flow preplan refused: failed with its error, never
// started on the device.
func refusedFlow(f *canonical.Flow, obs exec.Observer, shard int, e *canonical.Error) exec.FlowResult {
	r := exec.FlowResult{Name: f.Name, File: f.File, Status: exec.StatusFailed, Error: e, Shard: shard}
	obs.FlowStarted(f, shard)
	obs.FlowFinished(r)
	return r
}

// deviceError is a failure to read the device as DEVICE_UNAVAILABLE.
func deviceError(err error, what string) error {
	if _, ok := canonical.AsError(err); ok {
		return err
	}
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "could not %s: %v", what, err).Wrap(err)
}
