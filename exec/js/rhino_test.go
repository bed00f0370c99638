package js

import (
	"math"
	"testing"
)

// TestRhinoNumbers pins how numbers print under each engine. Rhino's
// column is what Kotlin's toString() gives for the Java object Rhino 1.7.14
// returns (see kinds.go for the rules and their sources in Rhino): digits
// for an Integer or Long, Double.toString for a Double. Maestro's own
// tests pin two of them: RhinoJsEngineTest "parseInt returns a double
// representation" (parseInt('1') is "1.0") and IntegrationTest "Case 063 -
// Javascript injection" (parseInt(A) + parseInt(B) types "3.0").
func TestRhinoNumbers(t *testing.T) {
	t.Parallel()
	ab := []Var{{"A", "1"}, {"B", "2"}}
	cases := []struct {
		code, rhino, graal string
	}{
		// Maestro's tests.
		{"parseInt('1')", "1.0", "1"},
		{"parseInt(A) + parseInt(B)", "3.0", "3"},
		// Literals: Integer in int range, but the shared Doubles for 0, 1
		// and -1 (Codegen.pushNumberAsObject); folded constants count as
		// literals (IRFactory.createBinary/createUnary).
		{"2", "2", "2"},
		{"1", "1.0", "1"},
		{"0", "0.0", "0"},
		{"-1", "-1.0", "-1"},
		{"-5", "-5", "-5"},
		{"1+2", "3", "3"},
		{"2-1", "1.0", "1"},
		{"(2 * 3) + 4", "10", "10"},
		{"6/3", "2", "2"},
		{"~5", "-6", "-6"},
		{"2147483647", "2147483647", "2147483647"},
		{"2147483648", "2.147483648E9", "2147483648"},
		{"1.5", "1.5", "1.5"},
		{"0.001", "0.001", "0.001"},
		{"0.0001", "1.0E-4", "0.0001"},
		{"1e7", "10000000", "10000000"},
		{"1e7 * A", "1.0E7", "10000000"},
		{"9999999", "9999999", "9999999"},
		// Not folded: a Double.
		{"7 % 4", "3.0", "3"},
		{"+5", "5.0", "5"},
		{"2 ** 3", "8.0", "8"},
		{"A * 1", "1.0", "1"},
		{"Math.floor(3.7)", "3.0", "3"},
		{"Math.max(1, 2)", "2.0", "2"},
		{"Number('7')", "7.0", "7"},
		{"Date.UTC(2020, 0, 1)", "1.5778368E12", "1577836800000"},
		{"[1, 2, 3].length", "3.0", "3"},
		{"[1].push(2)", "2.0", "2"},
		// Integers: string natives, array indexOf, JSON.
		{"'abc'.length", "3", "3"},
		{"'abc'.indexOf('c')", "2", "2"},
		{"[1, 2].indexOf(2)", "1", "1"},
		{`json('{"n": 5}').n`, "5", "5"},
		{`json('{"n": 1.0}').n`, "1", "1"},
		{`json('{"n": 12345678901}').n`, "1.2345678901E10", "12345678901"},
		{`json('{"n": 2.5}').n`, "2.5", "2.5"},
		// Text keeps JavaScript's ToString in both engines.
		{"'n=' + parseInt('3')", "n=3", "n=3"},
		{"String(parseInt('3'))", "3", "3"},
		{"(3).toFixed(1)", "3.0", "3.0"},
		{"0.1 + 0.2", "0.30000000000000004", "0.30000000000000004"},
	}
	for _, c := range cases {
		for _, d := range []Dialect{Rhino, GraalJS} {
			want := c.rhino
			if d == GraalJS {
				want = c.graal
			}
			e := newEngine(t, Options{Dialect: d})
			if err := e.DefineVars(ab); err != nil {
				t.Fatal(err)
			}
			if got := interp(t, e, "${"+c.code+"}"); got != want {
				t.Errorf("%s: ${%s} = %q, want %q", d, c.code, got, want)
			}
		}
	}
}

