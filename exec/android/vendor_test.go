package android

import (
	"context"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// A refused injection says how MIUI/HyperOS is unlocked (issue 19 R8):
// first on a Xiaomi phone, after the helper's own hint elsewhere, for both
// ways a refusal arrives (injectInputEvent false; MIUI's INJECT_EVENTS
// SecurityException, which the helper answers as INTERNAL).
func TestInjectionRefusalNamesMIUISwitch(t *testing.T) {
	refusals := map[string]string{
		"returned false":    `"ok":false,"code":"COMMAND_FAILED","message":"injectInputEvent refused event 1 of 3 (DOWN at 0 ms); ACTION_CANCEL sent","hint":"another app may own the screen (a system dialog, a pinned app); look at the device and retry"`,
		"SecurityException": `"ok":false,"code":"INTERNAL","message":"java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission."`,
	}
	for name, refusal := range refusals {
		for _, maker := range []string{"Xiaomi", "Google"} {
			p := newPhone()
			p.manufacturer, p.refuseTouch = maker, refusal
			d, err := openOn(context.Background(), testConfig(t), p, facts("h", lockNow))
			if err != nil {
				t.Fatal(err)
			}
			err = d.Tap(context.Background(), canonical.Point{X: 1, Y: 1})
			d.Close(context.Background())
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("%s on %s: %v", name, maker, err)
			}
			at := strings.Index(ce.Hint, `"USB debugging (Security settings)"`)
			if at < 0 {
				t.Errorf("%s on %s: the hint does not name MIUI's switch: %s", name, maker, ce.Hint)
				continue
			}
			if first := at < 120; first != (maker == "Xiaomi") {
				t.Errorf("%s on %s: the MIUI hint should come first only on a Xiaomi phone: %s", name, maker, ce.Hint)
			}
		}
	}
}

// A failed helper install says what holds it: MIUI's "Install via USB",
// Play Protect.
func TestInstallFailureHints(t *testing.T) {
	for reason, want := range map[string]string{
		"Failure [INSTALL_FAILED_USER_RESTRICTED: Install canceled by user]": `"Install via USB"`,
		"Failure [INSTALL_FAILED_VERIFICATION_FAILURE]":                      "Play Protect",
		"Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]":                      "free space",
	} {
		p := newPhone()
		p.install = []string{reason}
		_, err := openOn(context.Background(), testConfig(t), p, facts("h", lockNow))
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Hint, want) {
			t.Errorf("%s: want DEVICE_UNAVAILABLE with a hint naming %s, got %v", reason, want, err)
		}
	}
}

// An install whose verdict never came, on a phone that still answers,
// names Play Protect's prompt (the adb client's words for the deadline:
// exec/android/adb dataError).
func TestInstallHeldNamesPlayProtect(t *testing.T) {
	p := newPhone()
	p.installErr = canonical.NewError(canonical.CodeDeviceUnavailable, "reading the install verdict failed: emulator-5554 sent nothing for 5m0s").
		WithHint("the device stopped answering; reconnect it")
	_, err := openOn(context.Background(), testConfig(t), p, facts("h", lockNow))
	ce, ok := canonical.AsError(err)
	if !ok || !strings.HasPrefix(ce.Hint, "the phone answered but its package manager did not: a Google Play Protect prompt") ||
		!strings.Contains(ce.Hint, "reconnect it") {
		t.Fatalf("want the Play Protect hint first, the link's after: %v (hint %q)", err, ce.Hint)
	}
}
