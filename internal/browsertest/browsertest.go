package browsertest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flow-runner/flow/exec/webdriver"
)

// RequireEnv is the variable that turns a missing browser into a failure.
const RequireEnv = "FLOW_REQUIRE_BROWSER"

// Require skips t when chromium or chromedriver is missing, or fails it
// when RequireEnv is 1.
func Require(t testing.TB) {
	t.Helper()
	if reason := Missing(); reason != "" {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1 but the browser is missing: %s", RequireEnv, reason)
		}
		t.Skip("no local browser: " + reason)
	}
}

// Missing says why the local browser cannot run, or "" when it can.
func Missing() string {
	if _, _, err := webdriver.FindLocal("", ""); err != nil {
		return err.Error()
	}
	return ""
}

// Lock takes the machine-wide browser lock, waiting for another test
// binary to release it, and returns the release. Where file locks are not
// available it returns at once.
func Lock() (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "flow-browser-tests.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
