package exec

import (
	"bytes"
	"image"
	"image/color/palette"
	"image/gif"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// AnimationExt is the extension of a recording written as an animated
// image. Maestro writes <path>.mp4 (Orchestra.startRecordingCommand), but
// H.264 needs cgo or an ffmpeg binary flow cannot count on; image/gif is
// in the standard library and every browser and CI viewer plays a GIF.
// Naming the file .gif keeps the name true to its bytes.
const AnimationExt = ".gif"

// MinRecording is Maestro's shortest recording: Maestro.startScreenRecording
// sleeps on close until 3 s have passed. An animation is padded by
// lengthening its last frame instead, which costs no wall time.
const MinRecording = 3 * time.Second

// Bounds of an Animation. A frame's longer side is at most
// maxAnimationSide pixels (screens are scaled down by an integer factor,
// as sim's screenshots are), and the frames held stay within
// maxAnimationFrames and maxAnimationPixels (a pixel is one byte once
// paletted), so a long recording costs at most about 64 MiB.
const (
	maxAnimationSide   = 1000
	maxAnimationFrames = 300
	maxAnimationPixels = 64 << 20
)

// Animation collects the frames of a screen recording and encodes them as
// an animated GIF. Add keeps a frame only when the screen differs from the
// previous one; each frame is shown until the next one's time. When a bound
// is reached every second frame is dropped, so a long recording keeps its
// whole length at a coarser rate rather than losing its end.
type Animation struct {
	frames []*image.Paletted
	times  []time.Time
	pixels int
}

// Len is the number of frames kept.
func (a *Animation) Len() int { return len(a.frames) }

// Add records the screen img as it was at time at. A *image.Paletted
// within the size bound is kept as it is (the caller must not change it
// afterwards); any other image is scaled down and mapped to the web-safe
// palette.
func (a *Animation) Add(img image.Image, at time.Time) {
	p := paletted(img)
	if n := len(a.frames); n > 0 && samePicture(a.frames[n-1], p) {
		return
	}
	size := len(p.Pix)
	for len(a.frames) > 1 && (len(a.frames) >= maxAnimationFrames || a.pixels+size > maxAnimationPixels) {
		a.thin()
	}
	a.frames = append(a.frames, p)
	a.times = append(a.times, at)
	a.pixels += size
}

// thin drops every second frame after the first.
func (a *Animation) thin() {
	frames, times, pixels := a.frames[:1], a.times[:1], len(a.frames[0].Pix)
	for i := 2; i < len(a.frames); i += 2 {
		frames = append(frames, a.frames[i])
		times = append(times, a.times[i])
		pixels += len(a.frames[i].Pix)
	}
	clear(a.frames[len(frames):])
	a.frames, a.times, a.pixels = frames, times, pixels
}

// Encode writes the animation, which ends at end, as a GIF that plays
// once. It lasts at least MinRecording. An animation without frames is an
// error: the recording saw no screen.
func (a *Animation) Encode(end time.Time) ([]byte, error) {
	if len(a.frames) == 0 {
		return nil, canonical.NewError(canonical.CodeCommandFailed, "the recording has no frame").
			WithHint("the device showed no screen between startRecording and stopRecording")
	}
	start := a.times[0]
	if end.Sub(start) < MinRecording {
		end = start.Add(MinRecording)
	}
	g := &gif.GIF{LoopCount: -1}
	// Delays are in hundredths of a second; rounding each frame's start
	// on the recording's own time line keeps the total exact. Browsers
	// show a delay under 2 as 10, so a frame lasts at least 2.
	centis := func(t time.Time) int { return int((t.Sub(start) + 5*time.Millisecond) / (10 * time.Millisecond)) }
	shown := 0
	for i, f := range a.frames {
		next := end
		if i+1 < len(a.frames) {
			next = a.times[i+1]
		}
		d := min(max(centis(next)-shown, 2), 0xffff)
		shown += d
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, d)
	}
	// Frames of different sizes (the screen turned) must fit the logical
	// screen, which is the largest frame.
	for _, f := range a.frames {
		g.Config.Width = max(g.Config.Width, f.Rect.Dx())
		g.Config.Height = max(g.Config.Height, f.Rect.Dy())
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "cannot encode the recording: %v", err).Wrap(err)
	}
	return buf.Bytes(), nil
}

func samePicture(a, b *image.Paletted) bool {
	if a.Rect != b.Rect || len(a.Palette) != len(b.Palette) || !bytes.Equal(a.Pix, b.Pix) {
		return false
	}
	for i := range a.Palette {
		if a.Palette[i] != b.Palette[i] {
			return false
		}
	}
	return true
}

// paletted turns img into a frame: scaled down by the smallest integer
// factor that fits maxAnimationSide (averaging each factor×factor block)
// and mapped to the nearest web-safe colour, which is arithmetic rather
// than a palette search because the web-safe cube is regular.
func paletted(img image.Image) *image.Paletted {
	b := img.Bounds()
	f := max(1, (max(b.Dx(), b.Dy())+maxAnimationSide-1)/maxAnimationSide)
	if p, ok := img.(*image.Paletted); ok && f == 1 && len(p.Palette) <= 256 && p.Rect.Min == (image.Point{}) {
		return p
	}
	w, h := (b.Dx()+f-1)/f, (b.Dy()+f-1)/f
	out := image.NewPaletted(image.Rect(0, 0, w, h), palette.WebSafe)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var r, g, bl, n uint32
			for yy := b.Min.Y + y*f; yy < min(b.Min.Y+(y+1)*f, b.Max.Y); yy++ {
				for xx := b.Min.X + x*f; xx < min(b.Min.X+(x+1)*f, b.Max.X); xx++ {
					cr, cg, cb, _ := img.At(xx, yy).RGBA()
					r, g, bl, n = r+cr, g+cg, bl+cb, n+1
				}
			}
			out.Pix[y*out.Stride+x] = webSafeIndex(r/n>>8, g/n>>8, bl/n>>8)
		}
	}
	return out
}

// webSafeIndex is the index in palette.WebSafe of the colour nearest to
// r, g, b (0–255): that palette steps each channel by 51, red slowest.
func webSafeIndex(r, g, b uint32) uint8 {
	q := func(v uint32) uint32 { return (v + 25) / 51 }
	return uint8(q(r)*36 + q(g)*6 + q(b))
}
