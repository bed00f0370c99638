package js

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// The regular expression natives build their whole result in one native
// call: goja first lists every match (a slice of indices per match), then
// builds the string or the array. 'a'.repeat(3e7).replace(/a/g, 'b')
// lists thirty million matches before it writes a byte, about 3 GB, and
// nothing in between returns to the VM, so the watchdog cannot stop it.
// String.prototype.replace, replaceAll, match, matchAll and split reach a
// RegExp through its Symbol.replace, Symbol.match, Symbol.matchAll and
// Symbol.split methods, so the checks sit there: before the original runs,
// each estimates what the call will allocate (the match list, the result,
// the copies of the text goja makes for its engines) and refuses a call
// that cannot fit, like the other guarded built-ins.
//
// The number of matches is at most one more than the length of the text.
// When even that many fit, nothing is counted (every short text). When
// they do not, the matches are counted, with the engine goja uses for the
// pattern, and the count stops as soon as the call can no longer fit, so
// it costs no more than the call it allows. matchAll builds nothing: its
// iterator calls exec once per step, and a spread or Array.from that keeps
// the steps is stopped by the step check (Engine.pulse) in that exec.

// What the natives cost, measured on goja with a million one-letter
// matches (TestRegexpNativesHitTheBudget keeps them honest): about 100
// bytes per listed match, a little more per capture group, and 32 bytes
// per string they put in an array.
const (
	matchListBytes  = 96 // a match's index slice and its slot in the list, grown by doubling
	groupListBytes  = 16 // each index pair in that slice (the whole match is one)
	matchValueBytes = 32 // a substring held in an array
	// genericMatchBytes and genericGroupBytes are what a match costs on
	// goja's generic path (see fastPath), which keeps exec's result, an
	// array with index and input, for every match until it is done.
	genericMatchBytes = 1024
	genericGroupBytes = 64
	// runeBytes is what goja's copy of the text for regexp2 (patterns Go's
	// engine cannot run, and every all-matches search in text that is not
	// ASCII) costs per UTF-16 unit; posMapBytes what the position map of
	// a /u search in such text adds.
	runeBytes   = 4
	posMapBytes = 16
	// utf8Bytes is the most a UTF-16 unit takes as UTF-8: the counting
	// copy of text that is not ASCII.
	utf8Bytes = 3
	// countBatch is how many matches one step of the count lists.
	countBatch = 1024
)

// regexpOriginals are RegExp's own methods and accessors, taken before any
// script runs: a script may redefine RegExp.prototype.global or exec, but
// goja's natives read a regexp's real flags and pattern, and so must the
// estimate.
type regexpOriginals struct {
	proto    *goja.Object
	exec     goja.Value
	describe goja.Callable // Object.getOwnPropertyDescriptor
	source   goja.Callable
	flags    map[string]goja.Callable // global, sticky, unicode, ignoreCase, multiline, dotAll
	getters  map[string]goja.Value    // the same, as the values the prototype holds
}

func (e *Engine) takeRegexpOriginals(proto *goja.Object) {
	vm := e.vm
	o := &regexpOriginals{proto: proto, exec: proto.Get("exec"), flags: map[string]goja.Callable{}, getters: map[string]goja.Value{}}
	describe, _ := goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("getOwnPropertyDescriptor"))
	o.describe = describe
	getter := func(name string) (goja.Value, goja.Callable) {
		d, err := describe(goja.Undefined(), proto, vm.ToValue(name))
		if err != nil || goja.IsUndefined(d) {
			return nil, nil
		}
		v := d.ToObject(vm).Get("get")
		fn, _ := goja.AssertFunction(v)
		return v, fn
	}
	_, o.source = getter("source")
	for _, f := range []string{"global", "sticky", "unicode", "ignoreCase", "multiline", "dotAll"} {
		o.getters[f], o.flags[f] = getter(f)
	}
	e.rx = o
}

// regexpInfo is what the estimate needs to know about one regexp.
type regexpInfo struct {
	source                                                 string
	global, sticky, unicode, ignoreCase, multiline, dotAll bool
	groups                                                 int
	// goRx is the pattern in Go's engine when goja runs it there (see
	// compileGo); nil means goja runs it with regexp2.
	goRx     *regexp.Regexp
	compiled bool
}

// regexpInfo reads rx through the original accessors; false when rx is not
// a RegExp (a generic call on another object, which goja runs through
// that object's own exec, JavaScript the VM can interrupt).
func (e *Engine) regexpInfo(rx *goja.Object) (*regexpInfo, bool) {
	o := e.rx
	if o == nil || o.source == nil || rx.ClassName() != "RegExp" {
		return nil, false
	}
	src, err := o.source(rx)
	if err != nil {
		return nil, false
	}
	info := &regexpInfo{source: src.String()}
	for name, get := range o.flags {
		if get == nil {
			continue
		}
		v, err := get(rx)
		if err != nil {
			return nil, false
		}
		on := v.ToBoolean()
		switch name {
		case "global":
			info.global = on
		case "sticky":
			info.sticky = on
		case "unicode":
			info.unicode = on
		case "ignoreCase":
			info.ignoreCase = on
		case "multiline":
			info.multiline = on
		case "dotAll":
			info.dotAll = on
		}
	}
	info.groups = captureGroups(info.source)
	return info, true
}

