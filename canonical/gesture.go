package canonical

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Kind is the public gesture vocabulary of contracts §3.
type Kind string

// The public gesture kinds, in the order error messages list them.
const (
	KindPan       Kind = "pan"
	KindFling     Kind = "fling"
	KindSwipe     Kind = "swipe"
	KindPinch     Kind = "pinch"
	KindRotate    Kind = "rotate"
	KindTransform Kind = "transform"
	KindDrag      Kind = "drag"
)

// Intent is the semantic intent a plan carries. "gesture swipe <preset>" is
// public sugar for a fling, so there is no swipe intent.
type Intent string

// The planner intents (ADR 0013).
const (
	IntentPan       Intent = "pan"
	IntentFling     Intent = "fling"
	IntentPinch     Intent = "pinch"
	IntentRotate    Intent = "rotate"
	IntentTransform Intent = "transform"
)

// ExecutionProfile says how an adapter distributes a one-contact movement
// over time. It is never accepted from public input.
type ExecutionProfile string

// The execution profiles of ADR 0013.
const (
	ProfileEndpointHold ExecutionProfile = "endpoint-hold"
	ProfileTimedPan     ExecutionProfile = "timed-pan"
)

// Direction is a fling direction: the way the finger moves.
type Direction string

// Fling directions.
const (
	DirectionUp    Direction = "up"
	DirectionDown  Direction = "down"
	DirectionLeft  Direction = "left"
	DirectionRight Direction = "right"
)

// Preset is a "gesture swipe" preset.
type Preset string

// Swipe presets.
const (
	PresetLeft      Preset = "left"
	PresetRight     Preset = "right"
	PresetLeftEdge  Preset = "left-edge"
	PresetRightEdge Preset = "right-edge"
)

// Gesture duration limits, shared by normalization and the planner.
const (
	MinDurationMs        = 16
	MaxDurationMs        = 10000
	DefaultPanDurationMs = 500
	FlingDurationMs      = 100
	PinchDurationMs      = 300
	DefaultFlingDistance = 180
	DefaultSourceHoldMs  = 800
	DefaultMoveMs        = 500
)

func kindNames() []string {
	return []string{"pan", "fling", "swipe", "pinch", "rotate", "transform", "drag"}
}

func directionNames() []string { return []string{"up", "down", "left", "right"} }

func presetNames() []string { return []string{"left", "right", "left-edge", "right-edge"} }

// GestureInput is a validated public gesture (contracts §3). Optional fields
// are nil when the caller left them out; defaults are the planner's business
// because they depend on the viewport.
type GestureInput struct {
	Kind              Kind
	Origin            *Point
	Delta             *Point
	PointerCount      *int
	DurationMs        *int
	Direction         Direction
	Distance          *float64 // a non-negative integer, possibly beyond int range
	Preset            Preset
	Scale             float64
	Degrees           float64
	Source            string
	Destination       string
	SourceHoldMs      *int
	MoveMs            *int
	DestinationHoldMs *int
}

