package js

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// DefaultMemoryBudget is how much one evaluation may grow the heap. goja
// has no memory limit of its own: the budget is enforced by a watchdog that
// samples the Go heap while a script runs, and by checks in the natives
// that allocate in one step (see guards.go).
const DefaultMemoryBudget = 64 << 20

// sampleEvery is the watchdog's period. A script that grows the heap by a
// few hundred MB per second overshoots its budget by a fraction of a MB
// between two samples; one allocation that doubles a string overshoots by
// that allocation, which the budget check in the next sample then stops.
const sampleEvery = 2 * time.Millisecond

// turn is the right to evaluate JavaScript. The Go heap is shared by the
// whole process, so a watchdog can only attribute heap growth to the script
// it watches if no other script runs meanwhile: flows of concurrent shards
// take turns, one evaluation at a time. Evaluations are short (a template,
// a script file); a waiting one starts its own time limit only when it gets
// its turn.
var turn = make(chan struct{}, 1) //nolint:gochecknoglobals // the heap it guards is process-wide

// takeTurn waits for the turn, or for ctx to end.
func takeTurn(ctx context.Context) (release func(), err error) {
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// errMemoryBudget is the watchdog's interrupt value.
var errMemoryBudget = errors.New("memory budget exceeded") //nolint:gochecknoglobals // sentinel

// memoryHit is an evaluation that outgrew its budget.
type memoryHit struct {
	// native names the built-in that was about to allocate ("" when the
	// watchdog saw the heap grow), need how many bytes it asked for.
	native  string
	need    float64
	atLeast bool // need is a lower bound: the estimate stopped at the budget
	// grew is the heap growth the watchdog measured.
	grew uint64
	// stack is where a native was called; the watchdog's position is the
	// interrupted instruction's, in the error the evaluation returned.
	stack []goja.StackFrame
}

// memoryStop is run's error for an evaluation stopped by its budget.
type memoryStop struct {
	hit *memoryHit
	err error // what the evaluation returned
}

func (m *memoryStop) Error() string { return "memory budget exceeded" }

// heapSample reads the three heap figures the watchdog needs without
// stopping the world (runtime.ReadMemStats would).
type heapSample struct{ s [4]metrics.Sample }

func newHeapSample() *heapSample {
	h := &heapSample{}
	h.s[0].Name = "/memory/classes/heap/objects:bytes" // live and not yet swept, now
	h.s[1].Name = "/gc/heap/live:bytes"                // marked live by the last GC
	h.s[2].Name = "/gc/cycles/total:gc-cycles"
	h.s[3].Name = "/gc/gogc:percent"
	return h
}

func (h *heapSample) read() (objects, live, cycles uint64) {
	metrics.Read(h.s[:3])
	return value(h.s[0]), value(h.s[1]), value(h.s[2])
}

// slack is how far the collector lets the heap grow past the live heap
// before it collects, as a factor: 2 with the default GOGC=100, more when
// GOGC is raised.
func (h *heapSample) slack() uint64 {
	metrics.Read(h.s[3:])
	if p := value(h.s[3]); p > 100 {
		return 1 + (p+99)/100
	}
	return 2
}

func value(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// watch starts the watchdog of one evaluation and returns the function that
// stops it (and waits for it, so no interrupt arrives afterwards).
//
// The heap is read at the start (objects: every allocated object, live or
// not). A script has outgrown its budget when either
//   - a GC finished since the start and found more than base+budget live;
//     base counts the garbage present at the start as if it were live, so
//     this errs on the lenient side and never counts garbage as growth; or
//   - the heap holds more than 2×(base+budget), live or not. The collector
//     lets garbage reach the live heap's size before it collects (GOGC=100;
//     the factor follows a larger GOGC), so a script within its budget stays
//     under that; this catches an allocation too fast for the collector to
//     have measured it yet.
func (e *Engine) watch() (stop func()) {
	lim := newHeapLimits(uint64(e.budget))
	// pulse reads the heap on the evaluation's goroutine: same limits, a
	// sample of its own.
	own := *lim
	own.h = newHeapSample()
	e.limits.Store(&own)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			grew, over := lim.over()
			if !over {
				continue
			}
			e.hit.CompareAndSwap(nil, &memoryHit{grew: grew})
			e.vm.Interrupt(errMemoryBudget)
			return
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		e.limits.Store(nil)
	}
}

// heapLimits are the watchdog's limits for one evaluation (see watch),
// with a heap sample of their own.
type heapLimits struct {
	h                     *heapSample
	base, budget, ceiling uint64
	cycles0               uint64
	calls                 uint64 // pulse's count of guarded calls
}

func newHeapLimits(budget uint64) *heapLimits {
	h := newHeapSample()
	base, _, cycles := h.read()
	return &heapLimits{h: h, base: base, budget: budget, ceiling: h.slack() * (base + budget), cycles0: cycles}
}

// over reports whether the evaluation has outgrown its budget, and by how
// much the heap grew.
func (l *heapLimits) over() (grew uint64, over bool) {
	objects, live, cycles := l.h.read()
	switch {
	case cycles > l.cycles0 && live > l.base+l.budget:
		return live - l.base, true
	case objects > l.ceiling:
		return objects - l.base, true
	}
	return 0, false
}

// pulseEvery is how many guarded calls pulse lets pass between two reads
// of the heap; a read costs about as much as a short native call.
const pulseEvery = 64

// pulse is the step check every guarded built-in makes first. goja checks
// its interrupt flag between instructions only, and some natives loop in
// Go calling other natives: a spread or Array.from of an iterator (such
// as matchAll's, which calls exec for every step), a replace whose
// replacer is a built-in, the generic regexp paths that call exec for
// every match. The watchdog's interrupt would wait for the whole loop.
// pulse stops the evaluation at the next such call once the watchdog has
// found it over budget, and every pulseEvery calls checks the heap itself
// with the watchdog's limits, so a late watchdog (a loaded machine, the
// race detector) does not let the loop run on. It runs on the
// evaluation's goroutine.
func (e *Engine) pulse() {
	if h := e.hit.Load(); h != nil {
		e.stopHere(h)
	}
	l := e.limits.Load()
	if l == nil {
		return
	}
	l.calls++
	if l.calls%pulseEvery != 0 {
		return
	}
	if grew, over := l.over(); over {
		e.hit.CompareAndSwap(nil, &memoryHit{grew: grew})
		e.stopHere(e.hit.Load())
	}
}

// stopHere ends the evaluation for the budget hit h from inside a native,
// noting where the script was if the hit does not say.
func (e *Engine) stopHere(h *memoryHit) {
	if h.stack == nil {
		at := *h
		at.stack = e.vm.CaptureCallStack(0, nil)
		e.hit.Store(&at)
	}
	panic(&goja.InterruptedError{})
}

// need stops the evaluation, uncatchably, when a built-in is about to
// allocate more than the whole budget in one step: goja cannot interrupt
// native code, so such an allocation would run to completion (or crash the
// process) before the watchdog could act. It runs on the evaluation's
// goroutine, inside the native.
func (e *Engine) need(native string, bytes float64) { e.needHit(native, bytes, false) }

// needAtLeast is need for an estimate that stops counting once it exceeds
// the budget.
func (e *Engine) needAtLeast(native string, bytes float64) { e.needHit(native, bytes, true) }

func (e *Engine) needHit(native string, bytes float64, atLeast bool) {
	if bytes <= float64(e.budget) {
		return
	}
	e.hit.CompareAndSwap(nil, &memoryHit{native: native, need: bytes, atLeast: atLeast, stack: e.vm.CaptureCallStack(0, nil)})
	// An InterruptedError unwinds like a time limit: no try/catch in the
	// script sees it. Its position comes from the stack captured above.
	panic(&goja.InterruptedError{})
}

// budgetText renders a byte count in MiB for messages.
func budgetText(n float64) string {
	mib := n / (1 << 20)
	if mib >= 10 || mib == float64(int64(mib)) {
		return fmt.Sprintf("%.0f MiB", mib)
	}
	return fmt.Sprintf("%.1f MiB", mib)
}

// hitPointer is the engine's record of a budget hit in the running
// evaluation; written by the watchdog or a native, read after both stopped.
type hitPointer = atomic.Pointer[memoryHit]