// compileGo compiles the pattern as goja does when Go's engine can run it:
// translated by goja's parser, with the flags as a group prefix. A pattern
// with astral characters is left to regexp2 here (goja first rewrites
// them as surrogate pairs; the estimate then counts the costlier engine).
func (info *regexpInfo) compileGo() *regexp.Regexp {
	if info.compiled {
		return info.goRx
	}
	info.compiled = true
	for _, r := range info.source {
		if r > 0xFFFF {
			return nil
		}
	}
	re2, err := parser.TransformRegExp(info.source, info.dotAll, info.unicode)
	if err != nil {
		return nil
	}
	flags := ""
	if info.multiline {
		flags += "m"
	}
	if info.dotAll {
		flags += "s"
	}
	if info.ignoreCase {
		flags += "i"
	}
	if flags != "" {
		re2 = "(?" + flags + ":" + re2 + ")"
	}
	info.goRx, _ = regexp.Compile(re2)
	return info.goRx
}

// captureGroups counts the capture groups of a pattern: every ( outside a
// character class that is not escaped and does not start (?: or a
// lookaround; named groups (?<name>...) count.
func captureGroups(src string) int {
	n, inClass := 0, false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			rest := src[i+1:]
			if !strings.HasPrefix(rest, "?") ||
				(strings.HasPrefix(rest, "?<") && !strings.HasPrefix(rest, "?<=") && !strings.HasPrefix(rest, "?<!")) {
				n++
			}
		}
	}
	return n
}

// listBytes is what listing one match of a pattern with groups capture
// groups costs.
func listBytes(groups int) float64 {
	return matchListBytes + groupListBytes*float64(groups+1)
}

// textBytes is what goja's matching copies of s cost (see the constants);
// all says every match is listed.
func (info *regexpInfo) textBytes(s goja.String, all bool) float64 {
	n := float64(s.Length())
	ascii := unitBytes(s) == 1
	switch {
	case info.compileGo() == nil:
		return n * runeBytes
	case ascii || !all:
		return 0
	case info.unicode:
		return n * (runeBytes + posMapBytes)
	}
	return n * runeBytes
}

// countBytes is what counting the matches of s costs on top: regexp2
// counts on a copy of the text as runes, Go's engine on a UTF-8 copy of
// text that is not ASCII.
func (info *regexpInfo) countBytes(s goja.String) float64 {
	n := float64(s.Length())
	switch {
	case info.compileGo() == nil:
		return n * runeBytes
	case unitBytes(s) == 1:
		return 0
	}
	return n * utf8Bytes
}

// utf8Text is s in UTF-8, made in one allocation (goja's String() of text
// that is not ASCII goes through a rune slice four times its length).
func utf8Text(s goja.String) string {
	if unitBytes(s) == 1 {
		return s.String()
	}
	size := 0
	for r := s.Reader(); ; {
		c, _, err := r.ReadRune()
		if err != nil {
			break
		}
		size += utf8.RuneLen(c)
	}
	var b strings.Builder
	b.Grow(size)
	for r := s.Reader(); ; {
		c, _, err := r.ReadRune()
		if err != nil {
			break
		}
		b.WriteRune(c)
	}
	return b.String()
}

// codePoints is s as runes, for regexp2.
func codePoints(s goja.String) []rune {
	out := make([]rune, 0, s.Length())
	for r := s.Reader(); ; {
		c, _, err := r.ReadRune()
		if err != nil {
			return out
		}
		out = append(out, c)
	}
}

// worstTextBytes is textBytes before anything is compiled: the most goja
// may copy.
func worstTextBytes(s goja.String) float64 {
	return float64(s.Length()) * (runeBytes + posMapBytes + runeBytes)
}