// MarshalJSON writes the structured form of contracts §3, with only the
// fields that belong to the kind.
func (g GestureInput) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"kind":`)
	writeJSON(&b, g.Kind)
	field := func(name string, v any) {
		b.WriteString(`,"` + name + `":`)
		writeJSON(&b, v)
	}
	opt := func(name string, v *int) {
		if v != nil {
			field(name, *v)
		}
	}
	switch g.Kind {
	case KindPan:
		field("origin", g.Origin)
		field("delta", g.Delta)
		opt("pointerCount", g.PointerCount)
		opt("durationMs", g.DurationMs)
	case KindFling:
		field("direction", g.Direction)
		field("origin", g.Origin)
		if g.Distance != nil {
			field("distance", *g.Distance)
		}
	case KindSwipe:
		field("preset", g.Preset)
	case KindPinch:
		field("scale", g.Scale)
		if g.Origin != nil {
			field("origin", g.Origin)
		}
	case KindRotate:
		field("degrees", g.Degrees)
		if g.Origin != nil {
			field("origin", g.Origin)
		}
	case KindTransform:
		field("origin", g.Origin)
		field("delta", g.Delta)
		field("scale", g.Scale)
		field("degrees", g.Degrees)
		opt("durationMs", g.DurationMs)
	case KindDrag:
		field("source", g.Source)
		field("destination", g.Destination)
		opt("sourceHoldMs", g.SourceHoldMs)
		opt("moveMs", g.MoveMs)
		opt("destinationHoldMs", g.DestinationHoldMs)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Only non-finite floats fail, and normalization rejects them.
		data = []byte("null")
	}
	b.Write(data)
}

// DecodeJSON parses one JSON value the way JavaScript's JSON.parse does for
// the purposes of gesture input: numbers become float64 (out-of-range
// literals become ±Inf or 0 instead of failing), objects become
// map[string]any with the last duplicate key winning.
func DecodeJSON(data []byte) (any, error) {
	if v, ok := decodeJSONPlain(data); ok {
		return v, nil
	}
	return decodeJSONStd(data)
}

// decodeJSONStd is DecodeJSON through encoding/json: every input the fast
// path declines, and the reference its tests compare it with.
func decodeJSONStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Errorf(CodeInvalidArgs, "invalid JSON: %s", jsonErrorText(err)).
			WithHint("each input must be one JSON object, for example {\"kind\":\"pinch\",\"scale\":0.5}").Wrap(err)
	}
	if dec.More() {
		return nil, NewError(CodeInvalidArgs, "invalid JSON: unexpected data after the first value").
			WithHint("put one JSON object on each line")
	}
	return numbersToFloat(v), nil
}

func jsonErrorText(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

func numbersToFloat(v any) any {
	switch t := v.(type) {
	case json.Number:
		return ParseNumber(t.String())
	case map[string]any:
		for k, e := range t {
			t[k] = numbersToFloat(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = numbersToFloat(e)
		}
		return t
	}
	return v
}

// object is a decoded JSON object seen through JavaScript's eyes: a key that
// is absent reads as undefined, a key holding null is present. path is where
// the object sits in the input ("" for the top, "origin" for a point), so
// errors can name the exact field.
type object struct {
	m    map[string]any
	path string
}

func asObject(v any, path string) (object, error) {
	m, ok := v.(map[string]any)
	if !ok {
		e := NewError(CodeInvalidArgs, "gesture requires structured object input").
			WithHint(`pass a JSON object such as {"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80}}`)
		if path != "" {
			e.With("field", path).WithHint(`"` + path + `" must be a point object such as {"x":200,"y":420}`)
		}
		return object{}, e
	}
	return object{m: m, path: path}, nil
}

func (o object) has(key string) bool { _, ok := o.m[key]; return ok }

func (o object) field(key string) string {
	if o.path == "" {
		return key
	}
	return o.path + "." + key
}

func invalidf(format string, args ...any) *Error {
	return Errorf(CodeInvalidArgs, format, args...)
}

// fieldError is agent-device's message plus what it leaves out: which field
// (details.field) and how to fix it (the hint).
func (o object) fieldError(key, hint, format string, args ...any) *Error {
	return invalidf(format, args...).With("field", o.field(key)).WithHint(hint)
}

// finite reads a required finite number.
func (o object) finite(key string) (float64, error) {
	f, ok := o.m[key].(float64)
	if !ok || !IsFinite(f) {
		return 0, o.fieldError(key, fmt.Sprintf("give %s as a plain number, for example %s", o.field(key), exampleFor(key)),
			"Expected %s to be a finite number.", key)
	}
	return f, nil
}

func exampleFor(key string) string {
	switch key {
	case "scale":
		return "0.5 to pinch in or 2 to spread"
	case "degrees":
		return "35 (clockwise) or -35"
	}
	return "200"
}

// integer reads an optional integer with optional bounds; nil when absent.
func (o object) integer(key string, lo, hi *float64) (*float64, error) {
	v, present := o.m[key]
	if !present {
		return nil, nil
	}
	hint := o.field(key) + " takes a whole number" + rangeText(lo, hi)
	f, ok := v.(float64)
	if !ok || !IsInteger(f) {
		return nil, o.fieldError(key, hint, "Expected %s to be an integer.", key)
	}
	if lo != nil && f < *lo {
		return nil, o.fieldError(key, hint, "Expected %s to be at least %s.", key, FormatNumber(*lo))
	}
	if hi != nil && f > *hi {
		return nil, o.fieldError(key, hint, "Expected %s to be at most %s.", key, FormatNumber(*hi))
	}
	return &f, nil
}

func rangeText(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return " from " + FormatNumber(*lo) + " to " + FormatNumber(*hi)
	case lo != nil:
		return " of at least " + FormatNumber(*lo)
	}
	return ""
}

func (o object) oneOf(key string, allowed []string) (string, error) {
	s, ok := o.m[key].(string)
	if ok {
		for _, a := range allowed {
			if s == a {
				return s, nil
			}
		}
	}
	hint := "use one of: " + strings.Join(allowed, ", ")
	if ok {
		if near := closest(s, allowed); near != "" {
			hint = fmt.Sprintf("did you mean %q? %s", near, hint)
		}
	}
	return "", o.fieldError(key, hint, "Expected %s to be one of: %s.", key, strings.Join(allowed, ", "))
}

func (o object) point(key string) (*Point, error) {
	p, err := asObject(o.m[key], o.field(key))
	if err != nil {
		return nil, err
	}
	x, err := p.finite("x")
	if err != nil {
		return nil, err
	}
	y, err := p.finite("y")
	if err != nil {
		return nil, err
	}
	return &Point{X: x, Y: y}, nil
}

