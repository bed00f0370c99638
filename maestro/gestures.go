package maestro

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
)

// decodeSwipe reads Maestro's four swipe forms (maestro-reference §1.3,
// §5.1) into a canonical swipe: a pan with the endpoint-hold profile whose
// ends are resolved against the viewport when it runs.
//
// Maestro's swipe deserializer (YamlSwipe.kt) builds the direction and
// the start/end forms by hand from the keys it knows and ignores the rest
// (speed, a from next to start/end, …); only the from form goes through a
// strict bean that refuses unknown keys. flow does the same and warns.
func decodeSwipe(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	if n == nil || n.Kind != yaml.MappingNode {
		_, err := c.fields(swipeKeys())
		return nil, err
	}
	ps, err := c.d.pairs(n)
	if err != nil {
		return nil, err
	}
	has := func(k string) bool {
		for _, p := range ps {
			if p.key == k {
				return true
			}
		}
		return false
	}
	lenient := has("start") || has("end") || (has("direction") && !has("from"))
	if lenient {
		var known []pair
		for _, p := range ps {
			if p.key == "optional" {
				// Read by hand with Kotlin's toBoolean: true in any letter
				// case is true, anything else false, never an error.
				if v, err := c.d.boolean(p.value, "optional"); err == nil {
					c.meta.Optional = v
				} else {
					r := resolve(p.value)
					c.meta.Optional = r != nil && r.Kind == yaml.ScalarNode && strings.EqualFold(r.Value, "true")
					c.d.warnf(p.value, "write optional: true or optional: false", "swipe reads optional %s as %t (Maestro does too)", describe(p.value), c.meta.Optional)
				}
				continue
			}
			if (p.key == "label" || contains(swipeKeys(), p.key)) && (p.key != "from" || !has("start") && !has("end")) {
				known = append(known, p)
				continue
			}
			hint := "remove " + p.key + ": Maestro's swipe reads direction or start and end, duration, waitToSettleTimeoutMs, label and optional"
			if p.key == "<<" {
				hint = mergeHint
			}
			c.d.warnf(p.keyN, hint, "swipe ignores %s (Maestro does too)", p.key)
		}
		ps = known
	}
	fs, err := c.pairFields(ps, swipeKeys())
	if err != nil {
		return nil, err
	}
	_, hasDir := fs["direction"]
	_, hasFrom := fs["from"]
	_, hasStart := fs["start"]
	_, hasEnd := fs["end"]
	if !hasDir && !hasFrom && !hasStart && !hasEnd {
		return nil, c.d.errorf(c.keyN, "swipe needs a direction, an element and a direction, or start and end").
			WithHint("swipe:\n    direction: UP      # or: start: \"90%,50%\"  end: \"10%,50%\"")
	}
	sw := &canonical.Swipe{Meta: c.meta, DurationMs: canonical.Same(compat.DefaultSwipeDurationMs)}
	if p, ok := fs["duration"]; ok {
		// The hand-built forms read the text with toLong; the from: form is
		// a Jackson bean, which truncates a float.
		rule := kotlinToLong
		if !lenient {
			rule = javaLongField
		}
		ms, err := c.d.whole(p.value, "duration", rule)
		if err != nil {
			return nil, err
		}
		clamped, changed := compat.ClampSwipeDuration(ms)
		if changed {
			c.d.warnf(p.value, "use a duration from 16 to 10000 ms",
				"swipe duration %d ms runs as %d ms (a gesture lasts 16 to 10000 ms)", ms, clamped)
		}
		sw.DurationMs = canonical.Same(clamped)
	}
	if p, ok := fs["waitToSettleTimeoutMs"]; ok {
		n, err := c.d.settleTimeout(p.value)
		switch {
		case err != nil && lenient:
			// Maestro reads it with toIntOrNull here: a value that is not
			// a whole number is dropped.
			c.d.warnf(p.value, "write a whole number of milliseconds, or remove it",
				"swipe ignores waitToSettleTimeoutMs %s, which is not a whole number (Maestro does too)", describe(p.value))
		case err != nil:
			return nil, err
		default:
			sw.WaitToSettleTimeoutMs = &n
		}
	}
	dirP, fromP, startP, endP := fs["direction"], fs["from"], fs["start"], fs["end"]
	ms := sw.DurationMs.Default
	switch {
	case hasDir && (hasStart || hasEnd):
		other := startP
		if !hasStart {
			other = endP
		}
		return nil, c.d.errorf(other.keyN, "swipe cannot combine direction with start/end").
			WithHint("keep direction (a screen swipe) or start and end (a coordinate swipe), not both")
	case hasFrom && !hasDir:
		return nil, c.d.errorf(fromP.keyN, "a swipe from an element needs a direction").
			WithHint("swipe:\n    from: {id: carousel}\n    direction: LEFT")
	case hasStart != hasEnd:
		missing := "end"
		at := startP.keyN
		if !hasStart {
			missing, at = "start", endP.keyN
		}
		return nil, c.d.errorf(at, "swipe needs both start and end; %s is missing", missing).
			WithHint("swipe:\n    start: \"50%,80%\"\n    end: \"50%,20%\"")
	}
	if hasDir {
		dir, err := c.direction(dirP.value)
		if err != nil {
			return nil, err
		}
		if hasFrom {
			sel, _, optional, err := c.d.selector(fromP.value, "from", tapKeysAndLabel())
			if err != nil {
				return nil, err
			}
			sw.Optional = sw.Optional || optional
			axis, at, _ := compat.ElementSwipeEnd(dir)
			sw.Start = canonical.Anchor{Kind: canonical.AnchorElement, Element: sel}
			sw.End = canonical.Anchor{Kind: canonical.AnchorAxis, Axis: axis, At: at}
			sw.Description = fmt.Sprintf("Swiping in %s direction on element", dir)
			return sw, nil
		}
		start, end, _ := compat.DirectionSwipe(dir)
		sw.Start = canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &start}
		sw.End = canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &end}
		sw.Description = fmt.Sprintf("Swiping in %s direction in %d ms", dir, ms)
		return sw, nil
	}
	if sw.Start, err = c.swipeAnchor(startP.value, "start"); err != nil {
		return nil, err
	}
	if sw.End, err = c.swipeAnchor(endP.value, "end"); err != nil {
		return nil, err
	}
	if sw.Start.Kind != sw.End.Kind {
		return nil, c.d.errorf(endP.value, "swipe start and end must both be percentages or both be coordinates").
			WithHint(`write start: "50%,80%" with end: "50%,20%", or start: "540,1900" with end: "540,500"`)
	}
	sw.Description = fmt.Sprintf("Swipe from (%s) to (%s) in %d ms", resolve(startP.value).Value, resolve(endP.value).Value, ms)
	return sw, nil
}