// needMatches refuses a call on s that lists the matches of rx (all of
// them, or only the first) and then costs fixed bytes plus per bytes for
// each match, when that cannot fit the budget. generic is what a match
// costs more when goja cannot take its fast path for rx.
func (e *Engine) needMatches(label string, rx *goja.Object, info *regexpInfo, s goja.String, all bool, fixed, per, generic float64) {
	budget := float64(e.budget)
	most := 1.0
	if all {
		most = float64(s.Length()) + 1
	}
	if fixed+worstTextBytes(s)+(per+generic)*most <= budget {
		return // the common case: nothing compiled, nothing counted
	}
	fixed += info.textBytes(s, all)
	if !e.fastPath(rx) {
		per += generic
		// exec with a lastIndex runs regexp2, on a copy of the text.
		fixed += float64(s.Length()) * runeBytes
	}
	if fixed+per*most <= budget {
		return
	}
	if !all {
		e.need(label, fixed+per)
		return
	}
	fixed += info.countBytes(s)
	e.need(label, fixed)
	enough := math.Floor((budget-fixed)/per) + 1 // the first count that cannot fit
	count, whole := countMatches(info, s, enough)
	if !whole {
		e.needAtLeast(label, fixed+per*count)
	}
	e.need(label, fixed+per*count)
}

// fastPath reports whether goja runs rx's Symbol methods on its fast path,
// which lists match indices: rx has RegExp.prototype as its prototype and
// no own property but lastIndex, and the script has not redefined exec or
// the flag accessors there. Otherwise goja calls exec for every match and
// keeps each result until the call is done. (Assigning RegExp.prototype
// its own exec again also leaves the fast path, unseen here.)
func (e *Engine) fastPath(rx *goja.Object) bool {
	o := e.rx
	if p := rx.Prototype(); p == nil || !p.SameAs(o.proto) || len(rx.Symbols()) > 0 {
		return false
	}
	if names := rx.GetOwnPropertyNames(); len(names) != 1 || names[0] != "lastIndex" {
		return false
	}
	if v := o.proto.Get("exec"); v == nil || !v.SameAs(o.exec) {
		return false
	}
	for name, get := range o.getters {
		if name == "dotAll" || get == nil {
			continue // goja does not watch dotAll
		}
		d, err := o.describe(goja.Undefined(), o.proto, e.vm.ToValue(name))
		if err != nil || goja.IsUndefined(d) {
			return false
		}
		if g := d.ToObject(e.vm).Get("get"); g == nil || !g.SameAs(get) {
			return false
		}
	}
	return true
}

// countMatches counts the matches of info's pattern in s, all of them or
// (whole false) the first enough. It uses the engine goja will use: Go's,
// over the text in batches; regexp2, through the original test on a
// private copy of the regexp, so the script's regexp and its lastIndex are
// left alone. A batch starts where the last one ended, where ^ and \b
// may see one more or one fewer match than goja will: an estimate.
func countMatches(info *regexpInfo, s goja.String, enough float64) (count float64, whole bool) {
	if re := info.compileGo(); re != nil {
		text := utf8Text(s)
		for off := 0; off <= len(text); {
			found := re.FindAllStringIndex(text[off:], countBatch)
			count += float64(len(found))
			if len(found) < countBatch {
				return count, true
			}
			if count >= enough {
				return count, false
			}
			last := found[len(found)-1]
			next := off + last[1]
			if last[0] == last[1] {
				next++
			}
			off = next
		}
		return count, true
	}
	var opts regexp2.RegexOptions = regexp2.ECMAScript
	for _, f := range []struct {
		on  bool
		opt regexp2.RegexOptions
	}{{info.ignoreCase, regexp2.IgnoreCase}, {info.multiline, regexp2.Multiline}, {info.dotAll, regexp2.Singleline}, {info.unicode, regexp2.Unicode}} {
		if f.on {
			opts |= f.opt
		}
	}
	re, err := regexp2.Compile(info.source, opts)
	if err != nil {
		return 0, true // goja compiled it differently: the original runs
	}
	m, err := re.FindRunesMatch(codePoints(s))
	for m != nil && err == nil {
		count++
		if count >= enough {
			return count, false
		}
		m, err = re.FindNextMatch(m)
	}
	// A match that times out ends the count; the original meets the same
	// timeout.
	return count, true
}

// template is what a replacement string makes of each match, in UTF-16
// units, as goja's writeSubstitution reads it.
type template struct {
	lits   float64 // units written as they are
	refs   float64 // $& and $1..$99: each writes a part of a match
	around float64 // $` and $': each writes the text before or after a match
	ascii  bool
}

func parseTemplate(rep goja.String) template {
	str := rep.String()
	t := template{ascii: unitBytes(rep) == 1}
	for i := 0; i < len(str); i++ {
		if str[i] != '$' || i == len(str)-1 {
			if r, size := utf8.DecodeRuneInString(str[i:]); r > 0xFFFF {
				t.lits += 2
				i += size - 1
			} else {
				t.lits++
				i += size - 1
			}
			continue
		}
		i++
		switch c := str[i]; {
		case c == '$':
			t.lits++
		case c == '`' || c == '\'':
			t.around++
		case c == '&':
			t.refs++
		case c >= '0' && c <= '9':
			// A group reference, or "$n" as text when the group does
			// not exist: count both.
			t.refs++
			t.lits += 2
			if i+1 < len(str) && str[i+1] >= '0' && str[i+1] <= '9' {
				i++
			}
		default:
			t.lits += 2
		}
	}
	return t
}