func (o object) optionalPoint(key string) (*Point, error) {
	if !o.has(key) {
		return nil, nil
	}
	return o.point(key)
}

func (o object) nonEmpty(key string) (string, error) {
	s, ok := o.m[key].(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", o.fieldError(key, key+` names an element: a selector such as id="card" or a snapshot ref such as @e3`,
			"Expected %s to be a non-empty string.", key)
	}
	return strings.TrimSpace(s), nil
}

func bound(f float64) *float64 { return &f }

func toInt(f *float64) *int {
	if f == nil {
		return nil
	}
	i := int(*f)
	return &i
}

func (o object) duration() (*int, error) {
	d, err := o.integer("durationMs", nil, nil)
	if err != nil || d == nil {
		return nil, err
	}
	if *d < MinDurationMs || *d > MaxDurationMs {
		return nil, o.fieldError("durationMs", "durationMs takes whole milliseconds from 16 to 10000",
			"Expected durationMs to be an integer between %d and %d.", MinDurationMs, MaxDurationMs)
	}
	return toInt(d), nil
}

// NormalizeGesture validates a decoded structured gesture input (contracts
// §3) with agent-device's rules and messages, in its order, so the first
// error reported is the same. Removed forms are refused with their rewrite.
func NormalizeGesture(raw any) (GestureInput, error) {
	o, err := asObject(raw, "")
	if err != nil {
		return GestureInput{}, err
	}
	if o.has("executionProfile") {
		return GestureInput{}, NewError(CodeInvalidArgs, "executionProfile is not accepted from public gesture input").
			WithHint("remove executionProfile: fling and swipe throw and hold, pan moves evenly over durationMs")
	}
	kind, err := o.oneOf("kind", kindNames())
	if err != nil {
		return GestureInput{}, err
	}
	g := GestureInput{Kind: Kind(kind)}
	switch g.Kind {
	case KindPan:
		return normalizePan(o, g)
	case KindDrag:
		return normalizeDrag(o, g)
	}
	if o.has("pointerCount") {
		return g, NewError(CodeInvalidArgs, "pointerCount is supported only for gesture pan").
			WithHint("use gesture pan with pointerCount 2 for a two-finger translation")
	}
	switch g.Kind {
	case KindFling:
		if o.has("durationMs") {
			return g, removed("gesture fling does not accept durationMs; use gesture pan for timed movement", "durationMs")
		}
		dir, err := o.oneOf("direction", directionNames())
		if err != nil {
			return g, err
		}
		g.Direction = Direction(dir)
		if g.Origin, err = o.point("origin"); err != nil {
			return g, err
		}
		if g.Distance, err = o.integer("distance", bound(0), nil); err != nil {
			return g, err
		}
	case KindSwipe:
		if o.has("durationMs") {
			return g, removed("gesture swipe does not accept durationMs; use gesture pan for timed movement", "durationMs")
		}
		preset, err := o.oneOf("preset", presetNames())
		if err != nil {
			return g, err
		}
		g.Preset = Preset(preset)
	case KindPinch:
		if g.Scale, err = o.finite("scale"); err != nil {
			return g, err
		}
		if g.Origin, err = o.optionalPoint("origin"); err != nil {
			return g, err
		}
	case KindRotate:
		if o.has("velocity") {
			return g, removed("gesture rotate does not accept velocity; rotation pacing derives from degrees", "velocity")
		}
		if g.Degrees, err = o.finite("degrees"); err != nil {
			return g, err
		}
		if g.Origin, err = o.optionalPoint("origin"); err != nil {
			return g, err
		}
	case KindTransform:
		if g.Origin, err = o.point("origin"); err != nil {
			return g, err
		}
		if g.Delta, err = o.point("delta"); err != nil {
			return g, err
		}
		if g.Scale, err = o.finite("scale"); err != nil {
			return g, err
		}
		if g.Degrees, err = o.finite("degrees"); err != nil {
			return g, err
		}
		if g.DurationMs, err = o.duration(); err != nil {
			return g, err
		}
	}
	return g, nil
}

func removed(msg, field string) *Error {
	return NewError(CodeInvalidArgs, msg).
		With("removed", field).
		WithHint("remove " + field + "; use gesture pan {origin, delta, durationMs} for timed movement")
}

func normalizePan(o object, g GestureInput) (GestureInput, error) {
	var err error
	if g.Origin, err = o.point("origin"); err != nil {
		return g, err
	}
	if g.Delta, err = o.point("delta"); err != nil {
		return g, err
	}
	pc, err := o.integer("pointerCount", bound(1), bound(2))
	if err != nil {
		return g, err
	}
	g.PointerCount = toInt(pc)
	if g.DurationMs, err = o.duration(); err != nil {
		return g, err
	}
	return g, nil
}

