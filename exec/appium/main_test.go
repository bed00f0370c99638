package appium_test

import (
	"os"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"
)

func TestMain(m *testing.M) {
	code := m.Run()
	// Report snapshots no test reads any more, so a renamed fixture cannot
	// leave a stale pinned tree behind.
	if _, err := snaps.Clean(m, snaps.CleanOpts{Sort: true}); err != nil {
		os.Exit(1)
	}
	os.Exit(code)
}
