package js

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/flow-runner/flow/canonical"
)

// DefaultTimeout bounds one evaluation: one ${...}, one runScript file.
// Maestro has no such limit; flow has one so that `for(;;){}` fails the
// command instead of hanging the run.
const DefaultTimeout = 30 * time.Second

// MaxCallDepth is the JavaScript call depth beyond which a script fails with
// a stack overflow error instead of exhausting memory.
const MaxCallDepth = 4096

// interruptGrace is how long an interrupted evaluation may take to unwind.
// JavaScript stops at its next instruction; only native code (a regexp that
// backtracks catastrophically) keeps running past it.
const interruptGrace = time.Second

// regexpMatchTimeout caps one regexp2 match. goja hands regexps with
// backreferences or lookarounds to regexp2, and Interrupt cannot stop a
// match in progress. It equals DefaultTimeout, so with the default limit a
// match never outlives its evaluation; see Options.Timeout.
const regexpMatchTimeout = DefaultTimeout

// Var is one variable binding: a name and its string value.
type Var struct {
	Name  string
	Value string
}

// Options configure an Engine. The zero value is usable.
type Options struct {
	// Platform is what maestro.platform reads: "android", "ios" or "web"
	// (lower-cased, as Maestro does). Empty means "unknown", Maestro's
	// default before a device is known.
	Platform string
	// HTTPClient serves http.*. Nil means a client that speaks HTTP/1.1
	// (as Maestro's OkHttp client does), uses no proxy, and gives up on a
	// request after 5 minutes (OkHttp's read/write timeouts). Whatever the
	// client, each request is also bound to the evaluation's deadline.
	HTTPClient *http.Client
	// Timeout bounds each evaluation; zero means DefaultTimeout. A regexp
	// match that takes longer than DefaultTimeout is abandoned as "no match"
	// even when Timeout is longer (see the package's known limits).
	Timeout time.Duration
	// Log receives each console.log message (its arguments' String()
	// joined by a space; one call per console.log). It is called while
	// Interpolate or RunScript is running, from the goroutine evaluating
	// the script, never after they return. Nil discards messages.
	Log func(line string)
	// Now, when set, is the clock behind Date, so tests and replays are
	// deterministic. Nil means the system clock.
	Now func() time.Time
	// MemoryBudget bounds how much one evaluation may grow the heap, in
	// bytes; zero means DefaultMemoryBudget. An evaluation that outgrows it
	// fails (see the package documentation).
	MemoryBudget int64
	// Dialect is the Maestro engine whose observable behaviour to follow;
	// empty means Rhino, Maestro's default (see DialectFor).
	Dialect Dialect
}

// Engine evaluates one flow's JavaScript. Create it with New.
type Engine struct {
	vm      *goja.Runtime
	timeout time.Duration
	budget  int64
	client  *http.Client
	log     func(string)

	// hit records the running evaluation outgrowing its budget.
	hit hitPointer
	// limits are the running evaluation's heap limits, which the guarded
	// natives check as they are called (pulse); set by watch.
	limits atomic.Pointer[heapLimits]
	// rx holds RegExp's original methods, for the regexp estimates.
	rx *regexpOriginals

	dialect Dialect
	// kinds records, under Rhino, whether numbers assigned to variables and
	// output properties are Java Doubles (see kinds.go); lengthOfArray says
	// whether the last x.length measured was an array's. Both are used on
	// the evaluation goroutine only.
	kinds         map[string]kindRecord
	lengthOfArray bool

	// mu guards the Go-side state that JavaScript reads through dynamic
	// objects: the scopes and the maestro object.
	mu      sync.Mutex
	scopes  []map[string]goja.Value
	maestro *maestroObject

	output        *goja.Object
	toString      goja.Callable // the intrinsic String, whatever scripts do to theirs
	jsonStringify goja.Callable // the intrinsic JSON.stringify
	errorCtor     goja.Constructor

	// evalCtx is the running evaluation's context; host functions (http.*)
	// bind their I/O to it.
	evalCtx context.Context
	// pending is set when an interrupted evaluation did not stop in time
	// (native code); the engine refuses work until it has finished.
	pending chan outcome
	// running names the built-in native code is running, if any (see
	// natives.go); stuck is what a runaway evaluation was running.
	running atomic.Pointer[string]
	stuck   string
}

