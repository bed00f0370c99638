package sim

// run performs an element's actions in order. Targets are ids on the
// screen the element belongs to, even after a goto in the same list moved
// the app elsewhere; once an action has left the app the rest are dropped,
// as a finished app runs no more code.
func (d *Device) run(proc *process, src *Element, actions []Action) {
	screen := proc.top().screen
	for _, a := range actions {
		if d.front != proc {
			return
		}
		switch {
		case a.Goto != "":
			d.navigate(proc, proc.screens[a.Goto], src)
		case a.Back:
			d.pop(proc, src)
		default:
			d.change(proc, proc.find(screen, a.target()), a)
		}
	}
}

// change applies setText, toggle, show or hide to target.
func (d *Device) change(proc *process, target *Element, a Action) {
	if target == nil {
		return // LoadApp refuses unknown targets; a hand-built App may still have one
	}
	st := proc.of(target)
	switch {
	case a.SetText != nil:
		st.text = a.SetText.Text
		d.observe(target, "text", map[string]any{"text": st.text})
	case a.Toggle != "":
		d.toggle(proc, target)
	case a.Show != "":
		st.visible = true
		d.observe(target, "show", nil)
	case a.Hide != "":
		st.visible = false
		d.observe(target, "hide", nil)
	}
}

// navigate pushes screen s; the keyboard goes down with the old screen.
func (d *Device) navigate(proc *process, s *Screen, src *Element) {
	if s == nil {
		return
	}
	proc.push(s, d.clock.Now())
	d.observe(src, "navigate", map[string]any{"screen": s.Name})
}

// pop goes back one screen; on the first screen it leaves the app, which
// finishes (Android's back on a task's root activity), leaving the home
// screen in front.
func (d *Device) pop(proc *process, src *Element) {
	proc.keyboard = false
	if len(proc.stack) > 1 {
		proc.stack = proc.stack[:len(proc.stack)-1]
		d.observe(src, "navigate", map[string]any{"screen": proc.top().screen.Name})
		return
	}
	proc.stop()
	d.leave(proc, src)
}

// leave puts the home screen in front of proc.
func (d *Device) leave(proc *process, src *Element) {
	if d.front == proc {
		d.front = nil
	}
	d.observe(src, "exit", map[string]any{"appId": proc.model.AppID})
}
