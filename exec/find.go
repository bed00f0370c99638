package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// compile evaluates a selector's templates and compiles it.
func (r *run) compile(ctx context.Context, s *canonical.Selector) (*query, error) {
	if s == nil {
		return nil, nil
	}
	q := &query{width: s.Width, height: s.Height, enabled: s.Enabled, selected: s.Selected,
		checked: s.Checked, focused: s.Focused, traits: s.Traits}
	if s.Tolerance != nil {
		q.tolerance = *s.Tolerance
	}
	if s.Text != nil {
		v, err := r.str(ctx, *s.Text)
		if err != nil {
			return nil, err
		}
		q.text = compilePattern(v)
	}
	if s.ID != nil {
		v, err := r.str(ctx, *s.ID)
		if err != nil {
			return nil, err
		}
		q.id = compilePattern(v)
	}
	if s.Index != nil {
		v, err := r.str(ctx, *s.Index)
		if err != nil {
			return nil, err
		}
		// Maestro's toDouble().toInt(): saturating, NaN is 0.
		f, ok := canonical.ParseKotlinDouble(v)
		if !ok {
			return nil, errorf(canonical.CodeInvalidArgs, "index %q is not a number", v).At(s.Index.Pos).
				WithHint("index counts matches top to bottom from 0")
		}
		i := canonical.KotlinToInt(f)
		q.index = &i
	}
	var err error
	for _, rel := range []struct {
		dst **query
		src *canonical.Selector
	}{{&q.below, s.Below}, {&q.above, s.Above}, {&q.leftOf, s.LeftOf}, {&q.rightOf, s.RightOf},
		{&q.containsChild, s.ContainsChild}, {&q.childOf, s.ChildOf}} {
		if *rel.dst, err = r.compile(ctx, rel.src); err != nil {
			return nil, err
		}
	}
	for _, d := range s.ContainsDescendants {
		dq, err := r.compile(ctx, d)
		if err != nil {
			return nil, err
		}
		q.containsDescendants = append(q.containsDescendants, dq)
	}
	for _, alt := range s.AnyOf {
		aq, err := r.compile(ctx, alt)
		if err != nil {
			return nil, err
		}
		q.anyOf = append(q.anyOf, aq)
	}
	if s.CSS != nil {
		v, err := r.str(ctx, *s.CSS)
		if err != nil {
			return nil, err
		}
		q.css = &cssQuery{sel: v, pos: s.CSS.Pos}
	}
	return q, nil
}

// errNoDOM marks the UNSUPPORTED_OPERATION of a css selector on a device
// without a DOM. Maestro's non-web drivers answer every css query with no
// elements (Driver.queryOnDeviceElements' default), so there the selector
// matches nothing: a lookup that needs the element fails (Maestro: "Element
// not found" after the whole timeout; flow at once, saying why), one that
// needs it absent holds (gone and conditions test for errNoDOM).
var errNoDOM = errors.New("the device has no DOM")

// warnNoDOM says, where a css selector on a device without a DOM counts as
// absent rather than failing the step, that it did.
func (r *run) warnNoDOM(err error) {
	if ce, ok := canonical.AsError(err); ok {
		r.log(fmt.Sprintf("warning: %s: %s; it counts as not visible, as in Maestro", ce.Pos, ce.Message))
	}
}

// cssQueries lists q's css selectors: its own, its anchors' and its
// alternatives'.
func (q *query) cssQueries() []*cssQuery {
	if q == nil {
		return nil
	}
	var out []*cssQuery
	if q.css != nil {
		out = append(out, q.css)
	}
	for _, sub := range []*query{q.below, q.above, q.leftOf, q.rightOf, q.containsChild, q.childOf} {
		out = append(out, sub.cssQueries()...)
	}
	for _, sub := range append(append([]*query{}, q.containsDescendants...), q.anyOf...) {
		out = append(out, sub.cssQueries()...)
	}
	return out
}

