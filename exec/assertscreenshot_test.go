package exec_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// paintedDevice is stillDevice whose screenshot is a 500×1000 PNG, half
// the viewport's 1000×2000 (as an iOS screenshot is in pixels and its
// hierarchy in points, the other way round), white with the "Plain" row
// (y 200–300 in the hierarchy) painted blue.
type paintedDevice struct{ stillDevice }

func (d *paintedDevice) Screenshot(context.Context) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 500, 1000))
	fill(img, img.Bounds(), color.RGBA{255, 255, 255, 255})
	fill(img, image.Rect(0, 100, 500, 150), color.RGBA{0, 0, 255, 255})
	return encode(img), nil
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func encode(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// refFiles is a folder in memory that can read
// (exec.FileReader).
type refFiles map[string][]byte

func (m refFiles) WriteFile(name string, data []byte) error { m[name] = data; return nil }
func (m refFiles) ReadFile(name string) ([]byte, error) {
	if d, ok := m[name]; ok {
		return d, nil
	}
	return nil, fs.ErrNotExist
}

func runAssertScreenshot(t *testing.T, files refFiles, a *canonical.AssertScreenshot) exec.FlowResult {
	t.Helper()
	clock := newClock()
	dev := &paintedDevice{stillDevice{clock: clock, start: clock.Now()}}
	a.Meta = canonical.Meta{Name: "assertScreenshot", Pos: canonical.Pos{File: "flows/login.yaml", Line: 4, Col: 3}}
	cfg := exec.Config{Device: dev, Clock: clock, Files: files,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flows/login.yaml", Name: "login", AppID: canonical.Text("com.still", canonical.Pos{}),
		Commands: []canonical.Command{launch(3), a}}
	return exec.RunFlow(context.Background(), cfg, flow)
}

// A reference of w×h pixels, white, with the first n pixels of its top
// rows red, and the rest of a band of rows blue from y0 to y1.
func reference(w, h, n, y0, y1 int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), color.RGBA{255, 255, 255, 255})
	fill(img, image.Rect(0, y0, w, y1), color.RGBA{0, 0, 255, 255})
	for i := 0; i < n; i++ {
		img.SetRGBA(i%w, i/w, color.RGBA{255, 0, 0, 255})
	}
	return encode(img)
}

// cropOn compares only the element's part of the screen: its bounds are
// in hierarchy units and are scaled to the screenshot's pixels.
func TestAssertScreenshotCropOn(t *testing.T) {
	t.Parallel()
	files := refFiles{"flows/refs/row.png": reference(500, 50, 0, 0, 50)}
	a := &canonical.AssertScreenshot{Path: canonical.Text("refs/row", canonical.Pos{}), CropOn: text("Plain"), ThresholdPercentage: 100}
	if res := runAssertScreenshot(t, files, a); res.Status != exec.StatusPassed {
		t.Fatalf("the cropped row did not match its reference: %v", res.Error)
	}
	// Uncropped, the 500×1000 screen is not the 500×50 reference: Maestro
	// fails on different sizes since 2.3.0.
	a.CropOn = nil
	res := runAssertScreenshot(t, files, a)
	if res.Error == nil || res.Error.Code != canonical.CodeAssertionFailed || !strings.Contains(res.Error.Message, "the screen is 500x1000, the reference flows/refs/row.png is 500x50") {
		t.Fatalf("a screen of another size: got %v", res.Error)
	}
}

