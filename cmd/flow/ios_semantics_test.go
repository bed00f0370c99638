package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// TestIOSIgnoresWhatMaestroIgnores (issue 20, Deliver 4): sim:ios and the
// iOS runner agree on the commands Maestro's iOS driver ignores
// (maestro-reference §1.2, §1.4): back does nothing, pressKey of a key iOS
// lacks does nothing and warns (not exit 3), and setAirplaneMode and
// toggleAirplaneMode warn and do nothing; the flow passes on both with the
// same warnings.
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