// resolveCSS runs q's css selectors in the page for the screen just read,
// each distinct selector once, as Maestro's Filters.css queries the
// device while it filters a hierarchy it read just before.
func (r *run) resolveCSS(ctx context.Context, q *query) error {
	all := q.cssQueries()
	if len(all) == 0 {
		return nil
	}
	dq, ok := r.dev.(DOMQuerier)
	if !ok {
		return errorf(canonical.CodeUnsupportedOperation, "the css selector %q is not supported on %s: only a web page has a DOM to run it in", all[0].sel, r.info.Platform).
			At(all[0].pos).With("selector", q.describe()).Wrap(errNoDOM).
			WithHint("select the element by text or id on this device, or guard the step with when: {platform: Web}")
	}
	answered := map[string][]*Node{}
	for _, c := range all {
		hits, done := answered[c.sel]
		if !done {
			var err error
			if hits, err = dq.QueryCSS(ctx, c.sel); err != nil {
				if ce, ok := canonical.AsError(err); ok && ce.Code == canonical.CodeInvalidArgs && !ce.Pos.Known() {
					ce.At(c.pos)
				}
				return deviceErr(err, "run the css selector "+quoted(c.sel))
			}
			answered[c.sel] = hits
		}
		c.hits = hits
	}
	return nil
}

// screen is one read of the device: the pruned hierarchy, flattened.
type screen struct {
	root *Node
	flat *flat
	vp   canonical.Viewport
}

func (r *run) read(ctx context.Context) (*screen, error) {
	root, err := r.dev.Hierarchy(ctx)
	if err != nil {
		return nil, deviceErr(err, "read the screen")
	}
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return nil, deviceErr(err, "read the viewport")
	}
	pruned := prune(root, int(vp.X+vp.Width), int(vp.Y+vp.Height))
	return &screen{root: pruned, flat: flatten(pruned), vp: vp}, nil
}

// found is a located element and the screen it was found on.
type found struct {
	node *Node
	scr  *screen
}

// find polls the screen until the query matches an element with bounds or
// the timeout passes; it always looks at least once. Maestro polls with no
// pause; flow pauses PollInterval so a virtual clock moves, and never past
// the deadline, where it looks a last time (a 500 ms probe costs 500 ms).
// Once ctx is done it answers INTERRUPTED, never a match or a miss.
func (r *run) find(ctx context.Context, q *query, timeout time.Duration) (*found, *screen, error) {
	deadline := r.clock.Now().Add(timeout)
	for {
		scr, err := r.read(ctx)
		if err != nil {
			return nil, nil, err
		}
		if err := r.resolveCSS(ctx, q); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, nil, interrupted(cerr)
			}
			return nil, scr, err
		}
		if err := ctx.Err(); err != nil {
			// Ctrl-C came while the device answered: the read may be the
			// last before the deadline, and a lookup stopped there has no
			// result, found or not.
			return nil, nil, interrupted(err)
		}
		if m := q.find(scr.flat); len(m) > 0 {
			n := scr.flat.nodes[m[0]]
			if n.Bounds == nil {
				return nil, scr, nil // Maestro gives up at once on a match without bounds
			}
			return &found{node: n, scr: scr}, scr, nil
		}
		if !r.clock.Now().Before(deadline) {
			return nil, scr, nil
		}
		if err := r.clock.Sleep(ctx, r.pause(deadline)); err != nil {
			return nil, scr, err
		}
	}
}

// pause is the wait before the next poll: PollInterval, cut short at the
// deadline.
func (r *run) pause(deadline time.Time) time.Duration {
	return min(r.cfg.PollInterval, deadline.Sub(r.clock.Now()))
}

// findOrFail is find with Maestro's error: the selector, and the elements on
// screen that come closest, so the fix is visible in the report.
func (r *run) findOrFail(ctx context.Context, sel *canonical.Selector, optional bool) (*found, *query, error) {
	q, err := r.compile(ctx, sel)
	if err != nil {
		return nil, nil, err
	}
	f, scr, err := r.find(ctx, q, r.lookupTimeout(optional))
	if err != nil {
		return nil, q, err
	}
	if f == nil {
		return nil, q, notFound(q, scr, sel.Pos)
	}
	return f, q, nil
}

func notFound(q *query, scr *screen, pos canonical.Pos) *canonical.Error {
	e := errorf(canonical.CodeElementNotFound, "Element not found: %s", q.describe())
	near := nearest(q, scr)
	e.With("selector", q.describe())
	if len(near) > 0 {
		e.With("candidates", near)
		e.WithHint("closest on screen: " + strings.Join(near, "; "))
	} else {
		e.WithHint("the screen has no element with text or id; check that the app is on the expected screen")
	}
	return e
}

