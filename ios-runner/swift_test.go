package iosrunner

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// requireSwiftEnv turns a missing Swift toolchain into a failure: the
// macOS workflow (.github/workflows/ios-runner.yml) sets it; our Linux
// machines have no Swift, so .ci/run does not.
const requireSwiftEnv = "FLOW_REQUIRE_SWIFT"

// The runner's pure part is tested by its own XCTest suite under SwiftPM
// (FlowRunnerCore/Tests): it replays testdata/wire and testdata/gestures.jsonl
// and covers what moved out of the XCTest target (per-command error
// handling, the app in front, settle, typing, hideKeyboard, snapshots).
// `go test ./...` runs it wherever a Swift toolchain is, so the README's
// one test command covers the Swift too.
func TestSwiftCore(t *testing.T) {
	swift, err := osexec.LookPath("swift")
	if err != nil {
		msg := "FlowRunnerCore's tests need a Swift toolchain (swift on PATH: Xcode on a Mac, or swift.org's toolchain on Linux; Debian 12 packages none)"
		if os.Getenv(requireSwiftEnv) != "" {
			t.Fatalf("%s; %s=1 is set", msg, requireSwiftEnv)
		}
		t.Skip(msg + "; " + requireSwiftEnv + "=1 makes this a failure")
	}
	if testing.Short() {
		t.Skip("swift test builds the package: skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := osexec.CommandContext(ctx, swift, "test", "--package-path", filepath.Join("FlowRunnerCore"),
		"--scratch-path", filepath.Join(t.TempDir(), "build"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("swift test in ios-runner/FlowRunnerCore failed: %v\n%s", err, tail(string(out), 80))
	}
	// A run that found no test would pass silently: the suite has dozens.
	if !strings.Contains(string(out), "Executed") {
		t.Fatalf("swift test ran no XCTest suite:\n%s", tail(string(out), 40))
	}
	t.Log(tail(string(out), 5))
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
