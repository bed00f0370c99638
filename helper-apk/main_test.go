package helperapk

import (
	"os"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"
)

func TestMain(m *testing.M) {
	code := m.Run()
	// Report snapshots no test reads any more, so a renamed case cannot
	// leave a stale pinned command line behind.
	if _, err := snaps.Clean(m, snaps.CleanOpts{Sort: true}); err != nil {
		os.Exit(1)
	}
	os.Exit(code)
}
