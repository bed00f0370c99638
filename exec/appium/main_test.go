package appium_test

import (
	"os"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/internal/appiumtest"
)

// server is the test binary's one Appium server, started by the first
// test that needs it.
var server appiumtest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	server.Stop()
	// Report snapshots no test reads any more, so a renamed fixture cannot
	// leave a stale pinned tree behind.
	if _, err := snaps.Clean(m, snaps.CleanOpts{Sort: true}); err != nil {
		os.Exit(1)
	}
	os.Exit(code)
}
