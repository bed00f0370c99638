package phone

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/exec/android/adb"
)

// TestAndroidDeviceUiAutomationHeldElsewhere: with a Maestro driver left
// holding UiAutomation, opening the device through the real adb server is
// DEVICE_UNAVAILABLE saying so and how to stop it; once it is released
// the device opens.
func TestAndroidDeviceUiAutomationHeldElsewhere(t *testing.T) {
	p, d := startPhone(t, Options{UiAutomationHeldBy: "dev.mobile.maestro.test"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := android.Config{Serial: d.Serial, ADB: adb.New(d.ServerAddr()), HelperAPK: helperFile(t, "helper")}
	_, err := android.Open(ctx, cfg)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "another automation holds UiAutomation on "+d.Serial) ||
		!strings.Contains(ce.Message, "already registered!") || !strings.Contains(ce.Hint, "am force-stop dev.mobile.maestro.test") {
		t.Fatalf("want DEVICE_UNAVAILABLE naming the held UiAutomation and how to free it, got %+v", err)
	}
	p.HoldUiAutomation("")
	dev, err := android.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("UiAutomation is free again: %v", err)
	}
	dev.Close(ctx)
}

// TestAndroidDeviceSurvivesAmDeath: when the am process that owns the
// helper's UiAutomation dies, the helper answers "UiAutomation
// disconnected" instead of an empty screen, and flow starts a new session
// once; a second death ends the run with DEVICE_UNAVAILABLE naming it.
func TestAndroidDeviceSurvivesAmDeath(t *testing.T) {
	p, d := startPhone(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dev, err := android.Open(ctx, android.Config{Serial: d.Serial, ADB: adb.New(d.ServerAddr()), HelperAPK: helperFile(t, "helper")})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(ctx)
	p.KillAm()
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatalf("one am death must be survived with a new session: %v", err)
	}
	if root == nil || len(root.Children) == 0 {
		t.Fatalf("the new session reads the screen: %+v", root)
	}
	p.KillAm()
	_, err = dev.Hierarchy(ctx)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "UiAutomation disconnected") || ce.Details["serial"] != d.Serial {
		t.Fatalf("a second am death is DEVICE_UNAVAILABLE naming it, got %v", err)
	}
}
