package js

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// goja cannot interrupt native code, and some built-ins allocate, or loop
// over a length the script chose, in one native call: 'x'.repeat(2**30)
// asks for a GiB at once, new Array(2**32-1).fill(0) appends four billion
// values, Math.max.apply(null, {length: 2**32}) makes a 64 GiB slice. The
// watchdog cannot stop those, and the last two would crash the process. The
// guards below wrap such built-ins with a check of what the call will need
// against the budget, made before the original runs (Engine.need). The
// estimates are deliberately simple; they only have to tell a sane call
// from one that cannot fit.
//
// Arrays: a call that works over an array's length is refused when the
// length alone, at one value per element, exceeds the budget; that also
// bounds the time such a call takes. Only push, pop and at, whose work does
// not grow with the length, are left alone. Methods that call back into
// JavaScript for each element are checked too: they skip a sparse array's
// holes without calling back, so the watchdog could not stop them.

// valueBytes is what goja spends per array element (an interface value).
const valueBytes = 16

// Rough heap cost of JSON.parse per object and per array (measured on
// goja: about 225 bytes per {} and 610 per []) and per other value.
const (
	jsonObjectBytes = 256
	jsonArrayBytes  = 640
	jsonValueBytes  = 32
)

// installGuards wraps the built-ins that can allocate or loop without bound
// in one native call. It runs once, before any user code.
func (e *Engine) installGuards() {
	vm := e.vm
	proto := func(ctor string) *goja.Object {
		return vm.Get(ctor).ToObject(vm).Get("prototype").ToObject(vm)
	}
	str := proto("String")
	e.guard(str, "repeat", func(c goja.FunctionCall) {
		n := c.Argument(0).ToFloat()
		if n >= 0 && !math.IsInf(n, 0) {
			s := e.str(c.This)
			e.need("String.prototype.repeat", float64(s.Length())*math.Trunc(n)*unitBytes(s))
		}
	})
	for _, name := range []string{"padStart", "padEnd"} {
		e.guard(str, name, func(c goja.FunctionCall) {
			if n := c.Argument(0).ToFloat(); n > 0 {
				e.need("String.prototype."+name, n*2)
			}
		})
	}
	e.guard(str, "concat", func(c goja.FunctionCall) {
		total := strBytes(e.str(c.This))
		for _, a := range c.Arguments {
			total += strBytes(e.str(a))
		}
		e.need("String.prototype.concat", total)
	})
	e.guard(str, "split", func(c goja.FunctionCall) {
		sep, ok := c.Argument(0).(goja.String)
		if !ok {
			return // a regexp separator: unknown count; it splits what exists
		}
		s := e.str(c.This)
		parts := float64(s.Length())
		if sep.Length() > 0 {
			parts = float64(strings.Count(s.String(), sep.String()) + 1)
		}
		e.need("String.prototype.split", parts*2*valueBytes)
	})
	// With a string pattern goja lists every match, then writes the
	// result; with anything else (a RegExp) these reach the pattern's
	// Symbol method, which checks the call (regexps.go) under these names.
	e.guard(str, "replace", func(c goja.FunctionCall) {
		if s, pat, rep, ok := e.stringReplaceArgs(c); ok {
			e.needStringReplace("String.prototype.replace", s, pat, rep, false)
		}
	})
	e.guard(str, "replaceAll", func(c goja.FunctionCall) {
		if s, pat, rep, ok := e.stringReplaceArgs(c); ok {
			e.needStringReplace("String.prototype.replaceAll", s, pat, rep, true)
		}
	})
	for _, name := range []string{"match", "matchAll"} {
		e.guard(str, name, func(goja.FunctionCall) {})
	}

	arr := proto("Array")
	for _, name := range arr.GetOwnPropertyNames() {
		switch name {
		case "constructor", "length", "push", "pop", "at":
			continue // not a function, or constant work per call
		}
		if _, ok := goja.AssertFunction(arr.Get(name)); !ok {
			continue
		}
		label := "Array.prototype." + name
		switch name {
		case "join":
			e.guard(arr, name, func(c goja.FunctionCall) { e.needJoin(label, c) })
		case "concat":
			e.guard(arr, name, func(c goja.FunctionCall) {
				n := e.length(c.This)
				for _, a := range c.Arguments {
					n += e.length(a)
				}
				e.need(label, n*valueBytes)
			})
		default:
			e.guard(arr, name, func(c goja.FunctionCall) { e.need(label, e.length(c.This)*valueBytes) })
		}
	}
	// Spread, Array.from and for-of get an array's iterator through
	// Symbol.iterator, which is Array.prototype.values; point it at the
	// guarded one.
	if err := arr.DefineDataPropertySymbol(goja.SymIterator, arr.Get("values"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
	array := vm.Get("Array").ToObject(vm)
	e.guard(array, "from", func(c goja.FunctionCall) { e.need("Array.from", e.length(c.Argument(0))*valueBytes) })

	// Argument lists are copied into a Go slice of the array-like's length.
	e.guard(proto("Function"), "apply", func(c goja.FunctionCall) {
		e.need("Function.prototype.apply", e.length(c.Argument(1))*valueBytes)
	})
	reflectObj := vm.Get("Reflect").ToObject(vm)
	e.guard(reflectObj, "apply", func(c goja.FunctionCall) {
		e.need("Reflect.apply", e.length(c.Argument(2))*valueBytes)
	})
	e.guard(reflectObj, "construct", func(c goja.FunctionCall) {
		e.need("Reflect.construct", e.length(c.Argument(1))*valueBytes)
	})

	jsonObj := vm.Get("JSON").ToObject(vm)
	e.guard(jsonObj, "stringify", func(c goja.FunctionCall) {
		e.needAtLeast("JSON.stringify", e.jsonOutput(c.Argument(0), c.Argument(2)))
	})
	e.guard(jsonObj, "parse", func(c goja.FunctionCall) {
		e.need("JSON.parse", jsonParsed(e.str(c.Argument(0)).String()))
	})

	e.guardBuffers()
}

// guard replaces obj[name] with a native that runs check and then the
// original, keeping the original's name and length.
func (e *Engine) guard(obj *goja.Object, name string, check func(goja.FunctionCall)) {
	origVal := obj.Get(name)
	orig, ok := goja.AssertFunction(origVal)
	if !ok {
		return
	}
	label := name
	if tag := obj.GetSymbol(goja.SymToStringTag); tag != nil && !goja.IsUndefined(tag) {
		label = tag.String() + "." + name // JSON.stringify
	} else if ctor := obj.Get("constructor"); ctor != nil {
		if n := ctor.ToObject(e.vm).Get("name"); n != nil && n.String() != "" && n.String() != "Object" {
			label = n.String() + ".prototype." + name
		}
	}
	if obj == e.vm.Get("RegExp").ToObject(e.vm).Get("prototype").ToObject(e.vm) || label == "RegExp String Iterator.next" {
		label = regexpNative
	}
	fn := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		e.pulse()
		check(c)
		defer e.enter(label)()
		v, err := orig(c.This, c.Arguments...)
		if err != nil {
			panic(err) // the original's exception (or interrupt), unchanged
		}
		return v
	}).ToObject(e.vm)
	o := origVal.ToObject(e.vm)
	for _, p := range []string{"name", "length"} {
		if err := fn.DefineDataProperty(p, o.Get(p), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
	}
	if err := obj.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
}

// guardBuffers replaces the typed array and ArrayBuffer constructors with
// natives that check the bytes a construction allocates and then construct
// through the original. The replacement takes the original's place in
// every way a script looks: prototype (and prototype.constructor), name,
// length, static properties, and the original's own prototype, so
// Uint8Array.from and instanceof work. (A Proxy would be simpler, but
// goja's proxies do not support instanceof.)
func (e *Engine) guardBuffers() {
	vm := e.vm
	global := vm.GlobalObject()
	for _, name := range []string{"ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray",
		"Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
		"BigInt64Array", "BigUint64Array"} {
		v := global.Get(name)
		ctor, ok := goja.AssertConstructor(v)
		if !ok {
			continue
		}
		orig := v.ToObject(vm)
		per := 1.0
		if b := orig.Get("BYTES_PER_ELEMENT"); b != nil && !goja.IsUndefined(b) {
			per = b.ToFloat()
		}
		label := "new " + name
		w := vm.ToValue(func(c goja.ConstructorCall) *goja.Object {
			e.pulse()
			if len(c.Arguments) > 0 {
				e.need(label, e.elements(c.Arguments[0])*per)
			}
			obj, err := ctor(c.NewTarget, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return obj
		}).ToObject(vm)
		for _, k := range orig.GetOwnPropertyNames() {
			writable, configurable := goja.FLAG_FALSE, goja.FLAG_TRUE
			if k == "prototype" {
				configurable = goja.FLAG_FALSE
			}
			if err := w.DefineDataProperty(k, orig.Get(k), writable, configurable, goja.FLAG_FALSE); err != nil {
				panic(err)
			}
		}
		if p := orig.Prototype(); p != nil {
			if err := w.SetPrototype(p); err != nil {
				panic(err)
			}
		}
		if proto, ok := orig.Get("prototype").(*goja.Object); ok {
			if err := proto.DefineDataProperty("constructor", w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
				panic(err)
			}
		}
		if err := global.DefineDataProperty(name, w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
	}
}

// elements is how many elements a typed array or buffer constructor
// argument asks for: a number, or an array-like's length; an existing
// buffer is viewed, not copied.
func (e *Engine) elements(v goja.Value) float64 {
	o, ok := v.(*goja.Object)
	if !ok {
		return math.Max(v.ToFloat(), 0)
	}
	if c := o.ClassName(); c == "ArrayBuffer" || c == "SharedArrayBuffer" {
		return 0
	}
	return e.length(o)
}

// length is an array-like's length property, 0 for anything else.
func (e *Engine) length(v goja.Value) float64 {
	o, ok := v.(*goja.Object)
	if !ok {
		return 0
	}
	l := o.Get("length")
	if l == nil {
		return 0
	}
	n := l.ToFloat()
	if !(n > 0) {
		return 0
	}
	return n
}

// str is String(v) as goja holds it; for an object it runs its toString,
// which the original then runs again.
func (e *Engine) str(v goja.Value) goja.String {
	if s, ok := v.(goja.String); ok {
		return s
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return goja.StringFromUTF16(nil)
	}
	s, _ := v.ToString().(goja.String)
	if s == nil {
		return goja.StringFromUTF16(nil)
	}
	return s
}

// unitBytes is what one UTF-16 unit of s costs: goja keeps ASCII strings
// as bytes and all others as UTF-16.
func unitBytes(s goja.String) float64 {
	if reflect.TypeOf(s).Name() == "asciiString" {
		return 1
	}
	return 2
}

func strBytes(s goja.String) float64 { return float64(s.Length()) * unitBytes(s) }

// needJoin checks Array.prototype.join: the separators and the elements'
// text. Elements that are objects are counted as nothing; their own join
// (a nested array) is checked when it runs.
func (e *Engine) needJoin(label string, c goja.FunctionCall) {
	n := e.length(c.This)
	e.need(label, n*valueBytes)
	sep := 1.0
	if s := c.Argument(0); !goja.IsUndefined(s) {
		sep = float64(e.str(s).Length())
	}
	total := math.Max(n-1, 0) * sep
	if o, ok := c.This.(*goja.Object); ok {
		for i := 0; i < int(n) && total*2 <= float64(e.budget); i++ {
			total += textUnits(o.Get(strconv.Itoa(i)))
		}
	}
	e.needAtLeast(label, total*2)
}

// textUnits estimates the UTF-16 length of a primitive's text.
func textUnits(v goja.Value) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case goja.String:
		return float64(v.Length())
	case *goja.Object:
		return 0
	}
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return 0
	}
	return 24 // a number (at most 24 characters), a boolean, a bigint's usual size
}

