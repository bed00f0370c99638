package sim

import (
	"fmt"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// validate checks what the grammar cannot: names that must refer to
// something, ids that must be unique, children that must fit their scroll
// content. Each error points at the offending value.
func validate(app *App) error {
	screens := map[string]*Screen{}
	var names []string
	for _, s := range app.Screens {
		if first, dup := screens[s.Name]; dup {
			return invalidAt(s.Pos, "give each screen its own name",
				"duplicate screen %q (first given at line %d)", s.Name, first.Pos.Line)
		}
		screens[s.Name] = s
		names = append(names, s.Name)
	}
	if screens[app.Start] == nil {
		return invalidAt(app.startPos, pickHint(app.Start, names), "start screen %q is not one of the screens", app.Start)
	}
	for _, l := range app.Links {
		if screens[l.Screen] == nil {
			return invalidAt(l.Pos, pickHint(l.Screen, names), "link %q opens unknown screen %q", l.URL, l.Screen)
		}
	}
	for _, s := range app.Screens {
		if err := validateScreen(s, screens, names); err != nil {
			return err
		}
	}
	return nil
}

func validateScreen(s *Screen, screens map[string]*Screen, names []string) error {
	ids := map[string]*Element{}
	var idList []string
	var focused *Element
	var firstErr error
	walkModel(s.Elements, nil, func(e, container *Element) {
		if firstErr != nil {
			return
		}
		if e.ID != "" {
			if first, dup := ids[e.ID]; dup {
				firstErr = invalidAt(e.Pos, "ids name one element per screen; rename one of them",
					"duplicate id %q on screen %s (first given at line %d)", e.ID, s.Name, first.Pos.Line)
				return
			}
			ids[e.ID] = e
			idList = append(idList, e.ID)
		}
		if e.Focused {
			if focused != nil {
				firstErr = invalidAt(e.Pos, "one element has focus when a screen opens; keep focused: true on one",
					"screen %s has two focused elements (the first at line %d)", s.Name, focused.Pos.Line)
				return
			}
			focused = e
		}
		if container != nil {
			firstErr = fitsContent(e, container)
		}
	})
	if firstErr != nil {
		return firstErr
	}
	var err error
	walkModel(s.Elements, nil, func(e, _ *Element) {
		for _, list := range [][]Action{e.OnTap, e.OnLongPress} {
			for _, a := range list {
				if err == nil {
					err = validateAction(a, s, ids, idList, screens, names)
				}
			}
		}
	})
	return err
}

func validateAction(a Action, s *Screen, ids map[string]*Element, idList []string, screens map[string]*Screen, names []string) error {
	if a.Goto != "" && screens[a.Goto] == nil {
		return invalidAt(a.Pos, pickHint(a.Goto, names), "goto names unknown screen %q", a.Goto)
	}
	id := a.target()
	if id == "" {
		return nil
	}
	target := ids[id]
	if target == nil {
		hint := "actions change elements of their own screen; ids on " + s.Name + ": " + strings.Join(idList, ", ")
		if near := canonical.Closest(id, idList); near != "" {
			hint = fmt.Sprintf("did you mean %q? %s", near, hint)
		}
		return invalidAt(a.Pos, hint, "action names unknown element %q on screen %s", id, s.Name)
	}
	if a.Toggle != "" && !target.Checkable() {
		return invalidAt(a.Pos, "give "+id+" a checked state, for example checked: false",
			"toggle names %q, which is not checkable", id)
	}
	return nil
}

// fitsContent checks a scroll container's child against the content: along
// the axis it must lie in [0, content size], across it in the container.
func fitsContent(e, c *Element) error {
	b := e.Bounds
	along, across := [2]int{b[1], b[3]}, [2]int{b[0], b[2]}
	limit, cross := c.Scroll.ContentSize, c.Bounds.Width()
	key := "contentHeight"
	if c.Scroll.Axis == AxisHorizontal {
		along, across = across, along
		cross = c.Bounds.Height()
		key = "contentWidth"
	}
	if along[0] < 0 || along[1] > limit || across[0] < 0 || across[1] > cross {
		return invalidAt(e.Pos, fmt.Sprintf("children of a scroll container use content coordinates: (0,0) is its top-left at offset 0, "+
			"and they must fit %s %d and the container's %d px across", key, limit, cross),
			"element %s at [%d, %d, %d, %d] lies outside the content of %s",
			describeElement(e), b[0], b[1], b[2], b[3], describeElement(c))
	}
	return nil
}

// walkModel visits every element in document order with its nearest scroll
// container parent (nil when its parent does not scroll).
func walkModel(list []*Element, container *Element, visit func(e, container *Element)) {
	for _, e := range list {
		visit(e, container)
		next := (*Element)(nil)
		if e.Scroll != nil {
			next = e
		}
		walkModel(e.Elements, next, visit)
	}
}

func pickHint(name string, names []string) string {
	hint := "screens: " + strings.Join(names, ", ")
	if near := canonical.Closest(name, names); near != "" {
		hint = fmt.Sprintf("did you mean %q? %s", near, hint)
	}
	return hint
}

func invalidAt(pos canonical.Pos, hint, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).At(pos).WithHint(hint)
}
