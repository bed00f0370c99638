package sim

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// ink is a screenshot colour: an index into palette. Every pixel is one of
// them (the bitmap font has no anti-aliasing), so the PNG is a small
// paletted image.
type ink uint8

// The screenshot colours, in palette order.
const (
	colBackground ink = iota
	colInk
	colFaint
	colOutline
	colButton
	colFocus
	colFocusFill
	colDisabled
	colDisabledFg
	colChecked
	colZoom
	colZoomLine
	colThumb
	colKeyboard
	colHome
)

func palette() color.Palette {
	return color.Palette{
		color.RGBA{255, 255, 255, 255}, // background
		color.RGBA{33, 33, 33, 255},    // ink
		color.RGBA{117, 117, 117, 255}, // faint: hints, labels
		color.RGBA{176, 190, 197, 255}, // outline
		color.RGBA{227, 242, 253, 255}, // button
		color.RGBA{25, 118, 210, 255},  // focus
		color.RGBA{187, 222, 251, 255}, // focus fill
		color.RGBA{224, 224, 224, 255}, // disabled
		color.RGBA{158, 158, 158, 255}, // disabled text
		color.RGBA{46, 125, 50, 255},   // checked
		color.RGBA{255, 243, 224, 255}, // zoomable
		color.RGBA{239, 108, 0, 255},   // zoomable outline
		color.RGBA{96, 125, 139, 255},  // scroll thumb
		color.RGBA{207, 216, 220, 255}, // keyboard
		color.RGBA{38, 50, 56, 255},    // home screen
	}
}

// canvas draws boxes and text at a fixed integer scale-down of the screen.
type canvas struct {
	img    *image.Paletted
	pal    color.Palette
	factor int
}

// maxShotSide bounds the screenshot's longer side. A phone screen is drawn
// at 1/ceil(side/1000) of its size (a 1080x2400 Android screen becomes
// 360x800, a 390x844 iPhone stays 1:1), with the text at the font's own
// size, so files stay small and the text legible.
const maxShotSide = 1000

func newCanvas(w, h int) *canvas {
	f := max(1, (max(w, h)+maxShotSide-1)/maxShotSide)
	pal := palette()
	return &canvas{img: image.NewPaletted(image.Rect(0, 0, ceilDiv(w, f), ceilDiv(h, f)), pal), pal: pal, factor: f}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// scale maps a screen rectangle to canvas pixels, keeping at least one.
func (c *canvas) scale(r image.Rectangle) image.Rectangle {
	s := image.Rect(floorDiv(r.Min.X, c.factor), floorDiv(r.Min.Y, c.factor), ceilDivSigned(r.Max.X, c.factor), ceilDivSigned(r.Max.Y, c.factor))
	return s.Intersect(image.Rect(-1<<20, -1<<20, 1<<20, 1<<20))
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func ceilDivSigned(a, b int) int { return -floorDiv(-a, b) }

// fill paints r, clipped to clip and the canvas.
func (c *canvas) fill(r, clip image.Rectangle, col ink) {
	r = r.Intersect(clip).Intersect(c.img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[c.img.PixOffset(r.Min.X, y):c.img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = uint8(col)
		}
	}
}

// frame draws a border of width w inside r.
func (c *canvas) frame(r, clip image.Rectangle, w int, col ink) {
	c.fill(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), clip, col)
	c.fill(image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), clip, col)
	c.fill(image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), clip, col)
	c.fill(image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), clip, col)
}

// text draws s from x, vertically centred in r, clipped to r and clip.
func (c *canvas) text(s string, x int, r, clip image.Rectangle, col ink) {
	area := r.Intersect(clip).Intersect(c.img.Bounds())
	if area.Empty() || s == "" {
		return
	}
	face := basicfont.Face7x13
	base := r.Min.Y + (r.Dy()+face.Ascent-face.Descent)/2
	dst, ok := c.img.SubImage(area).(draw.Image)
	if !ok {
		return
	}
	dr := font.Drawer{Dst: dst, Src: image.NewUniform(c.pal[col]), Face: face,
		Dot: fixed.P(x, base)}
	dr.DrawString(s)
}

// centred draws s centred horizontally in r.
func (c *canvas) centred(s string, r, clip image.Rectangle, col ink) {
	w := len([]rune(s)) * basicfont.Face7x13.Advance
	c.text(s, r.Min.X+(r.Dx()-w)/2, r, clip, col)
}

// encodePNG encodes a drawn screen as a paletted PNG; the same pixels always give
// the same bytes.
func encodePNG(img *image.Paletted) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
