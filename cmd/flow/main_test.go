package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/internal/peakrss"
	"github.com/gkampitakis/go-snaps/snaps"
)

func TestMain(m *testing.M) {
	if code, ok := peakrss.Launch(); ok {
		os.Exit(code) // a launcher that measured a child's own peak memory
	}
	if filepath.Base(os.Args[0]) == "xcrun" {
		os.Exit(fakeXcrun(os.Args[1:]))
	}
	// Tests that run the CLI as a separate process (asCLIEnv) pass it the
	// test's environment: they were written for Maestro 1.39's semantics.
	if os.Getenv(flowapi.MaestroVersionEnv) == "" {
		os.Setenv(flowapi.MaestroVersionEnv, "1.39")
	}
	if os.Getenv(asCLIEnv) != "" {
		main() // the test binary as the flow CLI, for tests that need separate processes
	}
	v := m.Run()
	appiumServer.Stop()
	if _, err := snaps.Clean(m, snaps.CleanOpts{Sort: true}); err != nil {
		os.Exit(1)
	}
	os.Exit(v)
}

type result struct {
	code   int
	stdout string
	stderr string
}

func runFlow(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: getenv139}
	code := run(context.Background(), env, append([]string{"flow"}, args...))
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// TestPlanCLI pins what users see from flow plan: output, errors and exit
// codes (contracts §1, §2, §5).
func TestPlanCLI(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"removed_timed_swipe", []string{"plan", "--", "swipe", "100", "200", "300", "400", "500"}, 2},
		{"removed_timed_swipe_json", []string{"plan", "--json", "--", "swipe", "100", "200", "300", "400", "500"}, 2},
		{"removed_fling_duration", []string{"plan", "--", "gesture", "fling", "up", "200", "400", "180", "300"}, 2},
		{"removed_swipe_preset_duration", []string{"plan", "--", "gesture", "swipe", "left", "300"}, 2},
		{"removed_rotate_velocity", []string{"plan", "--", "gesture", "rotate", "35", "200", "420", "2"}, 2},
		{"out_of_bounds_json", []string{"plan", "--json", "--platform", "ios", "--viewport", "0,0,390,844", "--", "gesture", "pinch", "0.5", "195", "40"}, 2},
		{"bad_viewport", []string{"plan", "--viewport", "0,0,390", "--", "gesture", "pinch", "0.5"}, 2},
		{"unknown_platform", []string{"plan", "--platform", "tvos", "--", "gesture", "pinch", "0.5"}, 2},
		{"nothing_to_plan", []string{"plan"}, 2},
		{"not_a_gesture", []string{"plan", "--", "tap", "1", "2"}, 2},
		{"unknown_flag", []string{"plan", "--frobnicate", "--", "gesture", "pinch", "0.5"}, 2},
		{"flow_file", []string{"plan", "testdata/plan/swipes.yaml", "--platform", "ios", "--viewport", "0,0,390,844"}, 0},
		{"flow_file_offscreen", []string{"plan", "testdata/plan/offscreen.yaml"}, 2},
		{"flow_file_missing", []string{"plan", "testdata/plan/nope.yaml"}, 2},
		{"check_ok", []string{"check", "testdata/check/ok"}, 0},
		{"check_bad", []string{"check", "testdata/check/bad"}, 2},
		{"check_bad_json", []string{"check", "--json", "testdata/check/bad/flow.yaml"}, 2},
		{"check_ios_only", []string{"check", "testdata/check/bad", "--platform", "ios"}, 2},
		{"check_nothing", []string{"check"}, 2},
		{"fling_preset_ios", []string{"plan", "--platform", "ios", "--viewport", "0,47,390,797", "--", "gesture", "swipe", "left"}, 0},
		{"lower_android_fling", []string{"plan", "--lower", "android", "--", "gesture", "fling", "up", "540", "1500"}, 0},
		{"lower_ios_fling", []string{"plan", "--lower", "ios", "--platform", "ios", "--app-id", "com.example.shop", "--", "gesture", "fling", "up", "195", "600"}, 0},
		{"lower_webdriver_preset", []string{"plan", "--lower", "webdriver", "--platform", "web", "--", "gesture", "swipe", "left"}, 0},
		{"lower_unknown_target", []string{"plan", "--lower", "adb", "--", "gesture", "swipe", "left"}, 2},
		{"swipe_series", []string{"plan", "--platform", "ios", "--viewport", "0,0,390,844", "--", "swipe", "320", "500", "40", "500", "--count", "2", "--pattern", "ping-pong"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, r)
			}
			snaps.MatchSnapshot(t, r.String())
		})
	}
}

