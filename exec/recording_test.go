package exec_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// solid is a w×h paletted frame of one colour of a two-colour palette.
func solid(w, h int, index uint8) *image.Paletted {
	p := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.White, color.Black})
	for i := range p.Pix {
		p.Pix[i] = index
	}
	return p
}

func decodeGIF(t *testing.T, data []byte) *gif.GIF {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the recording does not decode as a GIF: %v", err)
	}
	return g
}

func sum(ds []int) int {
	n := 0
	for _, d := range ds {
		n += d
	}
	return n
}

// TestAnimationFramesAndDelays: a frame is kept only when the screen
// changed, each lasts until the next one's time, and the last is padded so
// the whole lasts Maestro's 3 s minimum (Maestro.startScreenRecording).
func TestAnimationFramesAndDelays(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var a exec.Animation
	a.Add(solid(4, 4, 0), t0)
	a.Add(solid(4, 4, 0), t0.Add(100*time.Millisecond)) // unchanged: no frame
	a.Add(solid(4, 4, 1), t0.Add(250*time.Millisecond))
	a.Add(solid(4, 4, 0), t0.Add(1250*time.Millisecond))
	g := decodeGIF(t, must(a.Encode(t0.Add(1500*time.Millisecond))))
	if len(g.Image) != 3 {
		t.Fatalf("%d frames, want 3 (the repeated screen is not a frame)", len(g.Image))
	}
	if want := []int{25, 100, 175}; !equalInts(g.Delay, want) {
		t.Errorf("delays %v (1/100 s), want %v: each frame until the next, the last padded to 3 s", g.Delay, want)
	}
	for i, want := range []uint8{0, 1, 0} {
		if g.Image[i].Pix[0] != want {
			t.Errorf("frame %d shows colour %d, want %d", i, g.Image[i].Pix[0], want)
		}
	}
	// A long recording is not padded.
	g = decodeGIF(t, must(a.Encode(t0.Add(10*time.Second))))
	if sum(g.Delay) != 1000 {
		t.Errorf("delays %v add up to %d, want 1000 for a 10 s recording", g.Delay, sum(g.Delay))
	}
	var empty exec.Animation
	if _, err := empty.Encode(t0); canonical.CodeOf(err) != canonical.CodeCommandFailed {
		t.Errorf("an animation without frames encoded (err %v), want COMMAND_FAILED", err)
	}
}

// TestAnimationBounds: a long recording keeps at most 300 frames, its first
// and last screens and its whole length; a frame larger than 1000 px is
// scaled down by an integer factor.
func TestAnimationBounds(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var a exec.Animation
	const n = 1001
	for i := range n {
		a.Add(solid(2, 2, uint8(i%2)), t0.Add(time.Duration(i)*time.Second))
	}
	if a.Len() > 300 || a.Len() < 150 {
		t.Fatalf("%d frames kept of %d, want between 150 and 300", a.Len(), n)
	}
	end := t0.Add(n * time.Second)
	g := decodeGIF(t, must(a.Encode(end)))
	if got := sum(g.Delay); got != n*100 {
		t.Errorf("the frames last %d/100 s, want the whole %d s", got, n)
	}
	if g.Image[len(g.Image)-1].Pix[0] != uint8((n-1)%2) {
		t.Error("the last screen was dropped")
	}

	big := image.NewRGBA(image.Rect(0, 0, 1170, 2532))
	var b exec.Animation
	b.Add(big, t0)
	g = decodeGIF(t, must(b.Encode(t0.Add(time.Second))))
	if r := g.Image[0].Rect; r.Dx() != 390 || r.Dy() != 844 {
		t.Errorf("a 1170×2532 screen became %v, want 390×844 (a third)", r)
	}
}

// TestAnimationColours: a full-colour screen is averaged and mapped to the
// web-safe colour nearest to each pixel, the one palette.WebSafe's own
// (slow) nearest-colour search finds.
func TestAnimationColours(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255
	}
	var a exec.Animation
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a.Add(img, t0)
	g := decodeGIF(t, must(a.Encode(t0)))
	f := g.Image[0]
	ws := color.Palette(palette.WebSafe)
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			want := ws[ws.Index(img.At(x, y))]
			if got := f.At(x, y); !sameColour(got, want) {
				t.Fatalf("pixel (%d,%d) %v became %v, want the nearest web-safe colour %v", x, y, img.At(x, y), got, want)
			}
		}
	}
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// recordingDevice is a still device that records animations as sim and
// the browser do: starts and stops are counted, and each "file" says which
// recording it is.
type recordingDevice struct {
	stillDevice
	starts, stops int
}