// jsonOutput estimates JSON.stringify's output in bytes by walking the
// value as stringify will: own enumerable keys of objects, every index of
// arrays. It stops as soon as the budget is exceeded, so it costs no more
// than the output it allows. Values with toJSON and replacers are not
// followed: their output is known only when they run.
func (e *Engine) jsonOutput(v, space goja.Value) float64 {
	indent := 0.0
	if space != nil && !goja.IsUndefined(space) {
		if s, ok := space.(goja.String); ok {
			indent = math.Min(float64(s.Length()), 10)
		} else if f := space.ToFloat(); f > 0 {
			indent = math.Min(math.Trunc(f), 10)
		}
	}
	w := jsonWalk{e: e, indent: indent, limit: float64(e.budget), seen: map[*goja.Object]bool{}}
	w.value(v, 0)
	return w.units * 2
}

type jsonWalk struct {
	e      *Engine
	indent float64
	limit  float64
	units  float64
	seen   map[*goja.Object]bool
}

func (w *jsonWalk) value(v goja.Value, depth float64) {
	if w.units*2 > w.limit {
		return
	}
	w.units += w.indent*depth + 1
	o, ok := v.(*goja.Object)
	if !ok {
		w.units += textUnits(v) + 2
		return
	}
	if w.seen[o] {
		return // a cycle: stringify throws
	}
	if _, fn := goja.AssertFunction(o.Get("toJSON")); fn {
		return
	}
	if _, fn := goja.AssertFunction(o); fn {
		return
	}
	w.seen[o] = true
	defer delete(w.seen, o)
	if o.ClassName() == "Array" {
		n := w.e.length(o)
		w.units += n // separators
		if n*valueBytes > w.limit {
			w.units += n * 4 // "null" per hole, enough to exceed
			return
		}
		for i := 0; i < int(n) && w.units*2 <= w.limit; i++ {
			w.value(o.Get(strconv.Itoa(i)), depth+1)
		}
		return
	}
	for _, k := range o.Keys() {
		if w.units*2 > w.limit {
			return
		}
		w.units += float64(len(k)) + 4
		w.value(o.Get(k), depth+1)
	}
}

// jsonParsed estimates the heap JSON.parse builds from text.
func jsonParsed(text string) float64 {
	var objects, arrays, values float64
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '{':
			objects++
		case '[':
			arrays++
		case ',', ':':
			values++
		}
	}
	return float64(len(text))*2 + objects*jsonObjectBytes + arrays*jsonArrayBytes + values*jsonValueBytes
}
