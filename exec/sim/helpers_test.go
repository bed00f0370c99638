package sim_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/planner"
)

const shop = "com.example.shop"

// rig is a sim device with its virtual clock and event log.
type rig struct {
	t     *testing.T
	ctx   context.Context
	dev   *sim.Device
	clock *exec.VirtualClock
	log   *bytes.Buffer
	jlog  *exec.JSONLog
}

func start() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// newRig makes a device with opts (Clock and Events filled in) and launches
// the shop app fresh.
func newRig(t *testing.T, opts sim.Options) *rig {
	t.Helper()
	r := &rig{t: t, ctx: context.Background(), clock: exec.NewVirtualClock(start()), log: &bytes.Buffer{}}
	r.jlog = exec.NewJSONLog(r.log, r.clock)
	opts.Clock, opts.Events = r.clock, r.jlog
	r.dev = sim.New(opts)
	return r
}

func demo(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, sim.Options{})
	r.launch(shop)
	return r
}

func (r *rig) launch(appID string) {
	r.t.Helper()
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: appID, StopApp: true}))
}

func (r *rig) must(err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatalf("unexpected error: %v", err)
	}
}

func (r *rig) tree() *exec.Node {
	r.t.Helper()
	root, err := r.dev.Hierarchy(r.ctx)
	r.must(err)
	return root
}

// node finds an element by id in the current hierarchy, nil when absent.
func (r *rig) node(id string) *exec.Node { return find(r.tree(), id) }

func find(n *exec.Node, id string) *exec.Node {
	if n.ID == id {
		return n
	}
	for _, c := range n.Children {
		if f := find(c, id); f != nil {
			return f
		}
	}
	return nil
}

// has reports whether an element with id is on screen.
func (r *rig) has(id string) bool { return r.node(id) != nil }

// centre is the tap point of an element on screen (Maestro's integer halves).
func (r *rig) centre(id string) canonical.Point {
	r.t.Helper()
	n := r.node(id)
	if n == nil {
		r.t.Fatalf("%s is not on screen", id)
	}
	return n.Bounds.Center()
}

func (r *rig) tap(id string) {
	r.t.Helper()
	r.must(r.dev.Tap(r.ctx, r.centre(id)))
}

func (r *rig) tapAt(x, y float64) {
	r.t.Helper()
	r.must(r.dev.Tap(r.ctx, canonical.Point{X: x, Y: y}))
}

func (r *rig) text(id string) string {
	r.t.Helper()
	n := r.node(id)
	if n == nil {
		r.t.Fatalf("%s is not on screen", id)
	}
	return n.Text
}

// screen names the top screen by the ids it shows.
func (r *rig) screenHas(ids ...string) bool {
	for _, id := range ids {
		if !r.has(id) {
			return false
		}
	}
	return true
}

func (r *rig) openLink(link string) {
	r.t.Helper()
	r.must(r.dev.OpenLink(r.ctx, link, false))
}

// lines is the event log so far, one JSON object per line.
func (r *rig) lines() []string {
	return strings.Split(strings.TrimSpace(r.log.String()), "\n")
}

func (r *rig) gesture(p planner.Plan) {
	r.t.Helper()
	r.must(r.dev.PerformGesture(r.ctx, p))
}

func phone() canonical.Viewport { return canonical.Viewport{Width: 1080, Height: 2400} }

func f(v float64) *float64 { return &v }

func pt(x, y float64) *canonical.Point { return &canonical.Point{X: x, Y: y} }

// plan plans g on the shop's Android viewport with the real planner.
func plan(t *testing.T, g canonical.Gesture, platform planner.Platform) planner.Plan {
	t.Helper()
	p, err := planner.Gesture(g, phone(), platform)
	if err != nil {
		t.Fatalf("planning %+v: %v", g, err)
	}
	return p
}

// pan is a deliberate timed pan (the timed-pan profile).
func pan(t *testing.T, x, y, dx, dy float64, ms float64) planner.Plan {
	return plan(t, canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(x, y), Delta: pt(dx, dy), DurationMs: f(ms)}, planner.Android)
}

// swipe is a Maestro swipe: a pan with the endpoint-hold profile.
func swipe(t *testing.T, x, y, dx, dy float64, ms float64, platform planner.Platform) planner.Plan {
	return plan(t, canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(x, y), Delta: pt(dx, dy), DurationMs: f(ms),
		ExecutionProfile: canonical.ProfileEndpointHold}, platform)
}

// fling is a 100 ms endpoint-hold throw between two points.
func fling(t *testing.T, x1, y1, x2, y2 float64) planner.Plan {
	return plan(t, canonical.Gesture{Intent: canonical.IntentFling, From: pt(x1, y1), To: pt(x2, y2)}, planner.Android)
}

func codeOf(err error) canonical.Code { return canonical.CodeOf(err) }

// custom installs one app model and launches it.
func custom(t *testing.T, model string) *rig {
	t.Helper()
	app, err := sim.LoadApp("custom.yaml", []byte(model))
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, sim.Options{Apps: []*sim.App{app}})
	r.launch(app.AppID)
	return r
}