func normalizeDrag(o object, g GestureInput) (GestureInput, error) {
	hold, err := o.integer("sourceHoldMs", bound(1), bound(MaxDurationMs))
	if err != nil {
		return g, err
	}
	move, err := o.integer("moveMs", bound(MinDurationMs), bound(MaxDurationMs))
	if err != nil {
		return g, err
	}
	dhold, err := o.integer("destinationHoldMs", bound(0), bound(MaxDurationMs))
	if err != nil {
		return g, err
	}
	g.SourceHoldMs, g.MoveMs, g.DestinationHoldMs = toInt(hold), toInt(move), toInt(dhold)
	if DragTotalMs(g.SourceHoldMs, g.MoveMs, g.DestinationHoldMs) > MaxDurationMs {
		return g, invalidf("gesture drag total duration must be at most %d", MaxDurationMs).
			WithHint("shorten sourceHoldMs, moveMs or destinationHoldMs so that they add up to 10000 or less")
	}
	if g.Source, err = o.nonEmpty("source"); err != nil {
		return g, err
	}
	if g.Destination, err = o.nonEmpty("destination"); err != nil {
		return g, err
	}
	return g, nil
}

// DragTotalMs is a drag's whole duration with the defaults filled in.
func DragTotalMs(sourceHoldMs, moveMs, destinationHoldMs *int) int {
	return intOr(sourceHoldMs, DefaultSourceHoldMs) + intOr(moveMs, DefaultMoveMs) + intOr(destinationHoldMs, 0)
}

func intOr(v *int, def int) int {
	if v == nil {
		return def
	}
	return *v
}

// Gesture is the canonical intent the planner consumes. Numeric fields stay
// float64 pointers because the planner re-validates them (it is also fed by
// internal seams) and must report the same errors agent-device's planner does.
type Gesture struct {
	Intent       Intent
	Origin       *Point
	Delta        *Point
	From         *Point // fling between two points (the top-level swipe command)
	To           *Point
	Direction    Direction
	Distance     *float64
	Preset       Preset
	PointerCount *float64
	DurationMs   *float64
	Scale        *float64
	Degrees      *float64
	// ExecutionProfile is set only through [Internal]; public input cannot
	// reach it.
	ExecutionProfile ExecutionProfile
}

// FlingMode says which of the three fling forms a fling gesture is.
func (g Gesture) FlingMode() string {
	switch {
	case g.Preset != "":
		return "preset"
	case g.From != nil || g.To != nil:
		return "points"
	default:
		return "direction"
	}
}

// Internal carries compatibility-only hints that no public surface can set.
// Maestro swipes use it to keep endpoint-hold pacing while routing through the
// canonical pan input (ADR 0013).
type Internal struct {
	ExecutionProfile ExecutionProfile
}

func intPtrToFloat(v *int) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}

// Gesture converts a validated input to planner intent. A drag cannot be
// converted: its endpoints are selectors that must be resolved on a live
// screen first (see planner.PlanDrag).
func (g GestureInput) Gesture(internal Internal) (Gesture, error) {
	scale, degrees := g.Scale, g.Degrees
	switch g.Kind {
	case KindPan:
		out := Gesture{Intent: IntentPan, Origin: g.Origin, Delta: g.Delta,
			PointerCount: intPtrToFloat(g.PointerCount), DurationMs: intPtrToFloat(g.DurationMs)}
		out.ExecutionProfile = internal.ExecutionProfile
		return out, nil
	case KindFling:
		return Gesture{Intent: IntentFling, Direction: g.Direction, Origin: g.Origin, Distance: g.Distance}, nil
	case KindSwipe:
		return Gesture{Intent: IntentFling, Preset: g.Preset}, nil
	case KindPinch:
		return Gesture{Intent: IntentPinch, Origin: g.Origin, Scale: &scale}, nil
	case KindRotate:
		return Gesture{Intent: IntentRotate, Origin: g.Origin, Degrees: &degrees}, nil
	case KindTransform:
		return Gesture{Intent: IntentTransform, Origin: g.Origin, Delta: g.Delta, Scale: &scale,
			Degrees: &degrees, DurationMs: intPtrToFloat(g.DurationMs)}, nil
	case KindDrag:
		return Gesture{}, NewError(CodeInvalidArgs, "gesture drag targets must be resolved before coordinate normalization").
			WithHint("a drag names elements (selectors or @refs); run it against a device, for example flow gesture drag ... --device sim")
	}
	return Gesture{}, invalidf("unknown gesture kind %q", string(g.Kind))
}

// String is a short human description used in progress output.
func (g GestureInput) String() string {
	data, _ := g.MarshalJSON()
	return fmt.Sprintf("gesture %s %s", g.Kind, data)
}
