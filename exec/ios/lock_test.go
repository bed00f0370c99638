package ios

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestLockDeviceTakesOverStaleLock (R19): a lock left by a run that died
// (its owner.json still names it, but no process holds the OS lock) is
// taken over, and owner.json then names this run; while held, a second
// taker is told who holds it.
func TestLockDeviceTakesOverStaleLock(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "U1")
	os.MkdirAll(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "flow.lock"), nil, 0o644)
	os.WriteFile(filepath.Join(folder, "owner.json"), []byte(`{"pid": 999999, "command": "flow test old", "since": "2026-01-01T00:00:00Z"}`), 0o644)
	l, err := LockDevice(context.Background(), dir, "U1")
	if err != nil {
		t.Fatalf("a stale lock must be taken over: %v", err)
	}
	defer l.Release()
	var o lockOwner
	b, _ := os.ReadFile(filepath.Join(folder, "owner.json"))
	if json.Unmarshal(b, &o) != nil || o.PID != os.Getpid() {
		t.Fatalf("owner.json names %s, want pid %d", b, os.Getpid())
	}
	_, err = LockDevice(context.Background(), dir, "U1")
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("a held lock: %v", err)
	}
	if got := lockName("../x/../U1"); strings.ContainsAny(got, "/.") {
		t.Fatalf("lock folder name %q climbs out", got)
	}
}
