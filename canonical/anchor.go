package canonical

import (
	"math"
	"strconv"
)

// ParsePercentPoint reads "x%, y%" into percentages.
func ParsePercentPoint(s string) (Point, bool) {
	mx, my, ok := ScanPair(s, PairShape{Negative: true, Fraction: true, Percent: true})
	if !ok {
		return Point{}, false
	}
	x, _ := strconv.ParseFloat(mx, 64)
	y, _ := strconv.ParseFloat(my, 64)
	return Point{X: x, Y: y}, true
}

// Resolve turns an anchor into a point on a viewport. percent is the
// evaluated text of a percent anchor (its template after ${} evaluation);
// start is the resolved other end, needed by axis anchors; element is the
// resolved element centre for element anchors. Percentages and fractions
// truncate to whole grid units as Maestro's integer arithmetic does.
func (a Anchor) Resolve(vp Viewport, platform, percent string, start, element *Point) (Point, error) {
	switch a.Kind {
	case AnchorPoint:
		return *a.Point, nil
	case AnchorPercent:
		p, ok := ParsePercentPoint(percent)
		if !ok {
			return Point{}, Errorf(CodeInvalidArgs, "swipe point %q is not \"x%%, y%%\"", percent).
				WithHint(`a percentage point looks like "50%, 80%"`)
		}
		if p.X < 0 || p.X > 100 || p.Y < 0 || p.Y > 100 {
			return Point{}, Errorf(CodeInvalidArgs, "swipe point %q is outside 0%%..100%%", percent).
				WithHint("percentages run from 0% to 100% of the screen")
		}
		return Point{X: vp.X + math.Trunc(vp.Width*p.X/100), Y: vp.Y + math.Trunc(vp.Height*p.Y/100)}, nil
	case AnchorFraction:
		f := a.Fraction.For(platform)
		return Point{X: vp.X + math.Trunc(vp.Width*f.X), Y: vp.Y + math.Trunc(vp.Height*f.Y)}, nil
	case AnchorElement:
		if element == nil {
			return Point{}, NewError(CodeInternal, "element anchor resolved without an element")
		}
		return *element, nil
	case AnchorAxis:
		if start == nil {
			return Point{}, NewError(CodeInternal, "axis anchor resolved without a start point")
		}
		p := *start
		if a.Axis == "x" {
			p.X = vp.X + math.Trunc(vp.Width*a.At)
		} else {
			p.Y = vp.Y + math.Trunc(vp.Height*a.At)
		}
		return p, nil
	}
	return Point{}, Errorf(CodeInternal, "unknown anchor kind %q", string(a.Kind))
}

// NeedsScreen reports whether resolving the anchor needs a live screen (an
// element) rather than only the viewport.
func (a Anchor) NeedsScreen() bool { return a.Kind == AnchorElement }

// Pan is the canonical pan a swipe becomes once both ends are points:
// origin, delta and duration through the public normalization, with the
// internal endpoint-hold profile (ADR 0013).
func (s *Swipe) Pan(from, to Point, platform string) (Gesture, error) {
	d := float64(s.DurationMs.For(platform))
	delta := Point{X: to.X - from.X, Y: to.Y - from.Y}
	if IsFinite(from.X) && IsFinite(from.Y) && IsFinite(delta.X) && IsFinite(delta.Y) && IsInteger(d) &&
		d >= MinDurationMs && d <= MaxDurationMs {
		// Values the normalization accepts become this input; building
		// the three maps it reads for every swipe of a workspace was a
		// tenth of what flow check allocated. Anything else goes through
		// it, for its error (TestPanAsNormalized).
		origin, ms := from, int(d)
		g := GestureInput{Kind: KindPan, Origin: &origin, Delta: &delta, DurationMs: &ms}
		return g.Gesture(Internal{ExecutionProfile: ProfileEndpointHold})
	}
	g, err := NormalizeGesture(panInput(from, to, d))
	if err != nil {
		return Gesture{}, err
	}
	return g.Gesture(Internal{ExecutionProfile: ProfileEndpointHold})
}

// panInput is a swipe's pan as public gesture input.
func panInput(from, to Point, durationMs float64) map[string]any {
	return map[string]any{
		"kind":       "pan",
		"origin":     map[string]any{"x": from.X, "y": from.Y},
		"delta":      map[string]any{"x": to.X - from.X, "y": to.Y - from.Y},
		"durationMs": durationMs,
	}
}
