package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// FileReader is implemented by a Config.Files that can also read, as
// assertScreenshot reads its reference image through it (paths are
// slash-separated, relative to the folder flow runs in, as WriteFile's).
type FileReader interface {
	ReadFile(name string) ([]byte, error)
}

// assertScreenshot runs Maestro's assertScreenshot (docs.maestro.dev
// reference/commands-available/assertscreenshot; Orchestra's
// assertScreenshotCommand, PRs #2949, #3034, #3261): the screen, cropped to
// cropOn's element when given, must match the reference image in at least
// thresholdPercentage percent of its pixels. A missing reference fails, as
// the reference page says; Maestro writes nothing then, and neither does
// flow. On a mismatch the marked-up screen goes beside the reference as
// NAME_diff.png, where Maestro writes it, and the failure names it.
func (r *run) assertScreenshot(ctx context.Context, t *canonical.AssertScreenshot) error {
	p, err := r.str(ctx, t.Path)
	if err != nil {
		return err
	}
	ref := referencePath(t.Pos.File, p)
	actual, err := r.screenImage(ctx, t.CropOn, t.Optional)
	if err != nil {
		return err
	}
	r.event("assertScreenshot", map[string]any{"path": ref, "thresholdPercentage": t.ThresholdPercentage})
	reader, ok := r.cfg.Files.(FileReader)
	if !ok {
		return errorf(canonical.CodeUnsupportedOperation, "assertScreenshot cannot read %s: this run reads no files", ref).
			WithHint("run the flow with flow test, which reads reference images relative to the flow file")
	}
	data, err := reader.ReadFile(ref)
	if errors.Is(err, fs.ErrNotExist) {
		return errorf(canonical.CodeAssertionFailed, "Screenshot file not found: %s", ref).
			With("path", ref).
			WithHint(fmt.Sprintf("make the reference once with takeScreenshot%s on a screen you trust, and save it as %s (the path is relative to this flow file)",
				cropHint(t.CropOn != nil), ref))
	}
	if err != nil {
		return errorf(canonical.CodeCommandFailed, "cannot read the reference screenshot %s: %v", ref, err).Wrap(err).
			WithHint("check that the file is readable")
	}
	expected, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return errorf(canonical.CodeCommandFailed, "the reference screenshot %s is not a PNG or JPEG image: %v", ref, err).Wrap(err).
			WithHint("replace it with a screenshot from takeScreenshot")
	}
	eb, ab := expected.Bounds(), actual.Bounds()
	if eb.Dx() != ab.Dx() || eb.Dy() != ab.Dy() {
		// Maestro 2.3.0 fails here too (its CHANGELOG: "fail when the
		// current screenshot and baseline image have different dimensions").
		return errorf(canonical.CodeAssertionFailed, "Comparison error: %s: the screen is %dx%d, the reference %s is %dx%d",
			describeAssertScreenshot(p, t.ThresholdPercentage), ab.Dx(), ab.Dy(), ref, eb.Dx(), eb.Dy()).
			With("path", ref).
			WithHint("compare on a device with the reference's screen size, or take a new reference on this one")
	}
	d := countDiffering(expected, actual)
	// romankh3 image-comparison's MATCH: the share of differing pixels is
	// at most allowingPercentOfDifferentPixels, which Maestro sets to
	// 100 - thresholdPercentage.
	if 100*float64(d.differing)/float64(max(d.total, 1)) <= 100-t.ThresholdPercentage {
		return nil
	}
	diffName := strings.TrimSuffix(ref, path.Ext(ref)) + "_diff.png"
	e := errorf(canonical.CodeAssertionFailed, "Comparison error: %s - threshold not met, current: %s%%",
		describeAssertScreenshot(p, t.ThresholdPercentage), kotlinDecimal(d.percentMatching(), 32)).
		With("path", ref).With("matchPercentage", d.percentMatching())
	if err := r.writeDiff(diffName, actual, d.box); err != nil {
		return e.WithHint(fmt.Sprintf("the differences could not be drawn (%v); if the new screen is right, replace %s", err, ref))
	}
	return e.With("diff", diffName).
		WithHint(fmt.Sprintf("the differences are outlined in red in %s; if the new screen is right, replace %s with it", diffName, ref))
}

