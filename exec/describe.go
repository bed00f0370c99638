package exec

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// describe is the step text shown while a flow runs and in reports, close
// to Maestro's wording; a label replaces it.
func (r *run) describe(_ context.Context, c canonical.Command) string {
	if l := c.Base().Label; l != "" {
		return l
	}
	sel := describeSelector
	opt := ""
	if c.Base().Optional {
		opt = "(Optional) "
	}
	switch t := c.(type) {
	case *canonical.LaunchApp:
		return fmt.Sprintf("Launch app %q", t.AppID.Raw)
	case *canonical.StopApp:
		if t.Kill {
			return "Kill " + t.AppID.Raw
		}
		return "Stop " + t.AppID.Raw
	case *canonical.ClearState:
		return "Clear state of " + t.AppID.Raw
	case *canonical.OpenLink:
		return "Open " + t.Link.Raw
	case *canonical.Tap:
		verb := map[canonical.TapMode]string{canonical.TapSingle: "Tap on", canonical.TapDouble: "Double tap on", canonical.TapLong: "Long press on"}[t.Mode]
		if t.Point != nil {
			return fmt.Sprintf("%s point (%s)", verb, t.Point.Raw)
		}
		return fmt.Sprintf("%s %s%s", verb, opt, sel(t.Selector))
	case *canonical.Assert:
		var parts []string
		if t.Visible != nil {
			parts = append(parts, sel(t.Visible)+" is visible")
		}
		if t.NotVisible != nil {
			parts = append(parts, sel(t.NotVisible)+" is not visible")
		}
		return "Assert that " + opt + strings.Join(parts, " and ")
	case *canonical.AssertTrue:
		return "Assert that " + t.Condition.Raw + " is true"
	case *canonical.InputText:
		return "Input text " + t.Text.Raw
	case *canonical.InputRandom:
		return "Input text random " + strings.ToUpper(t.Type)
	case *canonical.EraseText:
		return fmt.Sprintf("Erase %d characters", t.Count)
	case *canonical.CopyText:
		return "Copy text from element with " + sel(&t.Selector)
	case *canonical.PressKey:
		return "Press " + t.Key + " key"
	case *canonical.Simple:
		return map[string]string{"back": "Press back", "hideKeyboard": "Hide Keyboard", "pasteText": "Paste text",
			"clearKeychain": "Clear keychain", "stopRecording": "Stop recording", "toggleAirplaneMode": "Toggle airplane mode"}[t.Action]
	case *canonical.Swipe:
		if t.Description != "" {
			return t.Description
		}
		return "Swipe"
	case *canonical.ScrollUntilVisible:
		return fmt.Sprintf("Scrolling %s until %s is visible.", strings.ToUpper(t.Direction), sel(&t.Element))
	case *canonical.WaitForAnimation:
		return "Wait for animation to end"
	case *canonical.TakeScreenshot:
		return "Take screenshot " + t.Path.Raw
	case *canonical.StartRecording:
		return "Start recording " + t.Path.Raw
	case *canonical.SetLocation:
		return fmt.Sprintf("Set location (%s, %s)", t.Latitude.Raw, t.Longitude.Raw)
	case *canonical.Travel:
		return "Travel path"
	case *canonical.AddMedia:
		return fmt.Sprintf("Adding media files(%d) to the device", len(t.Files))
	case *canonical.SetPermissions:
		return "Set permissions " + permissionText(t.Permissions)
	case *canonical.SetOrientation:
		return "Set orientation " + t.Orientation.Raw
	case *canonical.AssertScreenshot:
		return describeAssertScreenshot(t.Path.Raw, t.ThresholdPercentage)
	case *canonical.SetClipboard:
		return "Set clipboard to " + t.Text.Raw
	case *canonical.SetAirplaneMode:
		if t.Enabled {
			return "Enable airplane mode"
		}
		return "Disable airplane mode"
	case *canonical.RunFlow:
		what := "Run flow"
		if t.File != "" {
			what = "Run " + t.File
		}
		if t.When != nil {
			what += " when condition"
		}
		return what
	case *canonical.Repeat:
		switch {
		case t.While != nil && t.Times != nil:
			return "Repeat while condition (up to " + t.Times.Raw + " times)"
		case t.While != nil:
			return "Repeat while condition"
		case t.Times != nil:
			return "Repeat " + t.Times.Raw + " times"
		}
		return "Repeat indefinitely"
	case *canonical.Retry:
		return "Retry " + t.MaxRetries.Raw + " times"
	case *canonical.RunScript:
		return "Run " + t.File
	case *canonical.EvalScript:
		return "Run " + t.Script.Raw
	case *canonical.GestureStep:
		data, _ := t.Input.MarshalJSON()
		return "Gesture " + string(t.Input.Kind) + " " + string(data)
	case *canonical.SwipeSeries:
		return fmt.Sprintf("Swipe from (%s,%s) to (%s,%s) x%d", canonical.FormatNumber(t.Swipe.From.X), canonical.FormatNumber(t.Swipe.From.Y),
			canonical.FormatNumber(t.Swipe.To.X), canonical.FormatNumber(t.Swipe.To.Y), t.Swipe.Count)
	case *canonical.Drag:
		return "Drag " + describeSelector(&t.Source) + " to " + describeSelector(&t.Destination)
	case *canonical.AI:
		return t.Action + ": " + t.Prompt.Raw
	}
	return c.Kind()
}

// describeSelector describes a selector as written, without evaluating
// its templates: describing a step must not run its scripts.
func describeSelector(s *canonical.Selector) string {
	if s == nil {
		return ""
	}
	q := &query{width: s.Width, height: s.Height, enabled: s.Enabled, selected: s.Selected,
		checked: s.Checked, focused: s.Focused, traits: s.Traits}
	if s.Text != nil {
		q.text = &pattern{raw: s.Text.Raw}
	}
	if s.ID != nil {
		q.id = &pattern{raw: s.ID.Raw}
	}
	text := q.describe()
	var rel []string
	for _, r := range []struct {
		name string
		s    *canonical.Selector
	}{{"Below", s.Below}, {"Above", s.Above}, {"Left of", s.LeftOf}, {"Right of", s.RightOf},
		{"Contains child:", s.ContainsChild}, {"Child of:", s.ChildOf}} {
		if r.s != nil {
			rel = append(rel, r.name+" "+describeSelector(r.s))
		}
	}
	if s.Index != nil {
		rel = append(rel, "Index: "+s.Index.Raw)
	}
	if s.CSS != nil {
		rel = append(rel, "CSS: "+s.CSS.Raw)
	}
	if len(rel) == 0 {
		return text
	}
	if text == "any element" {
		return strings.Join(rel, ", ")
	}
	return text + ", " + strings.Join(rel, ", ")
}

// permissionText is a permission map in a stable order: name=value, ...
func permissionText(perms map[string]string) string {
	names := make([]string, 0, len(perms))
	for k := range perms {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		names[i] = k + "=" + perms[k]
	}
	return strings.Join(names, ", ")
}