// Numbers keep their Rhino type through the places flows keep them:
// variables of ${...} and evalScript, output.* set anywhere, and a
// script's own variables, whatever way they were assigned.
func TestRhinoNumbersThroughVariables(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	interp(t, e, "${output.five = 5}")
	interp(t, e, "${output.six = output.five + 1}")
	interp(t, e, "${var count = 2}")
	interp(t, e, "${count++}")
	interp(t, e, "${var id = json('{\"id\": 42}').id}")
	runScript(t, e, "totals.js", `
var total = 0
for (var i = 0; i < 4; i++) total += i
output.total = total
var n = 7
output.n = n
output.len = 'abcd'.length
output.alen = [1, 2].length
output.ticks = 0
output.ticks++
output.copy = output.five
output.random = Math.floor(Math.random() * 1) + 40
flowVar = parseInt('9')
`)
	for raw, want := range map[string]string{
		"${output.five}":   "5",
		"${output.six}":    "6.0",
		"${count}":         "3.0",
		"${id}":            "42",
		"${output.total}":  "6.0",
		"${output.n}":      "7",
		"${output.len}":    "4",
		"${output.alen}":   "2.0",
		"${output.ticks}":  "1.0",
		"${output.copy}":   "5",
		"${output.random}": "40.0",
		"${flowVar}":       "9.0",
	} {
		if got := interp(t, e, raw); got != want {
			t.Errorf("%s = %q, want %q", raw, got, want)
		}
	}
	// A number changed where flow keeps no record prints by its value.
	runScript(t, e, "untracked.js", "var o = output; o.five = 6.5; o.six = 8")
	if got := interp(t, e, "${output.five} ${output.six}"); got != "6.5 8" {
		t.Errorf("untracked changes: %q", got)
	}
}

// The record follows assignments the program makes, not names: it never
// changes what a script computes.
func TestRhinoInstrumentationIsInvisible(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	runScript(t, e, "same.js", `
var f = function () { return 1 }
var g = () => 2
output.names = [f.name, g.name].join()
var x = 1
x += 2
x++
var y = (x = 10)
output.vals = [x, y, x.length === undefined].join()
output.str = 'a'
output.str += 'b'
`)
	if got := interp(t, e, "${output.names}|${output.vals}|${output.str}"); got != "f,g|10,10,true|ab" {
		t.Errorf("got %q", got)
	}
	for _, d := range []Dialect{Rhino, GraalJS} {
		ce := interpErr(t, newEngine(t, Options{Dialect: d}), "${var n = null;\n  n.length}")
		if ce.Details["jsError"] != "TypeError: Cannot read property 'length' of undefined" || ce.Details["line"] != 2 || ce.Details["col"] != 5 {
			t.Errorf("%s: x.length on null: %v at %v:%v", d, ce.Details["jsError"], ce.Details["line"], ce.Details["col"])
		}
	}
}

func TestJavaDoubleText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {100, "100.0"}, {1e7, "1.0E7"}, {1e-3, "0.001"},
		{9.999999e-4, "9.999999E-4"}, {1234567, "1234567.0"}, {12345678, "1.2345678E7"},
		{1e21, "1.0E21"}, {math.MaxFloat64, "1.7976931348623157E308"}, {5e-324, "4.9E-324"},
		{math.Copysign(0, -1), "-0.0"}, {-1.5e-7, "-1.5E-7"}, {math.NaN(), "NaN"}, {math.Inf(-1), "-Infinity"},
	} {
		if got := javaDoubleText(c.f); got != c.want {
			t.Errorf("javaDoubleText(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestDialectFor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		header string
		force  bool
		want   Dialect
	}{
		{"", false, Rhino}, {"graaljs", false, GraalJS}, {"GraalJS", false, Rhino}, {"rhino", false, Rhino},
		{"", true, GraalJS}, {"rhino", true, GraalJS},
	} {
		if got := DialectFor(c.header, c.force); got != c.want {
			t.Errorf("DialectFor(%q, %v) = %s, want %s", c.header, c.force, got, c.want)
		}
	}
}

// Modern syntax runs the same under both engines, instrumented or not, and
// a variable's last assignment decides its type.
func TestModernSyntaxUnderBothEngines(t *testing.T) {
	t.Parallel()
	for _, d := range []Dialect{Rhino, GraalJS} {
		e := newEngine(t, Options{Dialect: d})
		runScript(t, e, "modern.js", `
class Counter { #n = 0; static made = 0; get n() { return this.#n } inc() { this.#n++; Counter.made += 1; return this } }
const c = new Counter().inc().inc()
function* gen() { let i = 0; while (i < 3) yield i++ }
let sum = 0
for (const v of gen()) sum += v
let a, b
a = b = 5
const re = /(\d)/g
let m, digits = ''
while ((m = re.exec('a1b2c3')) !== null) digits += m[1]
const {x = 1, ...rest} = {y: 2, z: 3}
label: for (let i = 0; i < 3; i++) { for (;;) { continue label } }
const tpl = `+"`${sum}-${a}-${b}`"+`
output.r = [c.n, Counter.made, sum, a, b, digits, x, Object.keys(rest).join('+'), tpl, (() => { let q = 0; q ||= 4; q &&= q + 1; return q })()].join(',')
`)
		if got := interp(t, e, "${output.r}"); got != "2,2,3,5,5,123,1,y+z,3-5-5,5" {
			t.Errorf("%s: %q", d, got)
		}
		if got := interp(t, e, "${var p = 3; p += 1; p}|${p}"); got != map[Dialect]string{Rhino: "4.0|4.0", GraalJS: "4|4"}[d] {
			t.Errorf("%s p: %q", d, got)
		}
	}
}