// New creates an engine with a fresh flow scope, an empty output object and
// maestro.copiedText set to "".
func New(opts Options) *Engine {
	capRegexpMatches()
	e := &Engine{
		vm:      goja.New(),
		timeout: opts.Timeout,
		budget:  opts.MemoryBudget,
		dialect: opts.Dialect,
		kinds:   map[string]kindRecord{},
		client:  opts.HTTPClient,
		log:     opts.Log,
		scopes:  []map[string]goja.Value{{}},
	}
	if e.timeout <= 0 {
		e.timeout = DefaultTimeout
	}
	if e.budget <= 0 {
		e.budget = DefaultMemoryBudget
	}
	if e.dialect != GraalJS {
		e.dialect = Rhino
	}
	if e.client == nil {
		e.client = defaultHTTPClient()
	}
	if e.log == nil {
		e.log = func(string) {}
	}
	platform := strings.ToLower(opts.Platform)
	if platform == "" {
		platform = "unknown"
	}
	vm := e.vm
	vm.SetMaxCallStackSize(MaxCallDepth)
	// eval() and Function() inside scripts must not read source maps from
	// disk either.
	vm.SetParserOptions(parser.WithDisableSourceMaps)
	if opts.Now != nil {
		vm.SetTimeSource(goja.Now(opts.Now))
	}
	e.installGuards()
	e.trackRegexps()
	if e.dialect == Rhino {
		e.kindNatives()
	}
	e.toString, _ = goja.AssertFunction(vm.Get("String"))
	e.errorCtor, _ = goja.AssertConstructor(vm.Get("Error"))
	// The guarded JSON.stringify, so rendering an object checks its size.
	e.jsonStringify, _ = goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))

	e.output = vm.NewObject()
	e.maestro = &maestroObject{mu: &e.mu, vals: map[string]goja.Value{
		"copiedText": vm.ToValue(""),
		"platform":   vm.ToValue(platform),
	}, keys: []string{"copiedText", "platform"}}
	global := vm.GlobalObject()
	mustSet(global, "output", e.output)
	mustSet(global, "maestro", vm.NewDynamicObject(e.maestro))
	mustSet(global, "console", e.consoleObject())
	mustSet(global, "http", e.httpObject())
	// The scope object is reachable only through this read-only global, so
	// scripts cannot swap it out from under the wrappers.
	if err := global.DefineDataProperty(scopeGlobal, vm.NewDynamicObject(scopeView{e}),
		goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
	if _, err := vm.RunScript(runtimeName, initScript); err != nil {
		panic(err) // our own code: a failure is a bug
	}
	return e
}

// runtimeName is the source name of initScript; error positions skip its
// frames and point at the user's call instead.
const runtimeName = "<flow-runtime>"

// initScript defines json() and relativePoint() exactly as Maestro's Js.kt
// does, including relativePoint's Math.ceil on x*100 (0.07 gives "8%").
const initScript = `
function json(text) {
	return JSON.parse(text)
}
function relativePoint(x, y) {
	var xPercent = Math.ceil(x * 100) + '%'
	var yPercent = Math.ceil(y * 100) + '%'
	return xPercent + ',' + yPercent
}
`

func mustSet(o *goja.Object, name string, v any) {
	if err := o.Set(name, v); err != nil {
		panic(err)
	}
}

var regexpCapOnce sync.Once //nolint:gochecknoglobals // regexp2's limit is process-wide

// capRegexpMatches gives regexp2 a match timeout unless the program already
// chose one. It is process-wide (regexp2 reads it when goja compiles a
// regexp), hence the Once.
func capRegexpMatches() {
	regexpCapOnce.Do(func() {
		if regexp2.DefaultMatchTimeout == time.Duration(math.MaxInt64) {
			regexp2.DefaultMatchTimeout = regexpMatchTimeout
		}
	})
}

