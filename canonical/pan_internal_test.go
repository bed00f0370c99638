package canonical

import (
	"math"
	"reflect"
	"testing"
)

// TestPanAsNormalized: Pan builds the input of a valid swipe directly and
// sends anything else through NormalizeGesture; for every mix of valid
// and invalid ends and durations the gesture, or the error, is the one
// the normalization makes of the public input.
func TestPanAsNormalized(t *testing.T) {
	t.Parallel()
	values := []float64{0, 12.5, 540, -3, 1e300, math.MaxFloat64, math.Inf(1), math.NaN()}
	durations := []int{0, 15, 16, 300, 10000, 10001}
	for _, fx := range values {
		for _, ty := range values {
			for _, ms := range durations {
				from, to := Point{X: fx, Y: 100}, Point{X: 200, Y: ty}
				s := &Swipe{DurationMs: Same(ms)}
				got, gotErr := s.Pan(from, to, "android")
				var want Gesture
				in, wantErr := NormalizeGesture(panInput(from, to, float64(ms)))
				if wantErr == nil {
					want, wantErr = in.Gesture(Internal{ExecutionProfile: ProfileEndpointHold})
				}
				if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
					t.Fatalf("Pan(%v, %v, %d ms) error %v, normalized %v", from, to, ms, gotErr, wantErr)
				}
				if gotErr == nil && !reflect.DeepEqual(got, want) {
					t.Fatalf("Pan(%v, %v, %d ms) = %+v, normalized %+v", from, to, ms, got, want)
				}
			}
		}
	}
}
