package js

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/flow-runner/flow/canonical"
)

// Reasons carried in Details["reason"] of the errors this package returns.
// The code is always COMMAND_FAILED: a failing script fails its command,
// and, as in Maestro, `optional` does not excuse it.
const (
	ReasonSyntax        = "SCRIPT_SYNTAX_ERROR"   // the code does not parse
	ReasonThrown        = "SCRIPT_ERROR"          // the code threw
	ReasonStackOverflow = "SCRIPT_STACK_OVERFLOW" // recursion beyond MaxCallDepth
	ReasonTimeout       = "SCRIPT_TIMEOUT"        // Options.Timeout elapsed
	ReasonMemory        = "SCRIPT_MEMORY_BUDGET"  // the evaluation outgrew Options.MemoryBudget
	ReasonCancelled     = "SCRIPT_CANCELLED"      // the caller's context ended
	ReasonBusy          = "SCRIPT_ENGINE_BUSY"    // an earlier timed-out script is still in native code
)

// failure is a script failure in the terms of the user's source.
type failure struct {
	reason string
	text   string // the JavaScript error, e.g. "TypeError: ..."
	src    string // source name of the position ("${}" for a ${...} body)
	line   int    // 1-based, 0 when unknown
	col    int
	cause  error
}

// classify turns what goja returned into a failure. It runs on the
// evaluation goroutine: rendering a thrown value can run script code.
func (e *Engine) classify(err error) *failure {
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		f := &failure{reason: ReasonStackOverflow, text: "RangeError: Maximum call stack size exceeded", cause: err}
		f.at(so.Stack())
		return f
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		// run knows why it interrupted and overrides the reason; this one
		// stands only if an interrupt ever arrived unasked.
		f := &failure{reason: ReasonCancelled, text: "interrupted", cause: err}
		f.at(ie.Stack())
		return f
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		f := &failure{reason: ReasonThrown, text: e.thrownText(ex), cause: err}
		f.at(ex.Stack())
		return f
	}
	return &failure{reason: ReasonThrown, text: err.Error(), cause: err}
}

// at takes the position of the innermost frame that is script code.
func (f *failure) at(stack []goja.StackFrame) {
	for i := range stack {
		fr := &stack[i]
		if n := fr.SrcName(); n == "<native>" || n == runtimeName {
			continue
		}
		p := fr.Position()
		if p.Line == 0 {
			continue
		}
		f.src = fr.SrcName()
		f.line, f.col = userPos(f.src, p.Line, p.Column)
		return
	}
}

// thrownText renders a thrown value as String() does ("TypeError: msg").
func (e *Engine) thrownText(ex *goja.Exception) (s string) {
	v := ex.Value()
	if v == nil {
		return "uncaught exception"
	}
	defer func() {
		if recover() != nil {
			s = "uncaught exception"
		}
	}()
	r, err := e.toString(goja.Undefined(), v)
	if err != nil {
		return "uncaught exception (its toString() failed)"
	}
	return r.String()
}

// subject says what failed: a ${...} body or a runScript file.
type subject struct {
	inline bool
	code   string // the ${...} body, or the runScript source
	script string // the runScript name
}

func (s subject) label() string {
	if s.inline {
		return "${" + shorten(s.code) + "}"
	}
	return s.script
}

// where renders a failure's position for the message.
func (s subject) where(f *failure) string {
	if f.line == 0 {
		return ""
	}
	if s.inline && f.src == inlineName {
		return fmt.Sprintf(" (at %d:%d in the expression)", f.line, f.col)
	}
	if f.src == "" {
		return fmt.Sprintf(" (at %d:%d)", f.line, f.col)
	}
	return fmt.Sprintf(" (at %s:%d:%d)", f.src, f.line, f.col)
}

