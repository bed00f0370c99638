package exec

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Event is one line of the device event log (contracts §8): a device-level
// action, or an app's observation on sim. T is milliseconds since the run
// started; Fields hold the type-specific keys.
type Event struct {
	T      int64
	Type   string
	Fields map[string]any
}

// MarshalJSON writes {"t":…,"type":…, fields…} with t and type first.
func (e Event) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		T    int64  `json:"t"`
		Type string `json:"type"`
	}{e.T, e.Type})
	if err != nil || len(e.Fields) == 0 {
		return head, err
	}
	rest, err := json.Marshal(e.Fields)
	if err != nil {
		return nil, err
	}
	out := append(head[:len(head)-1], ',')
	return append(out, rest[1:]...), nil
}

// EventLog receives device events in order. Devices record their own
// observations through the same log, right after the action that caused
// them.
type EventLog interface {
	Record(typ string, fields map[string]any)
}

// JSONLog writes events as JSON lines, timing them with a clock from the
// start of the run. It is safe for concurrent use.
type JSONLog struct {
	mu    sync.Mutex
	w     io.Writer
	clock Clock
	start time.Time
	err   error
}

// NewJSONLog starts a log whose t=0 is now on clock.
func NewJSONLog(w io.Writer, clock Clock) *JSONLog {
	return &JSONLog{w: w, clock: clock, start: clock.Now()}
}

// Record writes one event; the first write error is kept and later events
// are dropped (Err reports it).
func (l *JSONLog) Record(typ string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	e := Event{T: l.clock.Now().Sub(l.start).Milliseconds(), Type: typ, Fields: fields}
	data, err := json.Marshal(e)
	if err == nil {
		data = append(data, '\n')
		_, err = l.w.Write(data)
	}
	l.err = err
}

// Err is the first write error, if any.
func (l *JSONLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// NopLog discards events.
type NopLog struct{}

// Record does nothing.
func (NopLog) Record(string, map[string]any) {}
