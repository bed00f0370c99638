package android

import (
	"context"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// The helper's failed status block as am instrument prints it: keys sorted
// (AOSP am Instrument), the message of AOSP
// UiAutomationManager.registerUiTestAutomationServiceLocked, then the
// instrumentation's finish (INSTRUMENTATION_CODE).
const busyBlock = "INSTRUMENTATION_STATUS: cause=uiautomation-busy\n" +
	"INSTRUMENTATION_STATUS: flowHelper=failed\n" +
	"INSTRUMENTATION_STATUS: message=UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5e2c1 already registered!\n" +
	"INSTRUMENTATION_STATUS_CODE: -1\n" +
	"INSTRUMENTATION_CODE: 1\n"

// TestOpenNamesTheAutomationThatHoldsUiAutomation: a helper that cannot
// connect UiAutomation is DEVICE_UNAVAILABLE naming the cause and how to
// stop the usual holders, not a quote of am's output.
func TestOpenNamesTheAutomationThatHoldsUiAutomation(t *testing.T) {
	for name, tc := range map[string]struct{ out, msg, cause string }{
		"busy": {busyBlock, "another automation holds UiAutomation on emulator-5554", "uiautomation-busy"},
		"timeout": {"INSTRUMENTATION_STATUS: cause=uiautomation-timeout\nINSTRUMENTATION_STATUS: flowHelper=failed\n" +
			"INSTRUMENTATION_STATUS: message=Error while connecting UiAutomation@1f\nINSTRUMENTATION_STATUS_CODE: -1\nINSTRUMENTATION_CODE: 1\n",
			"UiAutomation did not connect on emulator-5554", "uiautomation-timeout"},
	} {
		t.Run(name, func(t *testing.T) {
			p := newPhone()
			p.startOut = tc.out
			_, err := open(context.Background(), testConfig(t), p)
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.HasPrefix(ce.Message, tc.msg) || ce.Details["cause"] != tc.cause {
				t.Fatalf("want DEVICE_UNAVAILABLE %q (cause %s), got %+v", tc.msg, tc.cause, err)
			}
			for _, want := range []string{"am force-stop dev.mobile.maestro.test", "am force-stop io.appium.uiautomator2.server.test", "Layout Inspector"} {
				if !strings.Contains(ce.Hint, want) {
					t.Fatalf("the hint %q does not say %q", ce.Hint, want)
				}
			}
			if strings.Contains(ce.Message, "Process crashed") || strings.Contains(ce.Message, "did not start") {
				t.Fatalf("the message quotes am instead of naming the cause: %s", ce.Message)
			}
		})
	}
}

// TestDisconnectedUiAutomationRestartsTheSession: the helper's
// DEVICE_UNAVAILABLE "UiAutomation disconnected" ends its session; flow
// starts a new one and repeats the request, a tap included (the helper
// did not act on it). A second disconnection is the end.
func TestDisconnectedUiAutomationRestartsTheSession(t *testing.T) {
	ctx := context.Background()
	p := newPhone()
	d, err := open(ctx, testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	p.mu.Lock()
	p.unplugAt = p.requests + 1
	p.mu.Unlock()
	if err := d.Tap(ctx, canonical.Point{X: 10, Y: 10}); err != nil {
		t.Fatalf("one disconnection must be survived: %v", err)
	}
	p.mu.Lock()
	touches := len(p.touches)
	starts := 0
	for _, l := range p.log {
		if strings.HasPrefix(l, "am instrument") {
			starts++
		}
	}
	p.unplugAll = true
	p.mu.Unlock()
	if touches != 2 || starts != 2 {
		t.Fatalf("want the tap sent again on a second session: %d touches, %d am instrument", touches, starts)
	}
	_, err = d.Hierarchy(ctx)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "UiAutomation disconnected") {
		t.Fatalf("a second disconnection ends with DEVICE_UNAVAILABLE naming it, got %v", err)
	}
}

// TestBlackScreenshotWarnsOnce: an all-black capture is a secure window,
// and the user hears it once.
func TestBlackScreenshotWarnsOnce(t *testing.T) {
	ctx := context.Background()
	p := newPhone()
	p.black = true
	var warned []string
	cfg := testConfig(t)
	cfg.Warn = func(m string) { warned = append(warned, m) }
	d, err := open(ctx, cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	for range 2 {
		png, err := d.Screenshot(ctx)
		if err != nil || string(png) != "PNG!" {
			t.Fatalf("screenshot %q %v", png, err)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "FLAG_SECURE") {
		t.Fatalf("want one warning naming FLAG_SECURE, got %q", warned)
	}
}