// scriptError builds the coded error for a failed evaluation: always
// COMMAND_FAILED at the flow position pos, with the script position in the
// message and in Details.
func (e *Engine) scriptError(s subject, err error, pos canonical.Pos) error {
	var f *failure
	var st *stopped
	var ms *memoryStop
	runaway := false
	stuck := ""
	switch {
	case errors.As(err, &ms):
		f = &failure{cause: errMemoryBudget}
		if ms.hit.stack != nil {
			f.at(ms.hit.stack)
		} else if ms.err != nil {
			f = e.classifyStopped(ms.err)
			f.cause = errMemoryBudget
		}
		f.reason = ReasonMemory
	case errors.As(err, &st):
		f = &failure{cause: st.cause}
		if st.err != nil {
			f = e.classifyStopped(st.err)
		}
		runaway = st.runaway
		stuck = st.native
		if errors.Is(st.cause, errTimedOut) {
			f.reason = ReasonTimeout
		} else {
			f.reason = ReasonCancelled
			f.cause = st.cause
		}
	case errors.As(err, &f):
	case errors.Is(err, busyError{}):
		f = &failure{reason: ReasonBusy}
	default:
		f = &failure{reason: ReasonThrown, text: err.Error(), cause: err}
	}

	var msg, hint string
	switch f.reason {
	case ReasonTimeout:
		msg = fmt.Sprintf("script %s timed out after %s%s", s.label(), e.timeout, s.where(f))
		hint = "a script must finish within " + e.timeout.String() + "; look for an endless loop or a slow http call"
		if runaway {
			msg += " and is still running native code; the engine refuses scripts until it returns"
			hint = stuckHint(stuck)
		}
	case ReasonMemory:
		budget := budgetText(float64(e.budget))
		msg = fmt.Sprintf("script %s exceeded its memory budget of %s%s", s.label(), budget, s.where(f))
		if ms.hit.native != "" {
			need := budgetText(ms.hit.need)
			if ms.hit.atLeast {
				need = "more than " + budget
			}
			msg = fmt.Sprintf("script %s exceeded its memory budget of %s: %s would need %s%s",
				s.label(), budget, ms.hit.native, need, s.where(f))
		}
		hint = "one evaluation may grow the heap by at most " + budget + "; look for a loop that keeps growing a string or an array, or work on less data at a time"
	case ReasonCancelled:
		msg = fmt.Sprintf("script %s was cancelled: %v%s", s.label(), f.cause, s.where(f))
	case ReasonBusy:
		msg = fmt.Sprintf("script %s was not run: an earlier script that timed out is still stuck in native code", s.label())
		hint = stuckHint(e.stuck)
	case ReasonSyntax:
		msg = fmt.Sprintf("script %s failed: %s%s", s.label(), f.text, s.where(f))
		if s.inline {
			hint = "the text inside ${...} must be JavaScript; it may not contain '$' and ends at the last '}' before the next '$'"
		} else {
			hint = "fix the JavaScript syntax in " + s.script
		}
	case ReasonStackOverflow:
		msg = fmt.Sprintf("script %s failed: %s%s", s.label(), f.text, s.where(f))
		hint = fmt.Sprintf("the script recursed deeper than %d calls; look for a function that never stops calling itself", MaxCallDepth)
	default:
		msg = fmt.Sprintf("script %s failed: %s%s", s.label(), f.text, s.where(f))
		if strings.Contains(f.text, "of undefined") || strings.Contains(f.text, "of null") {
			hint = "a value used here is undefined; variables come from env:, -e, output.* and maestro.*; write ${X || 'default'} for optional ones"
		} else {
			hint = "the script threw this error; fix the script or catch the error in it"
		}
	}

	ce := canonical.NewError(canonical.CodeCommandFailed, msg).At(pos).With("reason", f.reason)
	if hint != "" {
		ce = ce.WithHint(hint)
	}
	if s.inline {
		ce = ce.With("expression", s.code)
	} else {
		ce = ce.With("script", s.script)
	}
	if f.text != "" {
		ce = ce.With("jsError", f.text)
	}
	if f.line > 0 {
		ce = ce.With("line", f.line).With("col", f.col)
		if f.src != "" && f.src != inlineName {
			ce = ce.With("source", f.src)
		}
	}
	switch f.reason {
	case ReasonTimeout:
		ce = ce.With("timeout", e.timeout.String()).Wrap(context.DeadlineExceeded)
	case ReasonMemory:
		ce = ce.With("memoryBudget", e.budget).Wrap(errMemoryBudget)
		if ms.hit.native != "" {
			ce = ce.With("native", ms.hit.native).With("needed", int64(math.Min(ms.hit.need, math.MaxInt64)))
		} else {
			ce = ce.With("grew", ms.hit.grew)
		}
	case ReasonCancelled:
		ce = ce.Wrap(f.cause)
	default:
		if f.cause != nil {
			ce = ce.Wrap(f.cause)
		}
	}
	return ce
}

// classifyStopped is classify for the error an interrupted evaluation
// returned; it runs on the caller's goroutine after the VM has stopped, so
// it must not run script code.
func (e *Engine) classifyStopped(err error) *failure {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		f := &failure{cause: err}
		f.at(ie.Stack())
		return f
	}
	var fl *failure
	if errors.As(err, &fl) {
		return fl
	}
	return &failure{cause: err}
}

func (f *failure) Error() string { return f.text }

// shorten keeps an expression readable in a one-line message.
func shorten(code string) string {
	s := strings.Join(strings.Fields(code), " ")
	const maxLen = 60
	if utf8.RuneCountInString(s) > maxLen {
		r := []rune(s)
		s = string(r[:maxLen-1]) + "…"
	}
	return s
}
