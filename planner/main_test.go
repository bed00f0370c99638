package planner_test

import (
	"os"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"
)

func TestMain(m *testing.M) {
	v := m.Run()
	// Fail on snapshots no test uses any more, so stale plans cannot linger.
	if _, err := snaps.Clean(m, snaps.CleanOpts{Sort: true}); err != nil {
		os.Exit(1)
	}
	os.Exit(v)
}
