package sim

import (
	"context"
	"fmt"
	"image"

	"golang.org/x/image/font/basicfont"

	"github.com/flow-runner/flow/canonical"
)

// Screenshot is a PNG of the screen drawn from the same layout as the
// hierarchy: every element's box with its text (or hint or label), the
// focused field highlighted, disabled elements greyed, checkboxes, scroll
// thumbs, zoom state and the keyboard when it is up. Large screens are
// scaled down by an integer factor (see maxShotSide). The same state always
// gives the same bytes, which settle and retry checks rely on.
func (d *Device) Screenshot(ctx context.Context) ([]byte, error) {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return nil, err
	}
	data, err := encodePNG(d.render())
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "cannot encode the screenshot: %v", err).Wrap(err)
	}
	return data, nil
}

// render draws the screen; the caller holds the lock.
func (d *Device) render() *image.Paletted {
	vp := d.screenApp().model.Viewport
	c := newCanvas(vp.Width, vp.Height)
	if d.front == nil {
		d.drawHome(c)
	} else {
		d.drawApp(c, d.front)
	}
	return c.img
}

func (d *Device) drawHome(c *canvas) {
	all := c.img.Bounds()
	c.fill(all, all, colHome)
	line := basicfont.Face7x13.Height * 2
	row := image.Rect(0, all.Dy()/3, all.Dx(), all.Dy()/3+line)
	c.centred("home screen", row, all, colBackground)
	for _, id := range d.appIDs() {
		row = row.Add(image.Point{Y: line})
		c.centred(id, row, all, colOutline)
	}
}

func (d *Device) drawApp(c *canvas, proc *process) {
	focused := proc.top().focused
	walkPlaced(layout(proc, d.clock.Now()), func(n *placed) { drawElement(c, n, n.el == focused) })
	if proc.keyboard {
		drawKeyboard(c)
	}
}

// drawElement draws one element inside its scroll containers' clip.
func drawElement(c *canvas, n *placed, focused bool) {
	el, st := n.el, n.st
	r, clip := c.scale(n.rect), c.scale(n.clip)
	fill, outline, fg := ink(255), colOutline, colInk
	switch {
	case !el.Enabled:
		fill, fg = colDisabled, colDisabledFg
	case focused:
		fill, outline = colFocusFill, colFocus
	case el.Zoomable:
		fill, outline = colZoom, colZoomLine
	case len(el.OnTap) > 0 || len(el.OnLongPress) > 0:
		fill = colButton
	case el.Editable:
		fill = colBackground
	}
	if fill != 255 {
		c.fill(r, clip, fill)
	}
	width := 1
	if focused {
		width = 2
	}
	c.frame(r, clip, width, outline)
	x := r.Min.X + 4
	if el.Checkable() {
		x = drawCheckbox(c, r, clip, st.checked) + 4
	}
	text, col := caption(n)
	if !el.Enabled {
		col = fg
	}
	c.text(text, x, r, clip, col)
	if el.Scroll != nil {
		drawThumb(c, n, r, clip)
	}
	if el.Zoomable && (st.scale != 1 || st.rotation != 0) {
		z := fmt.Sprintf("x%.2f %.0fdeg", st.scale, st.rotation)
		c.text(z, x, image.Rect(r.Min.X, r.Max.Y-16, r.Max.X, r.Max.Y), clip, colZoomLine)
	}
}

// caption is what an element shows: its text, else its hint or label in
// the faint colour.
func caption(n *placed) (string, ink) {
	switch {
	case n.st.text != "":
		return n.st.text, colInk
	case n.el.Hint != "":
		return n.el.Hint, colFaint
	}
	return n.el.Label, colFaint
}

// drawCheckbox draws a box at the left of r, filled when checked, and
// returns where the text goes.
func drawCheckbox(c *canvas, r, clip image.Rectangle, checked bool) int {
	const size = 9
	y := r.Min.Y + (r.Dy()-size)/2
	box := image.Rect(r.Min.X+4, y, r.Min.X+4+size, y+size)
	c.frame(box, clip, 1, colInk)
	if checked {
		c.fill(box.Inset(2), clip, colChecked)
	}
	return box.Max.X
}

// drawThumb draws the scroll position along the container's far edge.
func drawThumb(c *canvas, n *placed, r, clip image.Rectangle) {
	s := n.el.Scroll
	if s.ContentSize <= 0 {
		return
	}
	if s.Axis == AxisHorizontal {
		track := r.Dx()
		size := max(4, track*n.el.Bounds.Width()/s.ContentSize)
		at := r.Min.X + track*n.st.offset/s.ContentSize
		c.fill(image.Rect(at, r.Max.Y-4, at+size, r.Max.Y-1), clip, colThumb)
		return
	}
	track := r.Dy()
	size := max(4, track*n.el.Bounds.Height()/s.ContentSize)
	at := r.Min.Y + track*n.st.offset/s.ContentSize
	c.fill(image.Rect(r.Max.X-4, at, r.Max.X-1, at+size), clip, colThumb)
}

// drawKeyboard draws a QWERTY keyboard over the bottom 38% of the screen,
// about where a phone keyboard sits.
func drawKeyboard(c *canvas) {
	all := c.img.Bounds()
	top := all.Max.Y - all.Dy()*38/100
	c.fill(image.Rect(0, top, all.Dx(), all.Max.Y), all, colKeyboard)
	rows := []string{"qwertyuiop", "asdfghjkl", "zxcvbnm", " "}
	keyW := all.Dx() / 10
	rowH := (all.Max.Y - top) / len(rows)
	for i, row := range rows {
		keys := []rune(row)
		w := keyW
		if row == " " {
			w = keyW * 5
		}
		left := (all.Dx() - w*len(keys)) / 2
		y := top + i*rowH
		for j, k := range keys {
			key := image.Rect(left+j*w+2, y+3, left+(j+1)*w-2, y+rowH-3)
			c.fill(key, all, colBackground)
			c.centred(string(k), key, all, colInk)
		}
	}
}
