package webdriver

import (
	"math"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Tick is one W3C tick between pointerDown and pointerUp of an
// interpolated gesture: every contact moves to its point (or, for a pause,
// stays where it is) and the tick lasts DurationMs.
type Tick struct {
	// AtMs is the plan offset whose positions the tick moves to: the end of
	// the stretch of the plan the tick covers.
	AtMs float64
	// DurationMs is the W3C duration sent: the time the tick should take
	// minus the driver's measured cost of the tick.
	DurationMs int
	// Pause marks a tick in which no contact moves.
	Pause bool
	// Points holds one position per pointer, in pointer order; nil for a
	// pause.
	Points []canonical.Point
	// CostMs is the time the tick is expected to take on the page:
	// DurationMs plus the measured costs that apply to it.
	CostMs float64
}

// Schedule resamples a valid plan into interpolated ticks (Options with
// Interpolate; [LowerActions] validates first).
//
// The plan splits into moving stretches and still stretches. A still
// stretch (no contact moves) becomes one pause. A moving stretch of T ms
// becomes n ticks, n chosen so that the ticks' costs fill T: each tick costs
// TickCostMs, the ticks inside the touch slop SlopCostMs more, and the
// first tick that leaves the slop LeadMs more. No tick is planned shorter
// than max(StepMs, TickCostMs). Tick k of n moves every contact to where the
// plan has it at k/n of the stretch, interpolating linearly between the
// plan's samples, so the last tick lands exactly on the stretch's last
// sample; with IntegerPoints, ticks that would not change the pixel the
// driver sends are merged into the next, which then lasts longer. Durations are integers chosen so that the expected elapsed time
// tracks the plan: a tick that would be late gets duration 0 and later
// ticks catch up. With zero costs the durations of a stretch add up to its
// planned length exactly.
func Schedule(plan planner.Plan, o Options) []Tick {
	step := o.StepMs
	if step <= 0 {
		step = frameMs
	}
	interval := math.Max(step, o.TickCostMs)
	ptrs := plan.Pointers
	count := len(ptrs[0].Samples)
	still := func(j int) bool {
		for _, p := range ptrs {
			if p.Samples[j].Point != p.Samples[j-1].Point {
				return false
			}
		}
		return true
	}
	s := &slop{origin: ptrs[0].Samples[0].Point, open: o.SlopPx > 0 && o.SlopCostMs > 0, radius: o.SlopPx, pacer: pacer(plan)}
	var ticks []Tick
	spent := 0.0 // expected real time since pointerDown at the end of the ticks so far
	for j := 1; j < count; {
		k := j
		if still(j) {
			for k < count && still(k) {
				k++
			}
			end := float64(ptrs[0].Samples[k-1].OffsetMs)
			d := max(0, int(math.Round(end-spent)))
			ticks = append(ticks, Tick{AtMs: end, DurationMs: d, Pause: true, CostMs: float64(d)})
			spent += float64(d)
			j = k
			continue
		}
		for k < count && !still(k) {
			k++
		}
		run := stretch{ptrs: ptrs, first: j - 1, last: k - 1}
		ticks = append(ticks, s.fill(run, spent, interval, o)...)
		spent = 0
		for _, t := range ticks {
			spent += t.CostMs
		}
		j = k
	}
	return ticks
}

// ExpectedMs is how long a schedule should take on the page, from
// pointerDown to pointerUp: the sum of its ticks' costs.
func ExpectedMs(ticks []Tick) float64 {
	total := 0.0
	for _, t := range ticks {
		total += t.CostMs
	}
	return total
}

// stretch is a run of plan segments in which some contact moves: samples
// first..last of every pointer.
type stretch struct {
	ptrs        []planner.Pointer
	first, last int
}

func (r stretch) start() float64 { return float64(r.ptrs[0].Samples[r.first].OffsetMs) }
func (r stretch) end() float64   { return float64(r.ptrs[0].Samples[r.last].OffsetMs) }

// at is every pointer's position at plan offset t inside the stretch, on
// the straight line between the samples around t.
func (r stretch) at(t float64) []canonical.Point {
	out := make([]canonical.Point, len(r.ptrs))
	for i, p := range r.ptrs {
		s := p.Samples
		j := r.first + 1
		for j < r.last && float64(s[j].OffsetMs) < t {
			j++
		}
		a, b := s[j-1], s[j]
		if t >= float64(b.OffsetMs) {
			out[i] = b.Point
			continue
		}
		u := (t - float64(a.OffsetMs)) / float64(b.OffsetMs-a.OffsetMs)
		out[i] = canonical.Point{X: a.Point.X + (b.Point.X-a.Point.X)*u, Y: a.Point.Y + (b.Point.Y-a.Point.Y)*u}
	}
	return out
}

// slop tracks whether pointer 0 is still inside the touch slop around the
// point it went down at, and whether the lead cost is still to be paid.
type slop struct {
	origin canonical.Point
	radius float64
	open   bool // still inside the slop
	paid   bool // the lead cost was charged
	pacer  int  // the pointer whose moves the driver waits for (IntegerPoints)
}

// pacer is the pointer that travels furthest (the last one on a tie). With
// IntegerPoints it is sent as the last source, the one the driver waits
// for, so that as many ticks as possible are paced ticks of one frame.
func pacer(plan planner.Plan) int {
	best, far := 0, -1.0
	for i, p := range plan.Pointers {
		d := 0.0
		for j := 1; j < len(p.Samples); j++ {
			a, b := p.Samples[j-1].Point, p.Samples[j].Point
			d += math.Hypot(b.X-a.X, b.Y-a.Y)
		}
		if d >= far {
			best, far = i, d
		}
	}
	return best
}

// SourceOrder is the order the pointers' sources are sent in: pointer
// order, except that with IntegerPoints the pointer that travels furthest
// goes last.
func SourceOrder(plan planner.Plan, o Options) []int {
	order := make([]int, 0, len(plan.Pointers))
	last := len(plan.Pointers) - 1
	if o.IntegerPoints {
		last = pacer(plan)
	}
	for i := range plan.Pointers {
		if i != last {
			order = append(order, i)
		}
	}
	return append(order, last)
}

// planned is one tick of a stretch before its duration is set: k of n.
type planned struct {
	k      int
	points []canonical.Point
	paced  bool    // the driver waits a tick's cost for it
	extra  float64 // slop or lead cost on top of the tick cost
}

// freeGapMs is the longest an earlier contact is held still because the
// last contact has not moved a whole pixel (IntegerPoints).
const freeGapMs = 3 * frameMs

// layout places n ticks over the stretch from the slop state s (which it
// does not change): tick k moves to the plan's positions at k/n; the last
// tick is always sent. With IntegerPoints, ticks that change no contact's
// pixel are merged into the next, and so are ticks that change only an
// earlier contact's pixel, until that contact has waited freeGapMs; such a
// tick is free (not paced). Each paced tick sent inside the slop costs
// SlopCostMs more, and the first paced one outside it LeadMs more.
func (s slop) layout(r stretch, n int, o Options) ([]planned, slop) {
	out := make([]planned, 0, n)
	lastAt := r.start()
	pix := pixels(r.at(lastAt))
	for k := 1; k <= n; k++ {
		at := r.start() + (r.end()-r.start())*float64(k)/float64(n)
		if k == n {
			at = r.end()
		}
		pts := r.at(at)
		t := planned{k: k, points: pts, paced: true}
		if o.IntegerPoints {
			now := pixels(pts)
			any, lastMoved := false, now[s.pacer] != pix[s.pacer]
			for i := range now {
				any = any || now[i] != pix[i]
			}
			if k < n && (!any || !lastMoved && at-lastAt < freeGapMs) {
				continue
			}
			t.paced = lastMoved
			pix = now
		}
		lastAt = at
		if t.paced {
			if s.open && math.Hypot(pts[0].X-s.origin.X, pts[0].Y-s.origin.Y) <= s.radius {
				t.extra = o.SlopCostMs
			} else {
				s.open = false
				if !s.paid {
					t.extra = o.LeadMs
					s.paid = true
				}
			}
		}
		out = append(out, t)
	}
	return out, s
}

// pixels are the whole-pixel positions a truncating driver sends.
func pixels(pts []canonical.Point) [][2]float64 {
	out := make([][2]float64, len(pts))
	for i, p := range pts {
		out[i] = [2]float64{math.Trunc(p.X), math.Trunc(p.Y)}
	}
	return out
}

// fill schedules one moving stretch that starts when spent ms have
// (expectedly) passed, updating the slop state.
func (s *slop) fill(r stretch, spent, interval float64, o Options) []Tick {
	end := r.end()
	avail := end - spent
	n := max(1, int(math.Round(avail/interval)))
	// The extra costs depend on which ticks are sent, and n on the extra
	// costs; this settles in one or two rounds.
	for range 4 {
		ticks, _ := s.layout(r, n, o)
		sum := 0.0
		for _, t := range ticks {
			sum += t.extra
		}
		m := max(1, int(math.Round((avail-sum)/interval)))
		if m == n {
			break
		}
		n = m
	}
	ticks, after := s.layout(r, n, o)
	*s = after
	out := make([]Tick, len(ticks))
	start, length := r.start(), end-r.start()
	base := spent
	for i, t := range ticks {
		target := base + avail*float64(t.k)/float64(n)
		cost := 0.0
		if t.paced {
			cost = o.TickCostMs + t.extra
		}
		d := max(0, int(math.Round(target-spent-cost)))
		at := start + length*float64(t.k)/float64(n)
		if t.k == n {
			at = end
		}
		out[i] = Tick{AtMs: at, DurationMs: d, Points: t.points, CostMs: float64(d) + cost}
		spent += float64(d) + cost
	}
	return out
}