// direction reads a swipe direction: exactly upper or lower case, as
// Maestro's parser accepts.
func swipeKeys() []string {
	return []string{"direction", "from", "start", "end", "duration", "waitToSettleTimeoutMs"}
}

func (c *cmd) direction(n *yaml.Node) (string, error) {
	s, err := c.d.str(n, "direction")
	if err != nil {
		return "", err
	}
	switch s {
	case "UP", "DOWN", "LEFT", "RIGHT", "up", "down", "left", "right":
		return strings.ToUpper(s), nil
	}
	hint := "direction is UP, DOWN, LEFT or RIGHT"
	if contains([]string{"UP", "DOWN", "LEFT", "RIGHT"}, strings.ToUpper(s)) {
		hint = fmt.Sprintf("write %q: Maestro accepts only all upper or all lower case", strings.ToUpper(s))
	}
	return "", c.d.errorf(n, "unknown swipe direction %q", s).WithHint(hint)
}

// swipeAnchor reads "x, y" (whole grid units, parsed now: Maestro reads
// them at load time) or "x%, y%" (checked now unless it holds ${}).
func (c *cmd) swipeAnchor(n *yaml.Node, what string) (canonical.Anchor, error) {
	t, err := c.d.template(n, what)
	if err != nil {
		return canonical.Anchor{}, err
	}
	if strings.Contains(t.Raw, "%") {
		if lit, ok := t.Literal(); ok {
			px, py, ok := canonical.ScanPair(lit, canonical.PairShape{Fraction: true, Percent: true})
			if !ok {
				return canonical.Anchor{}, c.d.errorf(n, "swipe %s %q is not \"x%%, y%%\"", what, lit).
					WithHint(`percentages need % on both numbers: "50%, 80%"`)
			}
			for _, v := range [2]string{px, py} {
				if f, _ := strconv.ParseFloat(v, 64); f > 100 {
					return canonical.Anchor{}, c.d.errorf(n, "swipe %s %q has a percentage above 100%%", what, lit).
						WithHint("percentages run from 0% to 100% of the screen")
				}
			}
		}
		return canonical.Anchor{Kind: canonical.AnchorPercent, Percent: &t}, nil
	}
	mx, my, ok := canonical.ScanPair(t.Raw, canonical.PairShape{Negative: true})
	if !ok {
		hint := `write whole coordinates "540, 1900" or percentages "50%, 80%"`
		if t.HasExpr() {
			hint = "Maestro reads absolute swipe coordinates when the flow loads, so they cannot use ${...}; use percentages, which may"
		}
		return canonical.Anchor{}, c.d.errorf(n, "swipe %s %q is not \"x, y\"", what, t.Raw).WithHint(hint)
	}
	x, errX := strconv.Atoi(mx)
	y, errY := strconv.Atoi(my)
	if errX != nil || errY != nil {
		return canonical.Anchor{}, c.d.errorf(n, "swipe %s %q is out of range", what, t.Raw).
			WithHint("coordinates are grid units on the screen, such as \"540, 1900\"")
	}
	return canonical.Anchor{Kind: canonical.AnchorPoint, Point: &canonical.Point{X: float64(x), Y: float64(y)}}, nil
}

