package sim_test

import (
	"bytes"
	"image"
	"image/gif"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// samePixels compares a recorded frame with a screenshot colour by colour.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				return false
			}
		}
	}
	return true
}

// TestRecordingFrames: a sim recording is an animated GIF of the rendered
// screens between start and stop, one frame per change, each exactly the
// screenshot of that moment, timed by the device clock (a wait on the
// virtual clock lasts its length in the animation).
func TestRecordingFrames(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://login")
	before := decode(t, r.shot())
	r.must(r.dev.StartAnimation(r.ctx))
	r.tap("remember_me")
	after := decode(t, r.shot())
	r.must(r.clock.Sleep(r.ctx, 5*time.Second))
	r.tree() // a read changes nothing on screen: no frame
	data, err := r.dev.StopAnimation(r.ctx)
	r.must(err)
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the recording does not decode as a GIF: %v", err)
	}
	if len(g.Image) != 2 {
		t.Fatalf("%d frames, want 2: the login screen and the toggled checkbox", len(g.Image))
	}
	if !samePixels(g.Image[0], before) || !samePixels(g.Image[1], after) {
		t.Error("the frames are not the screens before and after the tap")
	}
	if total := g.Delay[0] + g.Delay[1]; total < 500 {
		t.Errorf("the frames last %d/100 s, want at least the 5 s the clock moved", total)
	}
	if _, err := r.dev.StopAnimation(r.ctx); canonical.CodeOf(err) != canonical.CodeCommandFailed {
		t.Errorf("stopping twice: %v, want COMMAND_FAILED", err)
	}
}
