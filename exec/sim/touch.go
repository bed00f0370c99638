package sim

import (
	"context"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// Tap is a finger down and up at p. It goes to the deepest element under p
// that handles taps (onTap, an editable field, a checkable element), else
// to the deepest element under p; a disabled element takes the tap, as a
// disabled Android view consumes it, and does nothing.
func (d *Device) Tap(ctx context.Context, p canonical.Point) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := d.checkPoint(p, "tap"); err != nil {
		return err
	}
	if err := d.spend(ctx, tapCostMs); err != nil {
		return err
	}
	d.tap(p)
	return nil
}

// LongPress holds a finger at p. A hold shorter than the long-press timeout
// is a tap, as on both platforms; a longer one goes to the deepest element
// with onLongPress, else the deepest element under p.
func (d *Device) LongPress(ctx context.Context, p canonical.Point, hold time.Duration) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := d.checkPoint(p, "long press"); err != nil {
		return err
	}
	if err := d.spend(ctx, int(hold.Milliseconds())); err != nil {
		return err
	}
	if hold < longPressTimeoutMs*time.Millisecond {
		d.tap(p)
		return nil
	}
	proc := d.front
	if proc == nil {
		return nil
	}
	nodes := layout(proc, d.clock.Now())
	n := handlerAt(nodes, p, func(n *placed) bool { return len(n.el.OnLongPress) > 0 })
	if n == nil {
		n = deepestAt(nodes, p)
	}
	if n == nil || !d.received(n.el, "longPress") {
		return nil
	}
	d.run(proc, n.el, n.el.OnLongPress)
	return nil
}

func tapHandler(n *placed) bool {
	return len(n.el.OnTap) > 0 || n.el.Editable || n.el.Checkable()
}

func (d *Device) tap(p canonical.Point) {
	proc := d.front
	if proc == nil {
		return
	}
	nodes := layout(proc, d.clock.Now())
	n := handlerAt(nodes, p, tapHandler)
	if n == nil {
		n = deepestAt(nodes, p)
	}
	if n == nil || !d.received(n.el, "tap") {
		return
	}
	el := n.el
	if el.Editable {
		d.focus(proc, el)
	}
	switch {
	case len(el.OnTap) > 0:
		d.run(proc, el, el.OnTap)
	case el.Checkable() && !el.Editable:
		d.toggle(proc, el)
	}
}

// received records that el saw a touch and reports whether it reacts:
// a disabled element is observed with "enabled": false and does nothing.
func (d *Device) received(el *Element, event string) bool {
	if !el.Enabled {
		d.observe(el, event, map[string]any{"enabled": false})
		return false
	}
	d.observe(el, event, nil)
	return true
}

// focus gives an editable field focus and brings up the keyboard.
func (d *Device) focus(proc *process, el *Element) {
	top := proc.top()
	proc.keyboard = true
	if top.focused != el {
		top.focused = el
		d.observe(el, "focus", nil)
	}
}

func (d *Device) toggle(proc *process, el *Element) {
	st := proc.of(el)
	st.checked = !st.checked
	d.observe(el, "toggle", map[string]any{"checked": st.checked})
}

// checkPoint refuses a touch off the screen: a real device would drop it,
// and a flow that taps there has a bug worth reporting. The far edges
// belong to the screen: Maestro maps point "100%,100%" to (width, height)
// and taps there (IntegrationTest "Case 071 - Tap on relative point"). Such
// a tap reaches the device but no element, since element bounds leave out
// their bottom-right edges.
func (d *Device) checkPoint(p canonical.Point, what string) error {
	vp := d.viewport()
	if !canonical.IsFinite(p.X) || !canonical.IsFinite(p.Y) {
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s point is not a finite number", what).
			WithHint("tap coordinates must be ordinary numbers")
	}
	if p.X < 0 || p.Y < 0 || p.X > vp.Width || p.Y > vp.Height {
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s at (%g, %g) is outside the %gx%g screen", what, p.X, p.Y, vp.Width, vp.Height).
			With("point", p).With("viewport", vp).
			WithHint("tap inside the screen; element centres off screen need a scroll first")
	}
	return nil
}
