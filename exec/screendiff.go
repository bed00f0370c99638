package exec

import (
	"bytes"
	"image"
	"image/draw"
	_ "image/jpeg" // a device may answer a screenshot as JPEG
	_ "image/png"
)

// Maestro's screenshot comparison after a tap that left the hierarchy as
// it was (Maestro.kt hierarchyBasedTap): the screen changed when
// ImageComparison(before, after).compareImages().differencePercent >
// SCREENSHOT_DIFF_THRESHOLD (0.005). romankh3 image-comparison's
// compareImages, with its defaults, finds the pixels whose RGB distance
// exceeds 10 % of the largest (pixelToleranceLevel 0.1: squared distance
// above (0.1·√3·255)²); with none the images match (difference 0);
// otherwise the difference is the mean absolute difference of the R, G
// and B channels over all pixels, in percent (getDifferencePercent).
// Screenshots of different sizes are not compared at all (Maestro logs
// "Skipping screenshot comparison"), which counts as no change.
const (
	screenDiffThresholdPercent = 0.005
	pixelTolerance             = 0.1
)

// screenChanged reports whether the after screenshot differs from before
// as Maestro decides it. A missing capture decides nothing (no change, as
// in Maestro); bytes that are not an image flow can decode are compared
// as bytes.
func screenChanged(before, after []byte) bool {
	if before == nil || after == nil {
		return false
	}
	if bytes.Equal(before, after) {
		return false
	}
	a, _, errA := image.Decode(bytes.NewReader(before))
	b, _, errB := image.Decode(bytes.NewReader(after))
	if errA != nil || errB != nil {
		return true
	}
	return imagesDiffer(a, b)
}

// imagesDiffer is compareImages().differencePercent > 0.005 for two
// decoded screenshots.
func imagesDiffer(a, b image.Image) bool {
	ra, rb := a.Bounds(), b.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return false
	}
	pa, pb := rgba(a), rgba(b)
	limit := pixelTolerance * pixelTolerance * 3 * 255 * 255
	var sum int64
	differing := false
	for i := 0; i+3 < len(pa.Pix); i += 4 {
		dr, dg, db := absDiff(pa.Pix[i], pb.Pix[i]), absDiff(pa.Pix[i+1], pb.Pix[i+1]), absDiff(pa.Pix[i+2], pb.Pix[i+2])
		sum += int64(dr + dg + db)
		if !differing && float64(dr*dr+dg*dg+db*db) > limit {
			differing = true
		}
	}
	if !differing {
		return false
	}
	percent := 100 * float64(sum) / (3 * 255 * float64(ra.Dx()) * float64(ra.Dy()))
	return percent > screenDiffThresholdPercent
}

// rgba is img's pixels as 8-bit RGBA from (0,0), stride = 4·width. A
// screenshot is opaque, where these equal Java's getRGB (not
// premultiplied); image/draw converts the decoders' types quickly.
func rgba(img image.Image) *image.RGBA {
	r := img.Bounds()
	if m, ok := img.(*image.RGBA); ok && r.Min == (image.Point{}) && m.Stride == 4*r.Dx() {
		return m
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// pixelDiff is how two same-sized screenshots differ as assertScreenshot
// counts it (Maestro PR #3261): the pixels whose RGB distance exceeds
// romankh3 image-comparison's pixelToleranceLevel (0.1, the default
// Maestro keeps), and the smallest rectangle holding them all.
type pixelDiff struct {
	differing, total int
	box              image.Rectangle
}

// percentMatching is the share of pixels that match, in percent: the
// "current" of Maestro's failure message since PR #3261.
func (d pixelDiff) percentMatching() float64 {
	if d.total == 0 {
		return 100
	}
	return 100 - 100*float64(d.differing)/float64(d.total)
}

// countDiffering compares a and b pixel by pixel; both must have the
// same size.
func countDiffering(a, b image.Image) pixelDiff {
	pa, pb := rgba(a), rgba(b)
	w := a.Bounds().Dx()
	limit := pixelTolerance * pixelTolerance * 3 * 255 * 255
	d := pixelDiff{total: w * a.Bounds().Dy()}
	for i := 0; i+3 < len(pa.Pix); i += 4 {
		dr, dg, db := absDiff(pa.Pix[i], pb.Pix[i]), absDiff(pa.Pix[i+1], pb.Pix[i+1]), absDiff(pa.Pix[i+2], pb.Pix[i+2])
		if float64(dr*dr+dg*dg+db*db) <= limit {
			continue
		}
		d.differing++
		x, y := (i/4)%w, (i/4)/w
		d.box = d.box.Union(image.Rect(x, y, x+1, y+1))
	}
	return d
}