func defaultHTTPClient() *http.Client {
	t := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		Protocols:             new(http.Protocols),
	}
	t.Protocols.SetHTTP1(true)
	return &http.Client{Transport: t, Timeout: 5 * time.Minute}
}

// DefineVars binds each variable, in order, in the innermost scope, as
// Maestro's putEnv does; a later binding of the same name wins.
//
// Under GraalJS values are bound verbatim, and a name that is not a
// JavaScript identifier is stored, though no script can name it. Rhino's
// putEnv evaluates `var NAME = '<value>'`, so there the value is what that
// string literal makes of it (newlines vanish, escapes are processed; see
// rhinoString), and a name that is not an identifier, or a value the
// literal cannot hold (a trailing backslash, a carriage return), fails as
// Maestro fails: DefineVars returns a COMMAND_FAILED *canonical.Error
// naming the variable, without a position, having bound the variables
// before it.
func (e *Engine) DefineVars(vars []Var) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	top := e.scopes[len(e.scopes)-1]
	for _, v := range vars {
		val, err := e.defined(v.Value)
		if err == nil && e.dialect == Rhino && !isIdentifier(v.Name) {
			err = fmt.Errorf("%q is not a JavaScript identifier", v.Name)
		}
		if err != nil {
			return canonical.Errorf(canonical.CodeCommandFailed, "variable %s cannot be defined: %v", v.Name, err).
				With("variable", v.Name).With("jsEngine", string(e.dialect)).
				WithHint("Maestro's default JavaScript engine, Rhino, defines each variable as `var NAME = '<value>'`, which fails here as it does in Maestro; rename the variable or change the value, or use GraalJS (header `jsEngine: graaljs`), which binds values as they are")
		}
		top[v.Name] = val
	}
	return nil
}

// defined is the JavaScript string a defined value becomes: verbatim under
// GraalJS, Rhino's string literal reading of it under Rhino.
func (e *Engine) defined(s string) (goja.Value, error) {
	if e.dialect != Rhino {
		return e.vm.ToValue(s), nil
	}
	u, err := rhinoString(s)
	if err != nil {
		return nil, err
	}
	return e.vm.ToValue(goja.StringFromUTF16(u)), nil
}

// EnterScope starts a subflow's scope: variables declared from now on are
// dropped by the matching LeaveScope. Variables of enclosing scopes stay
// visible and assignable.
func (e *Engine) EnterScope() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.scopes = append(e.scopes, map[string]goja.Value{})
}

// LeaveScope drops the innermost scope. The flow scope itself is never
// dropped; an unmatched LeaveScope does nothing.
func (e *Engine) LeaveScope() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.scopes) > 1 {
		e.scopes = e.scopes[:len(e.scopes)-1]
	}
}

// SetCopiedText sets maestro.copiedText: verbatim under GraalJS; under
// Rhino as Maestro's `maestro.copiedText = '<text>'` reads it (newlines
// vanish, escapes are processed), failing as Maestro fails on text the
// string literal cannot hold.
func (e *Engine) SetCopiedText(s string) error {
	v, err := e.defined(s)
	if err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "the copied text cannot be stored in maestro.copiedText: %v", err).
			With("jsEngine", string(e.dialect)).
			WithHint("Maestro's default JavaScript engine, Rhino, stores it as `maestro.copiedText = '<text>'`, which fails here as it does in Maestro; use GraalJS (header `jsEngine: graaljs`), which stores the text as it is")
	}
	e.maestro.set("copiedText", v)
	return nil
}

// Output is a copy of the shared output object, as Go values (nested
// objects become maps, arrays slices, numbers int64 or float64). It is nil
// while an interrupted script is still unwinding.
func (e *Engine) Output() map[string]any {
	if e.busy() {
		return nil
	}
	m, _ := e.output.Export().(map[string]any)
	return m
}

// lookup finds name in the scopes, innermost first.
func (e *Engine) lookup(name string) (goja.Value, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := len(e.scopes) - 1; i >= 0; i-- {
		if v, ok := e.scopes[i][name]; ok {
			return v, true
		}
	}
	return nil, false
}

