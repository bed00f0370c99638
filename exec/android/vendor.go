package android

import (
	"errors"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// Vendor builds refuse what stock Android allows (issue 19 R8). Nothing
// here was seen on such a phone (there is none here); the facts come from
// the reports of tools that inject over adb:
//   - MIUI and HyperOS (Xiaomi, Redmi, POCO) refuse input injected from
//     adb-started processes with SecurityException "Injecting input
//     events requires the caller (or the source of the instrumentation,
//     if any) to have the INJECT_EVENTS permission" until Developer
//     options → "USB debugging (Security settings)" ("Allow granting
//     permissions and simulating input via USB debugging") is on (scrcpy
//     FAQ "Mouse and keyboard do not work"; Genymobile/scrcpy issues
//     #3824, #4199; openatx/android-uiautomator-server #2); the same
//     switch gates pm grant. They refuse adb installs
//     (INSTALL_FAILED_USER_RESTRICTED) unless "Install via USB" is on;
//   - Google Play Protect may hold `pm install` on a prompt on the phone
//     ("Blocked by Play Protect", "Send app for a security check?") and
//     fail it as a verification failure when it is declined.

// xiaomiBrands are ro.product.manufacturer values of MIUI/HyperOS phones.
var xiaomiBrands = []string{"xiaomi", "redmi", "poco"}

func isXiaomi(manufacturer string) bool {
	m := strings.ToLower(strings.TrimSpace(manufacturer))
	for _, b := range xiaomiBrands {
		if strings.Contains(m, b) {
			return true
		}
	}
	return false
}

const miuiInjectionHint = "on Xiaomi, Redmi and POCO phones (MIUI, HyperOS) injected touches and keys are refused until " +
	"Developer options → \"USB debugging (Security settings)\" is on (it asks for a Mi account sign-in; it also lets flow grant " +
	"permissions); turn it on and run again"

// withInjectionHint adds the MIUI hint to a refused injection: the
// helper's "injectInputEvent refused …" (TouchInjector,
// UiAutomationDispatcher: injectInputEvent returned false) or the
// INJECT_EVENTS SecurityException MIUI throws instead. It comes first on a
// Xiaomi phone, after the helper's own hint elsewhere.
func (d *Device) withInjectionHint(err error) error {
	var ce *canonical.Error
	if !errors.As(err, &ce) || (ce.Code != canonical.CodeCommandFailed && ce.Code != canonical.CodeInternal) ||
		!strings.Contains(ce.Message, "injectInputEvent refused") && !strings.Contains(ce.Message, "INJECT_EVENTS") {
		return err
	}
	switch {
	case isXiaomi(d.manufacturer):
		ce.Hint = miuiInjectionHint + "; otherwise " + ce.Hint
	case ce.Hint == "":
		ce.Hint = miuiInjectionHint
	default:
		ce.Hint += "; " + miuiInjectionHint
	}
	return err
}

// installHint is the hint for a failed helper install, by pm's reason.
func installHint(output string) string {
	switch {
	case strings.Contains(output, "INSTALL_FAILED_USER_RESTRICTED"):
		return "the phone refused an install over USB: on Xiaomi, Redmi and POCO phones (MIUI, HyperOS) turn on Developer options → " +
			"\"Install via USB\"; elsewhere, accept the install prompt on the phone; then run again"
	case strings.Contains(output, "INSTALL_FAILED_VERIFICATION_FAILURE"), strings.Contains(output, "INSTALL_FAILED_VERIFICATION_TIMEOUT"):
		return "Google Play Protect held or declined the install: look at the phone for \"Blocked by Play Protect\" or " +
			"\"Send app for a security check?\" and allow it (or turn off Play Store → Play Protect → \"Improve harmful app detection\" " +
			"and \"Scan apps with Play Protect\" on a test phone), then run again"
	}
	return "check the device's free space and that installing over USB is allowed (Developer options); a Play Protect prompt on " +
		"the phone can hold an install until it is answered; " + helperMissingHint
}

// playProtectHold is what an install that never answered most likely
// waited on while the phone still answered pings: a Play Protect prompt.
const playProtectHold = "the phone answered but its package manager did not: a Google Play Protect prompt on the phone " +
	"(\"Blocked by Play Protect\", \"Send app for a security check?\") holds an install until someone answers it; " +
	"look at the phone, allow the install and run again"

// withInstallHoldHint names Play Protect when the install's verdict never
// came (the adb client's verdict deadline) on a link that still works.
func (d *Device) withInstallHoldHint(err error) error {
	var ce *canonical.Error
	if !errors.As(err, &ce) || ce.Code != canonical.CodeDeviceUnavailable || d.lost.Load() != nil ||
		!strings.Contains(ce.Message, "install verdict") {
		return err
	}
	if ce.Hint == "" {
		ce.Hint = playProtectHold
	} else {
		ce.Hint = playProtectHold + "; otherwise: " + ce.Hint
	}
	return err
}
