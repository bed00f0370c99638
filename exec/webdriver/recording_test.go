package webdriver_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec"
)

func decodeGIF(t *testing.T, data []byte) *gif.GIF {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the recording does not decode as a GIF: %v", err)
	}
	return g
}

// TestBrowserRecording: a recording of the local Chromium is an animated
// GIF of the page, one frame per change, at the emulated phone's CSS size
// (the 3× screen scaled down), from DevTools Page.captureScreenshot.
func TestBrowserRecording(t *testing.T) {
	dev, base := browser(t)
	ctx := ctxFor(t)
	load(t, dev, base+"/login.html")
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := dev.StartAnimation(ctx); err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, find(root, byID("email")).Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	if err := dev.InputText(ctx, "rec@example.com"); err != nil {
		t.Fatal(err)
	}
	// Scrolled, the frames follow the viewport, not the top of the page.
	var y float64
	if err := dev.Client().Execute(ctx, "document.body.style.height = '3000px'; document.body.style.background = "+
		"'linear-gradient(#fff 0px, #fff 1000px, #08f 1000px)'; window.scrollTo(0, 1200); return window.scrollY", nil, false, &y); err != nil || y != 1200 {
		t.Fatalf("scroll: %v (at %v)", err, y)
	}
	time.Sleep(600 * time.Millisecond)
	data, err := dev.StopAnimation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	png, err := dev.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want exec.Animation
	shot, err := pngDecode(png)
	if err != nil {
		t.Fatal(err)
	}
	want.Add(shot, time.Now())
	g := decodeGIF(t, data)
	last := g.Image[len(g.Image)-1]
	wantFrame := decodeGIF(t, must(want.Encode(time.Now()))).Image[0]
	if f := sameShare(last, wantFrame); f < 0.9 {
		t.Errorf("the last frame matches the scrolled page's screenshot in %.0f%% of its pixels, want at least 90%% (JPEG noise aside)", f*100)
	}
	if len(g.Image) < 2 {
		t.Fatalf("%d frames, want at least 2: the empty form and the typed email", len(g.Image))
	}
	t.Logf("%d frames, delays %v (1/100 s)", len(g.Image), g.Delay)
	if r := g.Image[0].Rect; r.Dx() != 390 || r.Dy() != 844 {
		t.Errorf("frames are %v, want the 390×844 viewport", r)
	}
	if bytes.Equal(g.Image[0].Pix, g.Image[len(g.Image)-1].Pix) {
		t.Error("the first and last frames are the same picture; typing changed the page")
	}
	if _, err := dev.StopAnimation(ctx); err == nil {
		t.Error("a second stop succeeded without a recording")
	}
}

func pngDecode(data []byte) (image.Image, error) { return png.Decode(bytes.NewReader(data)) }

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// sameShare is the share of pixels two frames of one size have in common.
func sameShare(a, b *image.Paletted) float64 {
	if a.Rect != b.Rect {
		return 0
	}
	same := 0
	for y := 0; y < a.Rect.Dy(); y++ {
		for x := 0; x < a.Rect.Dx(); x++ {
			if a.At(x, y) == b.At(x, y) {
				same++
			}
		}
	}
	return float64(same) / float64(a.Rect.Dx()*a.Rect.Dy())
}

// TestRemoteRecordingFallsBackToScreenshots: an endpoint without
// chromedriver's DevTools bridge (goog/cdp/execute answers "unknown
// command", as a Selenium Grid's Firefox or Appium does) is recorded from
// W3C screenshots; an unchanged page gives one frame.
func TestRemoteRecordingFallsBackToScreenshots(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 390, 844))
	for i := range img.Pix {
		img.Pix[i] = 0xcc
	}
	img.Set(10, 10, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	shot := `{"value":"` + base64.StdEncoding.EncodeToString(buf.Bytes()) + `"}`
	dev, f := remote(t, map[string]any{"browserName": "chrome"}, rule{match: "GET /session/s1/screenshot", body: shot})
	ctx := ctxFor(t)
	if err := dev.StartAnimation(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	data, err := dev.StopAnimation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g := decodeGIF(t, data)
	if len(g.Image) != 1 || g.Image[0].Rect.Dx() != 390 {
		t.Fatalf("%d frames of %v, want one 390 px wide", len(g.Image), g.Image[0].Rect)
	}
	if r, _, _, _ := g.Image[0].At(10, 10).RGBA(); r>>8 != 255 {
		t.Error("the red pixel of the screenshot is not in the frame")
	}
	if n := f.count("/goog/cdp/execute"); n != 1 {
		t.Errorf("goog/cdp/execute tried %d times, want once (then W3C screenshots)", n)
	}
	if n := f.count("/screenshot"); n < 3 {
		t.Errorf("%d W3C screenshots in 600 ms, want one at start, one every 250 ms and one at stop", n)
	}
}