// assign stores into the innermost scope that declares name, or else into
// the flow scope: sloppy-mode JavaScript creates a global on assignment to
// an undeclared name, and the flow scope is flow's global scope.
func (e *Engine) assign(name string, v goja.Value) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := len(e.scopes) - 1; i >= 0; i-- {
		if _, ok := e.scopes[i][name]; ok {
			e.scopes[i][name] = v
			return
		}
	}
	e.scopes[0][name] = v
}

// declare hoists var-declared names into the innermost scope, the way a var
// declaration creates its binding before the code runs: a name the scope
// already holds keeps its value.
func (e *Engine) declare(names []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	top := e.scopes[len(e.scopes)-1]
	for _, n := range names {
		if _, ok := top[n]; !ok {
			top[n] = goja.Undefined()
		}
	}
}

func (e *Engine) remove(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := len(e.scopes) - 1; i >= 0; i-- {
		if _, ok := e.scopes[i][name]; ok {
			delete(e.scopes[i], name)
			return
		}
	}
}

func (e *Engine) names() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, s := range e.scopes {
		for k := range s {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scopeGlobal names the read-only global holding the scope object; the
// wrappers around every script refer to it.
const scopeGlobal = "__flowScope"

// scopeView is the object of the `with` statement every script runs in. It
// claims every name, so an unknown identifier reads as undefined instead of
// throwing a ReferenceError. Names no scope declares fall through to the
// real global object (built-ins, output, maestro, http, ...).
type scopeView struct{ e *Engine }

func (s scopeView) Get(key string) goja.Value {
	if v, ok := s.e.lookup(key); ok {
		return v
	}
	v := s.e.vm.GlobalObject().Get(key)
	if s.e.dialect == Rhino && (v == nil || goja.IsUndefined(v) && key != "undefined") {
		// Maestro's root scope answers null for a name nothing defines
		// (JsScope.get); GraalJS's global proxy gives undefined. A var of
		// a ${...} body also leaves an undefined global behind (the body
		// is a global program), which counts as nothing once its scope is
		// gone.
		return goja.Null()
	}
	return v
}

func (s scopeView) Set(key string, val goja.Value) bool { s.e.assign(key, val); return true }
func (s scopeView) Has(string) bool                     { return true }
func (s scopeView) Delete(key string) bool              { s.e.remove(key); return true }
func (s scopeView) Keys() []string                      { return s.e.names() }

// maestroObject is the `maestro` global. It lives in Go so SetCopiedText
// never has to run JavaScript.
type maestroObject struct {
	mu   *sync.Mutex
	vals map[string]goja.Value
	keys []string
}

func (m *maestroObject) Get(key string) goja.Value {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.vals[key]
}

func (m *maestroObject) set(key string, val goja.Value) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.vals[key]; !ok {
		m.keys = append(m.keys, key)
	}
	m.vals[key] = val
}

func (m *maestroObject) Set(key string, val goja.Value) bool { m.set(key, val); return true }

func (m *maestroObject) Has(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.vals[key]
	return ok
}

func (m *maestroObject) Delete(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.vals[key]; ok {
		delete(m.vals, key)
		m.keys = slices.DeleteFunc(m.keys, func(k string) bool { return k == key })
	}
	return true
}

func (m *maestroObject) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.keys)
}

// consoleObject is `console`: log (and info/warn/error/debug, which GraalJS
// also has) send the String() of their arguments, joined by a space, to
// Options.Log as one message.
func (e *Engine) consoleObject() *goja.Object {
	c := e.vm.NewObject()
	logf := func(call goja.FunctionCall) goja.Value {
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = e.stringOf(a)
		}
		e.log(strings.Join(parts, " "))
		return goja.Undefined()
	}
	for _, name := range []string{"log", "info", "warn", "error", "debug"} {
		mustSet(c, name, logf)
	}
	return c
}

