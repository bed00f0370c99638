package ios

import (
	"context"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

func TestPickSimulator(t *testing.T) {
	booted := Simulator{UDID: "A", Name: "iPhone 15", State: "Booted"}
	off := Simulator{UDID: "B", Name: "iPhone SE", State: "Shutdown"}
	other := Simulator{UDID: "C", Name: "iPad", State: "Booted"}
	for _, c := range []struct {
		name string
		udid string
		sims []Simulator
		want string
		code canonical.Code
		msg  string
	}{
		{name: "the one booted", sims: []Simulator{off, booted}, want: "A"},
		{name: "named, shut down (booted later)", udid: "B", sims: []Simulator{off, booted}, want: "B"},
		{name: "none booted", sims: []Simulator{off}, code: canonical.CodeDeviceUnavailable, msg: "no iOS simulator is booted"},
		{name: "two booted", sims: []Simulator{booted, other}, code: canonical.CodeInvalidArgs, msg: "A (iPhone 15), C (iPad)"},
		{name: "unknown", udid: "Z", sims: []Simulator{booted}, code: canonical.CodeDeviceUnavailable, msg: "no iOS simulator Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := pickSimulator(c.udid, c.sims)
			if c.want != "" {
				if err != nil || got.UDID != c.want {
					t.Fatalf("got %+v %v, want %s", got, err, c.want)
				}
				return
			}
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != c.code || !strings.Contains(ce.Message, c.msg) || ce.Hint == "" {
				t.Fatalf("want %s %q with a hint, got %v", c.code, c.msg, err)
			}
		})
	}
}

// fakeXcrunScript writes an xcrun that lists one booted simulator and runs
// xcodebuild as script says.
func fakeXcrunScript(t *testing.T, xcodebuild string) string {
	t.Helper()
	dir := t.TempDir()
	f := dir + "/xcrun"
	body := `#!/bin/sh
case "$1 $2" in
"simctl list") echo '{"devices":{"iOS-17":[{"udid":"U1","name":"iPhone 15","state":"Booted","isAvailable":true}]}}' ;;
"xcodebuild test-without-building") ` + xcodebuild + ` ;;
*) exit 0 ;;
esac
`
	if err := os.WriteFile(f, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRunnerStartFailures: a runner that never says ready and one that
// stops first each end in bounded time with DEVICE_UNAVAILABLE naming the
// simulator, quoting xcodebuild for the second.
func TestRunnerStartFailures(t *testing.T) {
	if _, err := osexec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake xcrun")
	}
	for name, c := range map[string]struct{ script, msg string }{
		"never ready": {"echo 'Test Suite started'; sleep 30", "did not say it was ready"},
		"stops first": {"echo 'xcodebuild: error: Unable to find a destination'; exit 70", "Unable to find a destination"},
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := OpenSimulator(context.Background(), SimulatorConfig{Xcrun: fakeXcrunScript(t, c.script), XCTestRun: "F.xctestrun", ReadyTimeout: 500 * time.Millisecond})
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, c.msg) || ce.Details["device"] != "U1" || ce.Hint == "" {
				t.Fatalf("want DEVICE_UNAVAILABLE %q naming U1 with a hint, got %v", c.msg, err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("took %s", d)
			}
		})
	}
}