func (d *recordingDevice) StartAnimation(context.Context) error {
	d.starts++
	return nil
}
func (d *recordingDevice) StopAnimation(context.Context) ([]byte, error) {
	d.stops++
	return []byte(fmt.Sprintf("recording %d", d.starts)), nil
}

type memFiles map[string]string

func (m memFiles) WriteFile(name string, data []byte) error {
	m[name] = string(data)
	return nil
}

func startRec(line int, path string, optional bool) canonical.Command {
	return &canonical.StartRecording{Meta: canonical.Meta{Name: "startRecording", Pos: at(line), Optional: optional},
		Path: canonical.Text(path, at(line))}
}

func stopRec(line int) canonical.Command {
	return &canonical.Simple{Meta: canonical.Meta{Name: "stopRecording", Pos: at(line)}, Action: "stopRecording"}
}

func runRecording(t *testing.T, dev exec.Device, cmds ...canonical.Command) (exec.FlowResult, memFiles) {
	t.Helper()
	clock := newClock()
	files := memFiles{}
	cfg := exec.Config{Device: dev, Clock: clock, Files: files,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}), Commands: cmds}
	return exec.RunFlow(context.Background(), cfg, flow), files
}

// TestRecordingWritesAnimation: the runtime writes what an
// AnimationRecorder returns as <path>.gif through Files; a second start
// while one runs does nothing (Maestro.startScreenRecording); a recording
// left open is stopped and written when the main commands end, also when
// they failed (Orchestra.runFlow closes it after them).
func TestRecordingWritesAnimation(t *testing.T) {
	clock := newClock()
	dev := &recordingDevice{stillDevice: stillDevice{clock: clock, start: clock.Now()}}
	res, files := runRecording(t, dev, launch(1), startRec(2, "clips/one", false), tap(3, text("Plain"), false),
		startRec(4, "clips/ignored", false), tap(5, text("Plain"), false), stopRec(6), stopRec(7),
		startRec(8, "open", false), tap(9, text("Plain"), false), tap(10, text("Missing"), false))
	if res.Status != exec.StatusFailed || canonical.CodeOf(res.Error) != canonical.CodeElementNotFound {
		t.Fatalf("flow %s (%v), want failed at the missing element", res.Status, res.Error)
	}
	if dev.starts != 2 || dev.stops != 2 {
		t.Errorf("%d starts and %d stops, want 2 and 2: a second start while recording does nothing, a stop without a recording too", dev.starts, dev.stops)
	}
	if got := files["clips/one.gif"]; got != "recording 1" {
		t.Errorf("clips/one.gif = %q, want the first recording (files %v)", got, keys(files))
	}
	if _, ok := files["clips/ignored.gif"]; ok {
		t.Error("the second startRecording wrote a file")
	}
	if files["open.gif"] != "recording 2" {
		t.Errorf("the recording left open by a failing flow was not written (files %v)", keys(files))
	}
}

func keys(m memFiles) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestRecordingUnsupported: a device that cannot record refuses
// startRecording with UNSUPPORTED_OPERATION and a hint, so the flow fails;
// optional: true turns that into a warning, and the stopRecording after it
// has nothing to stop.
func TestRecordingUnsupported(t *testing.T) {
	clock := newClock()
	res, files := runRecording(t, &stillDevice{clock: clock, start: clock.Now()}, launch(1), startRec(2, "clip", false), stopRec(3))
	if res.Status != exec.StatusFailed || res.Error == nil || res.Error.Code != canonical.CodeUnsupportedOperation {
		t.Fatalf("flow %s (%v), want failed with UNSUPPORTED_OPERATION", res.Status, res.Error)
	}
	if !strings.Contains(res.Error.Message, "startRecording") || !strings.Contains(res.Error.Hint, "optional: true") {
		t.Errorf("error %q (hint %q) should name the command and say how to go on", res.Error.Message, res.Error.Hint)
	}
	res, files = runRecording(t, &stillDevice{clock: clock, start: clock.Now()}, launch(1), startRec(2, "clip", true), stopRec(3))
	if res.Status != exec.StatusPassed {
		t.Fatalf("flow %s (%v), want passed with a warning", res.Status, res.Error)
	}
	if s := res.Steps[1]; s.Status != exec.StatusWarned || s.Error == nil || s.Error.Code != canonical.CodeUnsupportedOperation {
		t.Errorf("optional startRecording %s (%v), want warned with UNSUPPORTED_OPERATION", s.Status, s.Error)
	}
	if len(files) != 0 {
		t.Errorf("files written: %v", keys(files))
	}
}
