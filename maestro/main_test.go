package maestro_test

import (
	"os"
	"testing"

	"github.com/flow-runner/flow/internal/peakrss"
	"github.com/gkampitakis/go-snaps/snaps"
)

// TestMain lists snapshots no test uses any more (UPDATE_SNAPS=clean
// removes them) and keeps the snapshot files sorted.
func TestMain(m *testing.M) {
	if code, ok := peakrss.Launch(); ok {
		os.Exit(code) // a launcher that measured a child's own peak memory
	}
	v := m.Run()
	if _, err := snaps.Clean(m, snaps.CleanOpts{Sort: true}); err != nil {
		os.Exit(1)
	}
	os.Exit(v)
}
