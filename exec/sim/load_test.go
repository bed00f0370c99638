package sim_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/sim"
)

// mini is a small valid model; extra is spliced into home's elements.
func mini(extra string) string {
	return `appId: com.example.mini
platform: ios
viewport: {width: 390, height: 844}
start: home
screens:
  - name: home
    elements:
      - {id: title, text: Mini, bounds: [0, 50, 390, 100]}
      - {id: go, text: Go, bounds: [20, 120, 370, 170], onTap: {goto: next}}
` + extra + `  - name: next
    elements:
      - {id: back, label: Back, bounds: [0, 50, 80, 100], onTap: {back: true}}
links: {"mini://next": next}
`
}

func TestLoadAppEveryFeature(t *testing.T) {
	t.Parallel()
	src := mini(`      - &row {id: remember, text: Remember, bounds: [20, 200, 370, 250], checked: false, selected: true, persist: true,
          onTap: [{toggle: remember}, {setText: {element: title, text: 42}}, {show: later}], onLongPress: {hide: title}}
      - {id: later, text: Later, bounds: [20, 260, 370, 300], visible: false, appearAfterMs: 1_500, enabled: false}
      - {id: name, hint: Name, label: Your name, bounds: [20, 320, 370, 370], editable: true, focused: true}
      - id: list
        bounds: [0, 400, 390, 800]
        scroll: {axis: vertical, contentHeight: 1200}
        elements:
          - {id: row_0, text: Row 0, bounds: [0, 0, 390, 100]}
          - {<<: *row, id: row_1, bounds: [0, 1100, 390, 1200], onTap: {goto: next}}
      - {id: photo, bounds: [0, 0, 10, 10], zoomable: true}
`)
	app, err := sim.LoadApp("mini.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	snaps.MatchJSON(t, app)
}

func TestDemoAppLoads(t *testing.T) {
	t.Parallel()
	app := sim.DemoApp()
	if app.AppID != "com.example.shop" || app.Platform != "android" || app.Viewport != (sim.Size{Width: 1080, Height: 2400}) {
		t.Fatalf("demo app header: %+v", app)
	}
	// One line per screen: its name and every id in document order, so a
	// change to the model the flows rely on shows up in review.
	var summary []string
	for _, s := range app.Screens {
		line := s.Name + ":"
		var walk func([]*sim.Element)
		walk = func(list []*sim.Element) {
			for _, e := range list {
				line += " " + e.ID
				walk(e.Elements)
			}
		}
		walk(s.Elements)
		summary = append(summary, line)
	}
	for _, l := range app.Links {
		summary = append(summary, l.URL+" -> "+l.Screen)
	}
	snaps.MatchSnapshot(t, strings.Join(summary, "\n"))
	if string(sim.DemoAppYAML()) == "" || sim.DemoApp() == app {
		t.Fatal("DemoApp must parse a fresh copy of a non-empty embedded file")
	}
}

func TestLoadAppErrors(t *testing.T) {
	t.Parallel()
	header := "appId: a\nplatform: android\nviewport: {width: 100, height: 200}\nstart: s\n"
	screen := "screens:\n  - name: s\n    elements:\n      - {id: a, bounds: [0, 0, 10, 10]}\n"
	for _, tc := range []struct{ name, src string }{
		{"empty_file", ""},
		{"not_yaml", "appId: a\nplatform: ios\nviewport: [1, 2\nstart: home\n"},
		{"bad_indentation", "appId: a\nplatform: ios\n  start: home\n"},
		{"two_documents", header + screen + "---\nappId: b\n"},
		{"not_a_mapping", "- appId\n"},
		{"unknown_top_key", strings.Replace(mini(""), "appId:", "appID:", 1)},
		{"missing_platform", strings.Replace(mini(""), "platform: ios\n", "", 1)},
		{"bad_platform", strings.Replace(mini(""), "platform: ios", "platform: windows", 1)},
		{"viewport_zero", strings.Replace(mini(""), "width: 390", "width: 0", 1)},
		{"viewport_missing_height", strings.Replace(mini(""), ", height: 844", "", 1)},
		{"start_unknown", strings.Replace(mini(""), "start: home", "start: hom", 1)},
		{"duplicate_screen", strings.Replace(mini(""), "name: next", "name: home", 1)},
		{"screen_without_name", header + "screens:\n  - elements: []\n"},
		{"link_unknown_screen", strings.Replace(mini(""), `"mini://next": next`, `"mini://next": nxt`, 1)},
		{"link_not_a_mapping", strings.Replace(mini(""), `links: {"mini://next": next}`, `links: [next]`, 1)},
		{"duplicate_link", strings.Replace(mini(""), `{"mini://next": next}`, `{"mini://next": next, "mini://next": home}`, 1)},
		{"duplicate_key", mini("      - {id: x, id: y, bounds: [0, 0, 1, 1]}\n")},
		{"unknown_element_key", mini("      - {id: x, bounds: [0, 0, 1, 1], onTpa: {goto: next}}\n")},
		{"element_not_a_mapping", mini("      - just text\n")},
		{"missing_bounds", mini("      - {id: x, text: X}\n")},
		{"bounds_three_numbers", mini("      - {id: x, bounds: [0, 0, 1]}\n")},
		{"bounds_not_a_number", mini("      - {id: x, bounds: [0, 0, wide, 1]}\n")},
		{"bounds_fraction", mini("      - {id: x, bounds: [0, 0, 1.5, 1]}\n")},
		{"bounds_empty", mini("      - {id: x, bounds: [100, 10, 50, 20]}\n")},
		{"enabled_not_bool", mini("      - {id: x, bounds: [0, 0, 1, 1], enabled: yes please}\n")},
		{"appear_negative", mini("      - {id: x, bounds: [0, 0, 1, 1], appearAfterMs: -5}\n")},
		{"empty_id", mini("      - {id: \"\", bounds: [0, 0, 1, 1]}\n")},
		{"duplicate_id", mini("      - {id: title, bounds: [0, 0, 1, 1]}\n")},
		{"duplicate_id_nested", mini("      - {id: box, bounds: [0, 0, 9, 9], elements: [{id: go, bounds: [0, 0, 1, 1]}]}\n")},
		{"two_focused", mini("      - {id: x, bounds: [0, 0, 1, 1], focused: true}\n      - {id: y, bounds: [0, 0, 1, 1], focused: true}\n")},
		{"goto_unknown_screen", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {goto: nxt}}\n")},
		{"toggle_unknown_element", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {toggle: titel}}\n")},
		{"show_other_screens_element", mini("      - {id: x, bounds: [0, 0, 1, 1], onLongPress: {show: back}}\n")},
		{"toggle_not_checkable", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {toggle: title}}\n")},
		{"set_text_unknown_element", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: [{goto: next}, {setText: {element: nope, text: t}}]}\n")},
		{"set_text_without_text", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {setText: {element: title}}}\n")},
		{"two_actions_in_one_mapping", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {goto: next, back: true}}\n")},
		{"unknown_action", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {open: next}}\n")},
		{"back_false", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: {back: false}}\n")},
		{"action_not_a_mapping", mini("      - {id: x, bounds: [0, 0, 1, 1], onTap: next}\n")},
		{"scroll_without_axis", mini("      - {id: x, bounds: [0, 0, 1, 1], scroll: {contentHeight: 10}}\n")},
		{"scroll_bad_axis", mini("      - {id: x, bounds: [0, 0, 1, 1], scroll: {axis: diagonal, contentHeight: 10}}\n")},
		{"scroll_without_size", mini("      - {id: x, bounds: [0, 0, 1, 1], scroll: {axis: horizontal}}\n")},
		{"scroll_size_for_other_axis", mini("      - {id: x, bounds: [0, 0, 1, 1], scroll: {axis: vertical, contentWidth: 10}}\n")},
		{"scroll_both_sizes", mini("      - {id: x, bounds: [0, 0, 1, 1], scroll: {axis: vertical, contentHeight: 10, contentWidth: 10}}\n")},
		{"scroll_child_outside_content", mini("      - id: list\n        bounds: [0, 400, 390, 800]\n" +
			"        scroll: {axis: vertical, contentHeight: 1200}\n        elements:\n          - {id: last, bounds: [0, 1150, 390, 1250]}\n")},
		{"scroll_child_wider_than_container", mini("      - id: list\n        bounds: [0, 400, 390, 800]\n" +
			"        scroll: {axis: vertical, contentHeight: 1200}\n        elements:\n          - {id: wide, bounds: [0, 0, 400, 100]}\n")},
		{"elements_not_a_list", header + "screens:\n  - name: s\n    elements: {id: a}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app, err := sim.LoadApp("app.yaml", []byte(tc.src))
			if err == nil {
				t.Fatalf("loaded %+v, want an error", app)
			}
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Hint == "" || ce.Pos.File != "app.yaml" {
				t.Fatalf("want INVALID_ARGS with a hint and the file, got %#v", err)
			}
			if tc.name != "empty_file" && ce.Pos.Line == 0 {
				t.Fatalf("no line in %v", err)
			}
			snaps.MatchJSON(t, err)
		})
	}
}

