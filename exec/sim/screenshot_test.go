package sim_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/flow-runner/flow/exec/sim"
)

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

// pixel is the colour at screen point (x, y) of a 1080x2400 screen drawn
// at a third of its size.
func pixel(img image.Image, x, y int) color.RGBA {
	r, g, b, a := img.At(x/3, y/3).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// The palette colours the checks below look for.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

func TestScreenshotDeterministic(t *testing.T) {
	t.Parallel()
	a, b := demo(t), demo(t)
	for _, r := range []*rig{a, b} {
		r.openLink("shop://login")
		r.tap("email")
	}
	first := a.shot()
	if !bytes.Equal(first, a.shot()) || !bytes.Equal(first, b.shot()) {
		t.Fatal("the same state must give the same bytes")
	}
	a.tap("remember_me")
	if bytes.Equal(first, a.shot()) {
		t.Fatal("a toggled checkbox changes the picture")
	}
}

func TestScreenshotSize(t *testing.T) {
	t.Parallel()
	r := demo(t)
	data := r.shot()
	if got := decode(t, data).Bounds(); got != image.Rect(0, 0, 360, 800) {
		t.Fatalf("a 1080x2400 screen is drawn at a third: %v", got)
	}
	if len(data) > 20000 {
		t.Fatalf("screenshot is %d bytes", len(data))
	}
	small := custom(t, mini(""))
	if got := decode(t, small.shot()).Bounds(); got != image.Rect(0, 0, 390, 844) {
		t.Fatalf("a 390x844 screen is drawn 1:1: %v", got)
	}
}

func TestScreenshotDrawsState(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Options{})
	if got := pixel(decode(t, r.shot()), 30, 30); got != rgb(38, 50, 56) {
		t.Fatalf("home screen: %v", got)
	}
	r.launch(shop)
	r.openLink("shop://cart")
	img := decode(t, r.shot())
	for _, tc := range []struct {
		what string
		x, y int
		want color.RGBA
	}{
		{"disabled wallet_pay", 980, 1950, rgb(224, 224, 224)},
		{"enabled checkout_button", 980, 2110, rgb(227, 242, 253)},
		{"empty background", 540, 1500, rgb(255, 255, 255)},
		{"no keyboard", 540, 2380, rgb(255, 255, 255)},
	} {
		if got := pixel(img, tc.x, tc.y); got != tc.want {
			t.Errorf("%s at (%d,%d): %v, want %v", tc.what, tc.x, tc.y, got, tc.want)
		}
	}
	r.tap("promo_code")
	img = decode(t, r.shot())
	if got := pixel(img, 700, 680); got != rgb(187, 222, 251) {
		t.Errorf("focused promo_code: %v", got)
	}
	if got := pixel(img, 15, 2390); got != rgb(207, 216, 220) {
		t.Errorf("keyboard: %v", got)
	}
}