// referencePath is the reference image's name: relative to the folder of
// the flow file that holds the command (Maestro resolves it against the
// flow's own folder), with ".png" added when it has no extension (PR
// #3034, as takeScreenshot adds it).
func referencePath(flowFile, p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if path.Ext(p) == "" {
		p += ".png"
	}
	if path.IsAbs(p) || (len(p) > 1 && p[1] == ':') {
		return p
	}
	dir := path.Dir(strings.ReplaceAll(flowFile, `\`, "/"))
	if flowFile == "" {
		dir = "."
	}
	return path.Join(dir, p)
}

// describeAssertScreenshot is the command as Maestro's failure quotes it
// ("Assert screenshot matches X (threshold: 95.0%)", PR #3261's example),
// the threshold printed as Kotlin prints a Double.
func describeAssertScreenshot(p string, threshold float64) string {
	return fmt.Sprintf("Assert screenshot matches %s (threshold: %s%%)", p, kotlinDecimal(threshold, 64))
}

// kotlinDecimal prints a percentage as Kotlin's toString of a Double
// (bits 64) or Float (32) prints one from 0.001 to 10^7: the shortest
// digits, always with a decimal point ("95.0", "96.46815").
func kotlinDecimal(f float64, bits int) string {
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func cropHint(crop bool) string {
	if crop {
		return " (with the same cropOn)"
	}
	return ""
}

// screenImage is the device's screenshot decoded, cut to the element
// cropOn selects when it is set. The element is looked up first (it may
// need to appear), then the screen is taken, as Maestro's cropOn does.
func (r *run) screenImage(ctx context.Context, cropOn *canonical.Selector, optional bool) (image.Image, error) {
	var crop *Rect
	if cropOn != nil {
		f, _, err := r.findOrFail(ctx, cropOn, optional)
		if err != nil {
			return nil, err
		}
		crop = f.node.Bounds
	}
	shot, err := r.dev.Screenshot(ctx)
	if err != nil {
		return nil, deviceErr(err, "take a screenshot")
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, errorf(canonical.CodeCommandFailed, "the device's screenshot is not an image flow can read: %v", err).Wrap(err).
			WithHint("cropOn and assertScreenshot need a PNG or JPEG screenshot")
	}
	if crop == nil {
		return img, nil
	}
	return r.cropTo(ctx, img, *crop)
}

// croppedScreenshot is takeScreenshot's cropOn: the element's part of the
// screen as a PNG.
func (r *run) croppedScreenshot(ctx context.Context, cropOn *canonical.Selector, optional bool) ([]byte, error) {
	img, err := r.screenImage(ctx, cropOn, optional)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, errorf(canonical.CodeInternal, "cannot encode the cropped screenshot: %v", err).Wrap(err)
	}
	return buf.Bytes(), nil
}

// cropTo cuts the element's bounds out of the screenshot. Bounds are in
// the hierarchy's units (points on iOS), the screenshot in pixels: the
// bounds are scaled by the screenshot's width over the viewport's.
func (r *run) cropTo(ctx context.Context, img image.Image, b Rect) (image.Image, error) {
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return nil, deviceErr(err, "read the screen size")
	}
	ib := img.Bounds()
	scale := 1.0
	if vp.Width > 0 {
		scale = float64(ib.Dx()) / vp.Width
	}
	at := func(v int) int { return int(math.Round(float64(v) * scale)) }
	rect := image.Rect(at(b.X), at(b.Y), at(b.X+b.W), at(b.Y+b.H)).Add(ib.Min).Intersect(ib)
	if rect.Empty() {
		return nil, errorf(canonical.CodeCommandFailed, "the cropOn element (%d,%d %dx%d) is outside the screen", b.X, b.Y, b.W, b.H).
			WithHint("crop on an element that is on screen")
	}
	out := image.NewRGBA(image.Rect(0, 0, rect.Dx(), rect.Dy()))
	draw.Draw(out, out.Bounds(), img, rect.Min, draw.Src)
	return out, nil
}

// writeDiff writes the current screen with a red frame around the
// differing pixels. Maestro's library frames each region of differences;
// flow frames the one rectangle that holds them all.
func (r *run) writeDiff(name string, actual image.Image, box image.Rectangle) error {
	if r.cfg.Files == nil {
		return errors.New("no folder to write to")
	}
	out := image.NewRGBA(image.Rect(0, 0, actual.Bounds().Dx(), actual.Bounds().Dy()))
	draw.Draw(out, out.Bounds(), actual, actual.Bounds().Min, draw.Src)
	red := image.NewUniform(color.RGBA{R: 255, A: 255})
	frame := box.Inset(-2).Intersect(out.Bounds())
	for _, side := range []image.Rectangle{
		{frame.Min, image.Pt(frame.Max.X, frame.Min.Y+2)},
		{image.Pt(frame.Min.X, frame.Max.Y-2), frame.Max},
		{frame.Min, image.Pt(frame.Min.X+2, frame.Max.Y)},
		{image.Pt(frame.Max.X-2, frame.Min.Y), frame.Max},
	} {
		draw.Draw(out, side.Intersect(frame), red, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return err
	}
	return r.cfg.Files.WriteFile(name, buf.Bytes())
}