// replaceCost is the fixed and per-match bytes of replacing matches in s
// (n UTF-16 units) with rep (nil: a function, whose results the watchdog
// follows as it runs). The result's units are at most n, plus per match
// the template's literal units and the text around the match for each $`
// and $', plus the whole text for each $& or $n (the matches do not
// overlap); the string builder that writes them grows by doubling.
func replaceCost(s goja.String, rep *template) (fixed, per float64) {
	n := float64(s.Length())
	unit := unitBytes(s)
	if rep == nil {
		return n * unit, 0
	}
	if !rep.ascii {
		unit = 2
	}
	return 2 * unit * (n + rep.refs*n), 2 * unit * (rep.lits + rep.around*n)
}

// regexpChecks are the checks of RegExp.prototype's Symbol methods, keyed
// by the symbol.
func (e *Engine) regexpChecks() map[*goja.Symbol]func(goja.FunctionCall) {
	// label names the call as the script wrote it: the String method that
	// reached the regexp, or the Symbol method called directly.
	label := func(sym string) string {
		if n := e.runningNative(); strings.HasPrefix(n, "String.prototype.") {
			return n
		}
		return "RegExp.prototype[Symbol." + sym + "]"
	}
	regexp := func(c goja.FunctionCall) (*goja.Object, *regexpInfo, goja.String, bool) {
		rx, ok := c.This.(*goja.Object)
		if !ok {
			return nil, nil, nil, false
		}
		info, ok := e.regexpInfo(rx)
		if !ok {
			return nil, nil, nil, false
		}
		return rx, info, e.str(c.Argument(0)), true
	}
	generic := func(info *regexpInfo) float64 {
		return genericMatchBytes + genericGroupBytes*float64(info.groups)
	}
	return map[*goja.Symbol]func(goja.FunctionCall){
		goja.SymReplace: func(c goja.FunctionCall) {
			rx, info, s, ok := regexp(c)
			if !ok {
				return
			}
			var rep *template
			if _, fn := goja.AssertFunction(c.Argument(1)); !fn {
				t := parseTemplate(e.str(c.Argument(1)))
				rep = &t
			}
			fixed, per := replaceCost(s, rep)
			e.needMatches(label("replace"), rx, info, s, info.global, fixed, per+listBytes(info.groups), generic(info))
		},
		goja.SymMatch: func(c goja.FunctionCall) {
			rx, info, s, ok := regexp(c)
			if !ok || !info.global {
				return // one match, as exec finds it
			}
			e.needMatches(label("match"), rx, info, s, true, 0, listBytes(0)+matchValueBytes, generic(info))
		},
		goja.SymSplit: func(c goja.FunctionCall) {
			rx, info, s, ok := regexp(c)
			if !ok {
				return
			}
			// goja lists every match whatever the limit. Its generic
			// path keeps only the parts.
			e.needMatches(label("split"), rx, info, s, true, matchValueBytes,
				listBytes(info.groups)+matchValueBytes*float64(1+info.groups), 0)
		},
	}
}

// needStringReplace checks String.prototype.replace (the first match) and
// replaceAll (all) with a string pattern: goja lists the matches of pat in
// s, then replaces each by rep (a function when rep is nil). The matches
// are counted only when the most there can be would not fit.
func (e *Engine) needStringReplace(label string, s, pat goja.String, rep *template, all bool) {
	fixed, per := replaceCost(s, rep)
	per += listBytes(0)
	n := float64(s.Length())
	most := 1.0
	if all {
		most = n/math.Max(float64(pat.Length()), 1) + 1
	}
	if fixed+per*most <= float64(e.budget) {
		return
	}
	text, sub := utf8Text(s), utf8Text(pat)
	count := 0.0
	switch {
	case !all:
		if strings.Contains(text, sub) {
			count = 1
		}
	case sub == "":
		count = n + 1
	default:
		count = float64(strings.Count(text, sub))
	}
	if count == 0 {
		return // s comes back as it is
	}
	e.need(label, fixed+per*count)
}

// stringReplaceArgs reads the pattern and replacement of a replace or
// replaceAll call whose pattern is not an object (an object, a RegExp
// above all, is handled by its own Symbol.replace).
func (e *Engine) stringReplaceArgs(c goja.FunctionCall) (s, pat goja.String, rep *template, ok bool) {
	if _, obj := c.Argument(0).(*goja.Object); obj {
		return nil, nil, nil, false
	}
	s, pat = e.str(c.This), e.str(c.Argument(0))
	if _, fn := goja.AssertFunction(c.Argument(1)); !fn {
		t := parseTemplate(e.str(c.Argument(1)))
		rep = &t
	}
	return s, pat, rep, true
}
