package js

import (
	"context"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// BenchmarkInterpolate is one small ${...} evaluation: the cost every
// interpolated field pays (compile, the turn, the budget watchdog, render).
func BenchmarkInterpolate(b *testing.B) {
	e := New(Options{Platform: "android"})
	t := canonical.Text("user ${1 + 1}@example.com", flowPos)
	for b.Loop() {
		if _, err := e.Interpolate(context.Background(), t); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScriptArrayWork is a script that leans on the guarded
// built-ins: array methods, join, JSON.
func BenchmarkScriptArrayWork(b *testing.B) {
	e := New(Options{Platform: "android"})
	src := `var a = []
for (var i = 0; i < 2000; i++) a.push({id: i, name: 'n' + i})
var ids = a.map(function (r) { return r.id }).filter(function (x) { return x % 2 }).slice(0, 500)
output.s = JSON.stringify(JSON.parse(JSON.stringify(a))).length + ids.join(',').length + a.indexOf(a[10])
`
	for b.Loop() {
		if err := e.RunScript(context.Background(), "bench.js", src, nil, flowPos); err != nil {
			b.Fatal(err)
		}
	}
}
