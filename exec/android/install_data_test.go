package android

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestOpenInstallsHelperData: the helper given as bytes (flow's embedded
// APK, Config.HelperData) is installed byte for byte with no file to read;
// a device that already holds those bytes is not installed again, and one
// holding other bytes with the same versionCode is: the install check is
// the bytes' sha256.
func TestOpenInstallsHelperData(t *testing.T) {
	ctx := context.Background()
	p := newPhone()
	opens := func(data []byte) string {
		t.Helper()
		p.mu.Lock()
		p.log = nil
		p.mu.Unlock()
		d, err := open(ctx, Config{Serial: "emulator-5554", HelperData: data, HelperVersionCode: 1, ReadyTimeout: 2 * time.Second}, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Close(ctx); err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		return strings.Join(p.log, "\n")
	}
	embedded := []byte("the embedded helper's bytes")
	if log := opens(embedded); !strings.Contains(log, "install -r") || !bytes.Equal(p.apk, embedded) {
		t.Fatalf("the device got %q, want the given bytes installed:\n%s", p.apk, log)
	}
	if log := opens(embedded); strings.Contains(log, "install -r") || !strings.Contains(log, "pull ") {
		t.Fatalf("the same bytes were installed again, or not compared by checksum:\n%s", log)
	}
	other := []byte("another build of the helper, same versionCode")
	if log := opens(other); !strings.Contains(log, "install -r") || !bytes.Equal(p.apk, other) {
		t.Fatalf("other bytes with the same versionCode must be installed:\n%s", log)
	}
}
