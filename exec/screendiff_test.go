package exec

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// shot is a w×h opaque screenshot filled with bg, with the rectangle r
// painted fg, encoded as PNG.
func shot(t *testing.T, w, h int, bg, fg color.NRGBA, r image.Rectangle) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := bg
			if (image.Point{x, y}).In(r) {
				c = fg
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Maestro's screenshot decision (romankh3 compareImages, threshold
// 0.005 %), on a 1080×2400 screen: a blinking cursor or a tap ripple of a
// few pixels is no change; a button that turned from grey to blue is; a
// tint below the per-pixel tolerance is none; another size is not
// compared (no change); a missing capture decides nothing.
func TestScreenChangedAsMaestro(t *testing.T) {
	const w, h = 1080, 2400
	white := color.NRGBA{255, 255, 255, 255}
	black := color.NRGBA{0, 0, 0, 255}
	grey := color.NRGBA{200, 200, 200, 255}
	blue := color.NRGBA{30, 90, 220, 255}
	base := shot(t, w, h, white, grey, image.Rect(100, 1000, 980, 1150))
	for name, tc := range map[string]struct {
		after   []byte
		changed bool
	}{
		"same pixels, other encoding": {shot(t, w, h, white, grey, image.Rect(100, 1000, 980, 1150)), false},
		// black on the grey button, 600 per pixel: 3×60 px is
		// 100·180·600/(765·2592000) ≈ 0.0054 % > 0.005 %; 3×40 px ≈ 0.0036 %.
		"a cursor of 3x40 px":           {paint(t, w, h, white, grey, black, image.Rect(540, 1050, 543, 1090)), false},
		"a cursor of 3x60 px":           {paint(t, w, h, white, grey, black, image.Rect(540, 1050, 543, 1110)), true},
		"the button turned blue":        {shot(t, w, h, white, blue, image.Rect(100, 1000, 980, 1150)), true},
		"a tint within the tolerance":   {shot(t, w, h, color.NRGBA{250, 250, 250, 255}, color.NRGBA{195, 195, 195, 255}, image.Rect(100, 1000, 980, 1150)), false},
		"another size":                  {shot(t, w/2, h/2, black, black, image.Rectangle{}), false},
		"no capture after the tap":      {nil, false},
		"not an image, different bytes": {[]byte("garbage"), true},
	} {
		if got := screenChanged(base, tc.after); got != tc.changed {
			t.Errorf("%s: changed %v, want %v", name, got, tc.changed)
		}
	}
}

// paint is the base screen (bg with the fg button) with one more
// rectangle r in c.
func paint(t *testing.T, w, h int, bg, fg, c color.NRGBA, r image.Rectangle) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	button := image.Rect(100, 1000, 980, 1150)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := image.Point{x, y}
			switch {
			case p.In(r):
				img.SetNRGBA(x, y, c)
			case p.In(button):
				img.SetNRGBA(x, y, fg)
			default:
				img.SetNRGBA(x, y, bg)
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
