package canonical_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// planLikeFloats are coordinates as plans carry them: a few hundred to a few
// thousand, with 13 to 17 significant digits.
func planLikeFloats() []float64 {
	rng := rand.New(rand.NewPCG(5, 6))
	out := make([]float64, 4096)
	for i := range out {
		out[i] = rng.Float64() * 2400
	}
	return out
}

func BenchmarkAppendJSONFloat(b *testing.B) {
	fs := planLikeFloats()
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf, _ = canonical.AppendJSONFloat(buf[:0], fs[i%len(fs)])
	}
}

// BenchmarkStrconvAppendFloat is the reference AppendJSONFloat replaces for
// the same values.
func BenchmarkStrconvAppendFloat(b *testing.B) {
	fs := planLikeFloats()
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = strconv.AppendFloat(buf[:0], fs[i%len(fs)], 'f', -1, 64)
	}
}
