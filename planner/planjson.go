package planner

import (
	"github.com/flow-runner/flow/canonical"
)

// AppendJSON appends the contracts §4 plan exactly as encoding/json's Marshal
// writes a Plan (field order, executionProfile only when set, null for a nil
// slice), without reflection: `flow plan --jsonl` spends its time here.
// It fails, as Marshal does, on a non-finite number.
func (p Plan) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"topology":`...)
	b = canonical.AppendJSONString(b, string(p.Topology))
	b = append(b, `,"intent":`...)
	b = canonical.AppendJSONString(b, string(p.Intent))
	if p.ExecutionProfile != "" {
		b = append(b, `,"executionProfile":`...)
		b = canonical.AppendJSONString(b, string(p.ExecutionProfile))
	}
	b = append(b, `,"durationMs":`...)
	b = canonical.AppendJSONInt(b, p.DurationMs)
	b = append(b, `,"viewport":`...)
	b, err := p.Viewport.AppendJSON(b)
	if err != nil {
		return b, err
	}
	b = append(b, `,"pointers":`...)
	if p.Pointers == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, ptr := range p.Pointers {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = ptr.AppendJSON(b); err != nil {
				return b, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// AppendJSON appends one pointer as encoding/json's Marshal writes it.
func (p Pointer) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"pointerId":`...)
	b = canonical.AppendJSONInt(b, p.PointerID)
	b = append(b, `,"samples":`...)
	if p.Samples == nil {
		return append(b, "null}"...), nil
	}
	b = append(b, '[')
	var err error
	for i, s := range p.Samples {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = s.AppendJSON(b); err != nil {
			return b, err
		}
	}
	return append(b, "]}"...), nil
}

// AppendJSON appends one sample as encoding/json's Marshal writes it.
func (s Sample) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"offsetMs":`...)
	b = canonical.AppendJSONInt(b, s.OffsetMs)
	b = append(b, `,"point":`...)
	b, err := s.Point.AppendJSON(b)
	if err != nil {
		return b, err
	}
	return append(b, '}'), nil
}
