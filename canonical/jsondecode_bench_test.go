package canonical_test

import (
	"testing"

	"github.com/flow-runner/flow/canonical"
)

var benchLine = []byte(`{"input":{"kind":"transform","origin":{"x":230.14,"y":271.95},"delta":{"x":-15,"y":44},"scale":1.02,"degrees":18,"durationMs":369},"viewport":{"x":0,"y":0,"width":375,"height":667},"platform":"ios"}`)

func BenchmarkDecodeJSON(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := canonical.DecodeJSON(benchLine); err != nil {
			b.Fatal(err)
		}
	}
}
