package canonical

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Code is the closed set of error codes. The wire value is what users and
// scripts match on (contracts §2), so existing values never change meaning.
type Code string

// The error codes of contracts §2.
const (
	CodeInvalidArgs          Code = "INVALID_ARGS"
	CodeUnsupportedOperation Code = "UNSUPPORTED_OPERATION"
	CodeElementNotFound      Code = "ELEMENT_NOT_FOUND"
	CodeAssertionFailed      Code = "ASSERTION_FAILED"
	CodeTimeout              Code = "TIMEOUT"
	CodeDeviceUnavailable    Code = "DEVICE_UNAVAILABLE"
	CodeCommandFailed        Code = "COMMAND_FAILED"
	CodeInternal             Code = "INTERNAL"
	// CodeInterrupted is a run or a check stopped by the user (Ctrl-C,
	// SIGTERM) or by its caller's context before it finished: neither a
	// failure of the flow nor of the device.
	CodeInterrupted Code = "INTERRUPTED"
)

// Interrupted is the error of work stopped by its context; cause is the
// context's error (context.Canceled), so errors.Is still finds it.
func Interrupted(cause error) *Error {
	return NewError(CodeInterrupted, "interrupted").Wrap(cause)
}

// Reasons carried in Details["reason"] for gesture geometry failures (ADR 0013).
const (
	ReasonOutOfBounds = "GESTURE_TRAJECTORY_OUT_OF_BOUNDS"
	ReasonNonFinite   = "GESTURE_TRAJECTORY_NON_FINITE"
)

// Pos is a position in a source file; the zero value means unknown. Line and
// Col are 1-based.
type Pos struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

// Known reports whether any part of the position is set.
func (p Pos) Known() bool { return p.File != "" || p.Line > 0 }

// String renders the position compiler-style: file:line:col, omitting unknown
// parts.
func (p Pos) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	return b.String()
}

// Error is flow's one error shape. Error() is plain text; the CLI renders the
// hint, a source snippet and colour from the fields, never from the string.
type Error struct {
	Code    Code
	Message string
	Hint    string
	Pos     Pos
	Details map[string]any
	Err     error
}

// Errorf builds an error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NewError builds an error with a literal message.
func NewError(code Code, msg string) *Error {
	return &Error{Code: code, Message: msg}
}

// At sets the position and returns the error for chaining.
func (e *Error) At(p Pos) *Error { e.Pos = p; return e }

// WithHint sets the hint and returns the error for chaining.
func (e *Error) WithHint(h string) *Error { e.Hint = h; return e }

// With adds one detail and returns the error for chaining.
func (e *Error) With(key string, v any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = v
	return e
}

// Wrap records the cause and returns the error for chaining.
func (e *Error) Wrap(cause error) *Error { e.Err = cause; return e }

// Reason is Details["reason"] when it is a string.
func (e *Error) Reason() string {
	r, _ := e.Details["reason"].(string)
	return r
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.Known() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString(string(e.Code))
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// errorJSON is the wire shape of contracts §2 (inside the "error" key).
type errorJSON struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Hint    string         `json:"hint,omitempty"`
	Pos     *Pos           `json:"pos,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

// MarshalJSON writes the contracts §2 error object: hint, pos and details
// only when known.
func (e *Error) MarshalJSON() ([]byte, error) {
	w := errorJSON{Code: e.Code, Message: e.Message, Hint: e.Hint, Details: e.Details}
	if e.Pos.Known() {
		p := e.Pos
		w.Pos = &p
	}
	return json.Marshal(w)
}

// AsError finds the coded error in err's chain.
func AsError(err error) (*Error, bool) {
	var ce *Error
	if errors.As(err, &ce) {
		return ce, true
	}
	return nil, false
}

// CodeOf is the code of the first coded error in err's chain, INTERNAL for an
// uncoded error and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	if ce, ok := AsError(err); ok {
		return ce.Code
	}
	return CodeInternal
}

// Coded returns err as a coded error, wrapping an uncoded one as INTERNAL so
// that every error leaving flow has the one shape.
func Coded(err error) *Error {
	if err == nil {
		return nil
	}
	if ce, ok := AsError(err); ok {
		return ce
	}
	return &Error{Code: CodeInternal, Message: err.Error(), Err: err}
}

// AtIfNone stamps pos on a coded error that has no position yet. Planner and
// driver errors know nothing about source files; the runtime calls this with
// the failing command's position so every failure keeps file:line:col.
func AtIfNone(err error, pos Pos) error {
	if err == nil {
		return nil
	}
	ce, ok := AsError(err)
	if !ok {
		return &Error{Code: CodeInternal, Message: err.Error(), Err: err, Pos: pos}
	}
	if !ce.Pos.Known() {
		ce.Pos = pos
	}
	return err
}

// SortByPos orders errors by file, line and column, stably, so a list of
// problems reads in source order.
func SortByPos(ps []*Error) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Pos, ps[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}
