package planner

import "testing"

// TestFrameOffsetsMatchFrameOffset holds the division-free frame timeline
// to the float one it replaces, for every duration from 1 ms to 20 s at the
// frame counts both sampling profiles give it and at a few others, so plans
// stay bit-identical.
func TestFrameOffsetsMatchFrameOffset(t *testing.T) {
	check := func(d, n int) {
		f := newFrameOffsets(d, n)
		for i := 0; i <= n; i++ {
			if got, want := f.at(i), frameOffset(d, i, n); got != want {
				t.Fatalf("duration %d ms, %d frames, frame %d: %d, want %d", d, n, i, got, want)
			}
		}
	}
	for d := 1; d <= 20000; d++ {
		for _, round := range []bool{false, true} {
			n, err := frameCount(float64(d), profile{roundFrames: round})
			if err != nil {
				t.Fatal(err)
			}
			check(d, n)
		}
		if d%97 == 0 {
			for _, n := range []int{1, 2, 7, 640, 999} {
				check(d, n)
			}
		}
	}
	check(3<<20, 5) // beyond the exact range: the float form itself
}