// The threshold is the share of matching pixels (PR #3261: the gate
// counts differing pixels; it passes at exactly the threshold).
func TestAssertScreenshotThreshold(t *testing.T) {
	t.Parallel()
	total := 500 * 1000
	fivePercent := total / 20
	for _, c := range []struct {
		differing int
		threshold float64
		pass      bool
	}{
		{fivePercent, 95, true},
		{fivePercent + 1, 95, false},
		{fivePercent, 95.1, false},
		{0, 100, true},
		{1, 100, false},
		{total, 0, true},
	} {
		files := refFiles{"flows/home.png": reference(500, 1000, c.differing, 100, 150)}
		a := &canonical.AssertScreenshot{Path: canonical.Text("home.png", canonical.Pos{}), ThresholdPercentage: c.threshold}
		res := runAssertScreenshot(t, files, a)
		if got := res.Status == exec.StatusPassed; got != c.pass {
			t.Errorf("%d differing pixels at %v%%: passed %v, want %v (%v)", c.differing, c.threshold, got, c.pass, res.Error)
		}
		_, wrote := files["flows/home_diff.png"]
		if wrote == c.pass {
			t.Errorf("%d differing pixels at %v%%: diff image written %v", c.differing, c.threshold, wrote)
		}
	}
	// The failure reports the matching share as Maestro since PR #3261.
	files := refFiles{"flows/home.png": reference(500, 1000, fivePercent*2, 100, 150)}
	res := runAssertScreenshot(t, files, &canonical.AssertScreenshot{Path: canonical.Text("home.png", canonical.Pos{}), ThresholdPercentage: 95})
	want := "Comparison error: Assert screenshot matches home.png (threshold: 95.0%) - threshold not met, current: 90.0%"
	if res.Error == nil || res.Error.Message != want || res.Error.Pos.Line != 4 || !strings.Contains(res.Error.Hint, "flows/home_diff.png") {
		t.Fatalf("got %+v, want %q at line 4 naming the diff", res.Error, want)
	}
	diff, err := png.Decode(bytes.NewReader(files["flows/home_diff.png"]))
	if err != nil {
		t.Fatal(err)
	}
	// The differing pixels are rows 0–99 of the screen: the red frame
	// runs just below them, the rest of the screen is the screen.
	if r, g, b, _ := diff.At(250, 101).RGBA(); r>>8 != 255 || g != 0 || b != 0 {
		t.Errorf("no red frame below the differences: %v", diff.At(250, 101))
	}
	if r, g, b, _ := diff.At(250, 500).RGBA(); r>>8 != 255 || g>>8 != 255 || b>>8 != 255 {
		t.Errorf("the diff image is not the screen away from the differences: %v", diff.At(250, 500))
	}
}

// A missing reference fails and writes nothing.
func TestAssertScreenshotMissingReference(t *testing.T) {
	t.Parallel()
	files := refFiles{}
	res := runAssertScreenshot(t, files, &canonical.AssertScreenshot{Path: canonical.Text("refs/none", canonical.Pos{}), ThresholdPercentage: 95})
	if res.Error == nil || res.Error.Message != "Screenshot file not found: flows/refs/none.png" || !strings.Contains(res.Error.Hint, "takeScreenshot") {
		t.Fatalf("got %+v", res.Error)
	}
	if len(files) != 0 {
		t.Errorf("a missing reference wrote %v", files)
	}
}

// takeScreenshot's cropOn writes only the element's part of the screen,
// in screenshot pixels.
func TestTakeScreenshotCropOn(t *testing.T) {
	t.Parallel()
	clock := newClock()
	files := refFiles{}
	cfg := exec.Config{Device: &paintedDevice{stillDevice{clock: clock, start: clock.Now()}}, Clock: clock, Files: files,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	shot := &canonical.TakeScreenshot{Meta: canonical.Meta{Name: "takeScreenshot", Pos: at(4)},
		Path: canonical.Text("row", canonical.Pos{}), CropOn: text("Plain")}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}),
		Commands: []canonical.Command{launch(3), shot}}
	if res := exec.RunFlow(context.Background(), cfg, flow); res.Status != exec.StatusPassed {
		t.Fatal(res.Error)
	}
	img, err := png.Decode(bytes.NewReader(files["row.png"]))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 500 || b.Dy() != 50 {
		t.Errorf("cropped to %v, want the row's 500x50 pixels", b)
	}
	for _, p := range []image.Point{{0, 0}, {499, 49}} {
		if r, g, b, _ := img.At(p.X, p.Y).RGBA(); r != 0 || g != 0 || b>>8 != 255 {
			t.Errorf("pixel %v is %v, want the row's blue", p, img.At(p.X, p.Y))
		}
	}
}