// stringOf is JavaScript's String(v). It may run script code (a toString
// method), so it is called only on the evaluation goroutine; an exception
// propagates as a panic, which goja turns back into a JavaScript throw.
func (e *Engine) stringOf(v goja.Value) string {
	s, err := e.toString(goja.Undefined(), v)
	if err != nil {
		panic(err)
	}
	return s.String()
}

// throwError throws a JavaScript Error with msg from a host function.
func (e *Engine) throwError(msg string) {
	obj, err := e.errorCtor(nil, e.vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	panic(obj)
}

// outcome is what an evaluation goroutine hands back.
type outcome struct {
	s   string
	err error
}

// errTimedOut is the cause of the per-evaluation deadline, which tells it
// apart from the caller's own deadline or cancellation.
var errTimedOut = errors.New("evaluation timed out") //nolint:gochecknoglobals // sentinel

// stopped reports an evaluation that was interrupted: by the time limit
// (cause is errTimedOut) or by the caller's context.
type stopped struct {
	cause   error
	err     error  // what the evaluation returned, normally *goja.InterruptedError
	runaway bool   // it had not returned interruptGrace after the interrupt
	native  string // the built-in a runaway evaluation is stuck in ("" when unknown)
}

func (s *stopped) Error() string { return "interrupted: " + s.cause.Error() }

// busyError says an earlier runaway evaluation still holds the VM.
type busyError struct{}

func (busyError) Error() string { return "engine busy" }

// busy reports whether a runaway evaluation still holds the VM, and makes
// the VM usable again if it has finished.
func (e *Engine) busy() bool {
	if e.pending == nil {
		return false
	}
	select {
	case <-e.pending:
		e.pending = nil
		e.vm.ClearInterrupt()
		return false
	default:
		return true
	}
}

// run executes fn on its own goroutine under the evaluation deadline and
// the memory budget. fn runs JavaScript and converts its result to a string
// there, since even that conversion can run script code.
//
// Evaluations of all engines in the process take turns (see turn), so the
// budget watchdog started here measures this evaluation alone. On timeout
// or cancellation the VM is interrupted; run waits for fn to unwind, so the
// VM is free again when run returns, unless native code ignores the
// interrupt for longer than interruptGrace, in which case the engine
// reports busy until it finishes. An evaluation that outgrew its budget
// returns a *memoryStop, whatever else happened.
func (e *Engine) run(ctx context.Context, fn func() (string, error)) (string, error) {
	if e.busy() {
		return "", busyError{}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	release, err := takeTurn(ctx)
	if err != nil {
		return "", &stopped{cause: err}
	}
	defer release()
	ectx, cancel := context.WithTimeoutCause(ctx, e.timeout, errTimedOut)
	defer cancel()
	e.evalCtx = ectx
	e.hit.Store(nil)
	stopWatch := e.watch()
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o = outcome{err: panicError(r)}
			}
			done <- o
		}()
		o.s, o.err = fn()
	}()
	select {
	case o := <-done:
		stopWatch()
		// An interrupt the watchdog sent as fn returned must not stop the
		// next evaluation.
		e.vm.ClearInterrupt()
		if h := e.hit.Load(); h != nil {
			return "", &memoryStop{hit: h, err: o.err}
		}
		return o.s, o.err
	case <-ectx.Done():
	}
	stopWatch()
	cause := context.Cause(ectx)
	e.vm.Interrupt(cause)
	timer := time.NewTimer(interruptGrace)
	defer timer.Stop()
	select {
	case o := <-done:
		e.vm.ClearInterrupt()
		if h := e.hit.Load(); h != nil {
			return "", &memoryStop{hit: h, err: o.err}
		}
		if o.err == nil {
			return o.s, nil // it finished just as the deadline hit
		}
		return "", &stopped{cause: cause, err: o.err}
	case <-timer.C:
		e.pending = done
		e.stuck = e.runningNative()
		return "", &stopped{cause: cause, runaway: true, native: e.stuck}
	}
}

// panicError turns a panic that escaped goja (a bug in a host function,
// normally) into an error instead of crashing the run.
func panicError(r any) error {
	if err, ok := r.(error); ok {
		return err
	}
	return fmt.Errorf("internal error in the JavaScript engine: %v", r)
}