// TestFlagsAfterPositionals: users type flags after the command line; the
// result must equal the flags-first form.
func TestFlagsAfterPositionals(t *testing.T) {
	t.Parallel()
	first := runFlow(t, "", "plan", "--platform", "ios", "--viewport", "0,0,390,844", "--", "gesture", "pan", "200", "420", "0", "-80")
	after := runFlow(t, "", "plan", "gesture", "pan", "200", "420", "0", "-80", "--platform", "ios", "--viewport=0,0,390,844")
	if first.code != 0 || first.stdout != after.stdout || after.code != 0 {
		t.Fatalf("flags-first:\n%s\nflags-after:\n%s", first, after)
	}
	var plan struct {
		Viewport struct{ Width float64 }
		Pointers []struct {
			Samples []struct{ Point struct{ Y float64 } }
		}
	}
	if err := json.Unmarshal([]byte(after.stdout), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Viewport.Width != 390 || plan.Pointers[0].Samples[1].Point.Y != 340 {
		t.Fatalf("flags after the command line were not applied: %s", after.stdout)
	}
	// A swipe's own flags after "--" belong to the swipe, not to flow plan.
	s := runFlow(t, "", "plan", "swipe", "100", "800", "100", "200", "--count", "3", "--platform", "ios")
	if s.code != 0 || !strings.Contains(s.stdout, `"count": 3`) {
		t.Fatalf("swipe flags lost:\n%s", s)
	}
}

// TestPlanJSONLines: one answer per input line, in order; bad lines become
// error lines and do not stop the stream.
func TestPlanJSONLines(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"input":{"kind":"rotate","degrees":35},"platform":"ios","viewport":{"x":0,"y":0,"width":390,"height":844}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"durationMs":5000}}`,
		``,
		`not json`,
		`{"input":{"kind":"fling","direction":"up","origin":{"x":1,"y":2},"durationMs":300}}`,
		`{"input":{"kind":"pinch","scale":0.5,"origin":{"x":5,"y":5}},"platform":"android"}`,
		`{"swipe":{"from":{"x":100,"y":800},"to":{"x":100,"y":200},"count":201}}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":0,"y":0,"width":"wide","height":844}}`,
	}, "\n")
	r := runFlow(t, in, "plan", "--jsonl")
	if r.code != 0 {
		t.Fatalf("jsonl mode exits 0 even with error lines:\n%s", r)
	}
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("want 7 answers for 7 non-blank inputs, got %d:\n%s", len(lines), r.stdout)
	}
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d is not JSON: %s", i+1, l)
		}
	}
	snaps.MatchSnapshot(t, r.stdout)
}

// getenv139 is the environment of the tests written for Maestro 1.39's
// semantics (taps retried, Rhino by default, 1.39's commands): the
// default is now the current Maestro, so they ask for 1.39 through
// FLOW_MAESTRO_VERSION, as a user would.
func getenv139(k string) string { return with139(func(string) string { return "" })(k) }

// with139 is getenv with FLOW_MAESTRO_VERSION=1.39 unless getenv sets it.
func with139(getenv func(string) string) func(string) string {
	return func(k string) string {
		if v := getenv(k); v != "" || k != flowapi.MaestroVersionEnv {
			return v
		}
		return "1.39"
	}
}