// nearest lists up to five on-screen elements whose text, hint, label or id
// is closest to the selector's text or id, to show what the screen had.
func nearest(q *query, scr *screen) []string {
	if scr == nil {
		return nil
	}
	want := ""
	switch {
	case q.text != nil:
		want = strings.ToLower(q.text.raw)
	case q.id != nil:
		want = strings.ToLower(q.id.raw)
	}
	type cand struct {
		desc string
		d    int
	}
	var cands []cand
	seen := map[string]bool{}
	for _, n := range scr.flat.nodes {
		for _, v := range []struct{ kind, val string }{{"text", n.Text}, {"hint", n.Hint}, {"label", n.Label}, {"id", n.ID}} {
			if v.val == "" {
				continue
			}
			desc := fmt.Sprintf("%s %q", v.kind, v.val)
			if n.Bounds != nil {
				desc += fmt.Sprintf(" at %d,%d", n.Bounds.X, n.Bounds.Y)
			}
			if seen[desc] {
				continue
			}
			seen[desc] = true
			cands = append(cands, cand{desc, distance(want, strings.ToLower(v.val))})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].d < cands[b].d })
	var out []string
	for i := 0; i < len(cands) && i < 5; i++ {
		out = append(out, cands[i].desc)
	}
	return out
}

func distance(a, b string) int {
	if a == "" {
		return 0
	}
	if strings.Contains(b, a) || strings.Contains(a, b) {
		return abs(len(a) - len(b))
	}
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

// settle waits until the screen stops changing (Maestro's generic settle:
// two equal hierarchy reads in a row, at most ten reads) and returns the
// last read.
func (r *run) settle(ctx context.Context) (Settled, error) {
	return r.settleFor(ctx, nil)
}

// settleFor is settle with a command's waitToSettleTimeoutMs: without one
// it is the generic ten reads; with one, reads continue until two in a row
// are equal or the time is up, so a screen that never stops animating
// costs the command that timeout instead of ten polls (Maestro §2.7).
// A SettledReader device waits on its side instead, as long as the reads
// would have taken: one call.
func (r *run) settleFor(ctx context.Context, timeoutMs *int) (Settled, error) {
	if sr, ok := r.dev.(SettledReader); ok {
		timeout := 9 * r.cfg.PollInterval
		if timeoutMs != nil {
			timeout = time.Duration(max(*timeoutMs, 0)) * time.Millisecond
		}
		s, err := sr.ReadSettled(ctx, timeout)
		if err != nil {
			return Settled{}, deviceErr(err, "read the screen")
		}
		return s, nil
	}
	reads := 10
	var deadline time.Time
	if timeoutMs != nil {
		deadline = r.clock.Now().Add(time.Duration(max(*timeoutMs, 0)) * time.Millisecond)
	}
	more := func(done int) bool {
		if timeoutMs != nil {
			return r.clock.Now().Before(deadline)
		}
		return done < reads
	}
	prev, err := r.dev.Hierarchy(ctx)
	if err != nil {
		return Settled{}, deviceErr(err, "read the screen")
	}
	for done := 1; more(done); done++ {
		pause := r.cfg.PollInterval
		if timeoutMs != nil {
			pause = min(pause, deadline.Sub(r.clock.Now()))
		}
		if err := r.clock.Sleep(ctx, pause); err != nil {
			return Settled{Root: prev}, err
		}
		cur, err := r.dev.Hierarchy(ctx)
		if err != nil {
			return Settled{}, deviceErr(err, "read the screen")
		}
		if equalTrees(prev, cur) {
			return Settled{Root: cur, Still: true}, nil
		}
		prev = cur
	}
	return Settled{Root: prev}, nil
}

// tapElement is Maestro's tap algorithm (§2.8): settle, refresh the
// element's bounds, tap its centre, and tap again once when the screen did
// not change.
func (r *run) tapElement(ctx context.Context, f *found, t *canonical.Tap) error {
	before, err := r.settleFor(ctx, t.WaitToSettleTimeoutMs)
	if err != nil {
		return err
	}
	target := *f.node.Bounds
	var same []*Node
	for _, n := range flatten(before.Root).nodes {
		if sameAttributes(n, f.node) && n.Bounds != nil {
			same = append(same, n)
		}
	}
	if len(same) == 1 {
		target = *same[0].Bounds
	}
	return r.tapAt(ctx, target.Center(), t, before)
}

// tapAt taps p and, with retryIfNoChange, once more when the screen did
// not change. "Did not change" is Maestro's decision on every device
// (Maestro.kt hierarchyBasedTap): the settled hierarchy equals the one
// before the tap, and then a screenshot does not differ from the one taken
// before it by more than Maestro's threshold (screendiff.go).
// A settled read's Version is not consulted: on a device it moves with
// the tap itself (the touch's own accessibility events), so a static
// element would be tapped once there and twice on sim (issue 19).
func (r *run) tapAt(ctx context.Context, p canonical.Point, t *canonical.Tap, before Settled) error {
	attempts := 1
	if t.RetryIfNoChange {
		attempts = 2
	}
	// Maestro also captures screenshots where no decision depends on
	// them (without retries, after the last attempt); flow skips those
	// captures, which changes no outcome. A failed capture only skips the
	// comparison, as in Maestro.
	var shotBefore []byte
	if attempts > 1 {
		shotBefore, _ = r.dev.Screenshot(ctx)
	}
	for attempt := 0; attempt < attempts; attempt++ {
		if err := r.tapOnce(ctx, p, t); err != nil {
			return err
		}
		after, err := r.settleFor(ctx, t.WaitToSettleTimeoutMs)
		if err != nil {
			return err
		}
		if !equalTrees(before.Root, after.Root) || attempt == attempts-1 {
			return nil
		}
		shotAfter, _ := r.dev.Screenshot(ctx)
		if screenChanged(shotBefore, shotAfter) {
			return nil
		}
	}
	return nil
}

// tapOnce taps (or long-presses) once, or repeat times, delay apart.
func (r *run) tapOnce(ctx context.Context, p canonical.Point, t *canonical.Tap) error {
	r.interaction()
	if t.Mode == canonical.TapLong {
		hold := time.Duration(t.HoldMs) * time.Millisecond
		r.event("longPress", map[string]any{"point": p, "durationMs": t.HoldMs})
		if err := r.dev.LongPress(ctx, p, hold); err != nil {
			return deviceErr(err, "long-press")
		}
		return nil
	}
	// Maestro follows each tap of a repeated tap (doubleTapOn, repeat: n)
	// with delay minus the time the tap took, so taps start delay apart.
	for i := 0; i < t.Repeat; i++ {
		start := r.clock.Now()
		r.event("tap", map[string]any{"point": p})
		if err := r.dev.Tap(ctx, p); err != nil {
			return deviceErr(err, "tap")
		}
		if t.Repeat > 1 {
			if err := r.clock.Sleep(ctx, time.Duration(t.DelayMs)*time.Millisecond-r.clock.Now().Sub(start)); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolvePoint turns "x,y" or "x%,y%" into a screen point as Maestro does:
// a % anywhere makes both numbers percentages, numbers after the second
// are ignored, and percentages use integer arithmetic on the screen size.
// Coordinates may have decimals (.ad taps at them; the Maestro loader
// refuses them in literal points, as Maestro's toInt does).
func resolvePoint(text string, vp canonical.Viewport, pos canonical.Pos) (canonical.Point, error) {
	percent := strings.Contains(text, "%")
	parts := strings.Split(strings.ReplaceAll(text, "%", ""), ",")
	bad := errorf(canonical.CodeInvalidArgs, "point %q is not \"x,y\" or \"x%%,y%%\"", text).At(pos).
		WithHint(`write point: "540,1200" or point: "50%,80%"`)
	if len(parts) < 2 {
		return canonical.Point{}, bad
	}
	var v [2]float64
	for i, p := range parts[:2] {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !canonical.IsFinite(f) {
			return canonical.Point{}, bad
		}
		if percent && (f < 0 || f > 100) {
			return canonical.Point{}, errorf(canonical.CodeInvalidArgs, "point %q has a percentage outside 0%%..100%%", text).At(pos).
				WithHint("percentages run from 0% to 100%")
		}
		v[i] = f
	}
	if !percent {
		return canonical.Point{X: v[0], Y: v[1]}, nil
	}
	w, h := int(vp.X+vp.Width), int(vp.Y+vp.Height)
	return canonical.Point{X: float64(w * int(v[0]) / 100), Y: float64(h * int(v[1]) / 100)}, nil
}

func jsonIndent(v any) ([]byte, error) {
	return json.MarshalIndent(v, "", "  ")
}