// TestLoadAppNeverQuotesAForeignFile: a file that is not an app model
// (a private key, a .env file, credentials in YAML or JSON, a YAML alias
// whose name yaml.v3 would repeat) is refused with its shape and position;
// no part of what it says reaches the message, the hint or the details.
func TestLoadAppNeverQuotesAForeignFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src, want string }{
		{"private_key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n", "a single string of 112 bytes on lines 1-3"},
		{"dotenv", "DB_PASSWORD=hunter2\nAPI_KEY=sklive\n", "a single string of 34 bytes on lines 1-2"},
		{"token", "ghp_b3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n", "a single string of 35 bytes on line 1"},
		{"yaml_credentials", "password: hunter2\ntoken: sklive\n", "a mapping of 2 keys, none of them an app model's"},
		{"json_credentials", `{"password": "hunter2", "token": "sklive"}`, "a mapping of 2 keys"},
		{"list", "- hunter2\n- sklive\n", "a list of 2 items"},
		{"number", "12345678901234567890\n", "a single number of 20 bytes"},
		{"alias", "password: *hunter2sklive\n", "an alias (*name) refers to an anchor (&name) that is not defined"},
		{"tagged", "password: !!int hunter2sklive\n", "a mapping of 1 key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := sim.LoadApp("secret.txt", []byte(tc.src))
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Pos.File != "secret.txt" || ce.Pos.Line == 0 {
				t.Fatalf("want INVALID_ARGS at a line of the file, got %#v", err)
			}
			text, _ := json.Marshal(ce)
			if !strings.Contains(ce.Message, tc.want) {
				t.Errorf("message %q does not say %q", ce.Message, tc.want)
			}
			for _, secret := range []string{"hunter2", "sklive", "b3BlbnNzaC1", "12345678901234567890"} {
				if strings.Contains(string(text), secret) {
					t.Errorf("the error repeats %q: %s", secret, text)
				}
			}
		})
	}
	// In a file that is an app model, a short wrong value is quoted, so
	// its typo shows; a long one is measured.
	_, err := sim.LoadApp("app.yaml", []byte(strings.Replace(mini(""), "platform: ios", "platform: windows", 1)))
	if err == nil || !strings.Contains(err.Error(), `"windows"`) {
		t.Errorf("want the short value quoted, got %v", err)
	}
	long := strings.Repeat("x", 200)
	_, err = sim.LoadApp("app.yaml", []byte(strings.Replace(mini(""), "start: home", "start: [a]\nlinks: "+long, 1)))
	if err == nil || strings.Contains(err.Error(), long[:50]) {
		t.Errorf("a long value was quoted: %v", err)
	}
}