func decodeScroll(c *cmd) (canonical.Command, error) {
	if _, err := c.fields(nil); err != nil {
		return nil, err
	}
	start, end, duration := compat.Scroll()
	return &canonical.Swipe{Meta: c.meta, Start: canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &start},
		End: canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &end}, DurationMs: duration,
		Description: "Scroll vertically"}, nil
}

func decodeScrollUntilVisible(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"element", "direction", "timeout", "speed", "visibilityPercentage", "centerElement", "waitToSettleTimeoutMs"})
	if err != nil {
		return nil, err
	}
	p, ok := fs["element"]
	if !ok {
		return nil, c.d.errorf(c.keyN, "scrollUntilVisible needs element").
			WithHint("scrollUntilVisible:\n    element: \"Footer\"\n    direction: DOWN")
	}
	sel, _, optional, err := c.d.selector(p.value, "element", tapKeysAndLabel())
	if err != nil {
		return nil, err
	}
	s := &canonical.ScrollUntilVisible{Meta: c.meta, Element: *sel, Direction: "down",
		TimeoutMs: canonical.Text("20000", c.d.pos(c.keyN)), Speed: canonical.Text("40", c.d.pos(c.keyN)), VisibilityPercentage: 100}
	s.Optional = s.Optional || optional
	if p, ok := fs["direction"]; ok {
		dir, err := c.d.str(p.value, "direction")
		if err != nil {
			return nil, err
		}
		dir = strings.ToLower(dir)
		if !contains([]string{"up", "down", "left", "right"}, dir) {
			return nil, c.d.errorf(p.value, "unknown scroll direction %q", dir).WithHint("direction is UP, DOWN, LEFT or RIGHT (the way the content moves into view)")
		}
		s.Direction = dir
	}
	// Maestro reads timeout and speed with toLong when the command runs; a
	// literal it cannot read fails there, so flow refuses it here.
	for _, k := range []string{"timeout", "speed"} {
		p, ok := fs[k]
		if !ok {
			continue
		}
		t, err := c.d.template(p.value, k)
		if err != nil {
			return nil, err
		}
		if lit, ok := t.Literal(); ok {
			v, ok := kotlinLong(lit)
			if !ok {
				example := map[string]string{"timeout": "timeout: 20000", "speed": "speed: 40"}[k]
				return nil, c.d.errorf(p.value, "%s %q is not a whole number: Maestro reads it with toLong and fails", k, lit).
					WithHint(example + " (digits only: no _ or decimals)")
			}
			switch {
			case k == "timeout" && v < 0:
				c.d.warnf(p.value, "write 0 or more", "timeout %d scrolls for the default 20000 ms, as in Maestro", v)
			case k == "speed" && (v < 0 || v > 100):
				c.d.warnf(p.value, "speed runs from 0 (slow) to 100 (fast)", "speed %d makes each swipe last %d ms, as in Maestro", v, compat.ScrollSpeedMs(v))
			}
		}
		if k == "timeout" {
			s.TimeoutMs = t
		} else {
			s.Speed = t
		}
	}
	if p, ok := fs["visibilityPercentage"]; ok {
		v, err := c.d.integer(p.value, "visibilityPercentage")
		if err != nil {
			return nil, err
		}
		if v < 0 || v > 100 {
			c.d.warnf(p.value, "write a percentage from 0 to 100", "visibilityPercentage %d is read as %d, as in Maestro", v, min(max(v, 0), 100))
		}
		s.VisibilityPercentage = min(max(v, 0), 100)
	}
	if p, ok := fs["centerElement"]; ok {
		if s.CenterElement, err = c.d.boolean(p.value, "centerElement"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["waitToSettleTimeoutMs"]; ok {
		n, err := c.d.settleTimeout(p.value)
		if err != nil {
			return nil, err
		}
		s.WaitToSettleTimeoutMs = &n
	}
	return s, nil
}
