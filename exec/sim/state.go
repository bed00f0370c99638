package sim

import "time"

// process is one installed app and everything sim remembers about it.
// Navigation (the back stack, focus, the keyboard) and element state (text,
// checked, visibility, scroll offsets, zoom) live as long as the process, as
// a real app's views do: stopApp, or backing out of the first screen,
// starts the next launch from the model. Elements marked persist: true
// keep their state like an app's saved preferences, until clearState.
// Without that split, flows run one after another on one device would see
// each other's leftovers (a size ticked by one flow unticked by the next).
type process struct {
	model   *App
	screens map[string]*Screen
	ids     map[*Screen]map[string]*Element
	state   map[*Element]*elemState
	// stack is the back stack, top last; empty when the app is not running.
	stack    []*entry
	keyboard bool
}

// entry is one screen on the back stack.
type entry struct {
	screen *Screen
	// enteredAt is when the screen was pushed; appearAfterMs counts from
	// it, and going back to a screen does not restart it.
	enteredAt time.Time
	focused   *Element
}

// elemState is what taps, typing and gestures change about an element.
type elemState struct {
	text    string
	checked bool
	visible bool
	// offset is the scroll offset along the container's axis, in whole
	// grid units as Android reports them.
	offset   int
	scale    float64
	rotation float64 // degrees, clockwise on screen
}

func newProcess(app *App) *process {
	p := &process{model: app, screens: map[string]*Screen{}, ids: map[*Screen]map[string]*Element{},
		state: map[*Element]*elemState{}}
	for _, s := range app.Screens {
		p.screens[s.Name] = s
		ids := map[string]*Element{}
		walkModel(s.Elements, nil, func(e, _ *Element) {
			if e.ID != "" {
				ids[e.ID] = e
			}
		})
		p.ids[s] = ids
	}
	return p
}

// of is an element's state, created from the model on first use.
func (p *process) of(e *Element) *elemState {
	st := p.state[e]
	if st == nil {
		fresh := initial(e)
		st = &fresh
		p.state[e] = st
	}
	return st
}

// initial is an element's state as its model describes it, before anything
// happened to it.
func initial(e *Element) elemState {
	return elemState{text: e.Text, checked: e.Checked != nil && *e.Checked, visible: e.Visible, scale: 1}
}

func (p *process) running() bool { return len(p.stack) > 0 }

func (p *process) top() *entry {
	if len(p.stack) == 0 {
		return nil
	}
	return p.stack[len(p.stack)-1]
}

// push opens a screen on top of the stack; a new screen never opens with
// the keyboard up.
func (p *process) push(s *Screen, now time.Time) {
	e := &entry{screen: s, enteredAt: now}
	walkModel(s.Elements, nil, func(el, _ *Element) {
		if el.Focused {
			e.focused = el
		}
	})
	p.stack = append(p.stack, e)
	p.keyboard = false
}

// stop ends the process: the next launch starts at the start screen and
// every element not marked persist starts from the model again.
func (p *process) stop() {
	p.stack = nil
	p.keyboard = false
	for e := range p.state {
		if !e.Persist {
			delete(p.state, e)
		}
	}
}

// clear is clearState: the process stops and every element, persisted or
// not, forgets what happened to it.
func (p *process) clear() {
	p.stop()
	p.state = map[*Element]*elemState{}
}

// find is the element with id on screen s.
func (p *process) find(s *Screen, id string) *Element { return p.ids[s][id] }

// focusedField is the focused element when it takes text, else nil.
func (p *process) focusedField() *Element {
	if e := p.top(); e != nil && e.focused != nil && e.focused.Editable {
		return e.focused
	}
	return nil
}
