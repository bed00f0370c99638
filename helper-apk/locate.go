package helperapk

import (
	"os"

	"github.com/flow-runner/flow/canonical"
)

// waysHint names the ways to build the helper with an Android SDK, for
// `flow android helper build`.
const waysHint = "set ANDROID_HOME (or ANDROID_SDK_ROOT) to an Android SDK so flow builds the helper (flow android helper build); " +
	"flow test needs none of this: it installs the helper it embeds, or the APK given with --android-helper APK (or FLOW_ANDROID_HELPER=APK)"

func unavailable(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, format, args...)
}

// Missing is the error of a build that has no SDK to build with (exit 3,
// DEVICE_UNAVAILABLE), naming the device when serial is set.
func Missing(serial string) *canonical.Error {
	e := unavailable("building flow's Android helper needs an Android SDK, and none is set")
	if serial != "" {
		e = unavailable("Android device %s needs flow's helper, and there is no SDK to build it with", serial).With("serial", serial)
	}
	return e.WithHint(waysHint)
}

// Source is what Locate may use, in its order: an APK given on the
// command line, FLOW_ANDROID_HELPER, then the embedded helper.
type Source struct {
	APK    string              // --android-helper
	Getenv func(string) string // nil reads nothing from the environment
}

// SDKFromEnv is the SDK folder the environment names: ANDROID_HOME first,
// as the SDK tools read it (ANDROID_SDK_ROOT is its deprecated name).
func SDKFromEnv(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	for _, k := range []string{"ANDROID_HOME", "ANDROID_SDK_ROOT"} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// Locate returns the helper a run installs: the APK given
// (--android-helper, else FLOW_ANDROID_HELPER), else the one flow embeds.
// An Android SDK is never needed for a run; `flow android helper build`
// builds with one and prints a path to give here. A given APK that is not
// a file is INVALID_ARGS.
func Locate(s Source) (Helper, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	apk, from := s.APK, "--android-helper"
	if apk == "" {
		apk, from = getenv("FLOW_ANDROID_HELPER"), "FLOW_ANDROID_HELPER"
	}
	if apk == "" {
		return Helper{APK: Embedded()}, nil
	}
	st, err := os.Stat(apk)
	if err != nil || !st.Mode().IsRegular() {
		return Helper{}, canonical.Errorf(canonical.CodeInvalidArgs, "%s %s is not an APK file", from, apk).With("path", apk).
			WithHint("give the path of a built helper (flow android helper build prints one), or unset it to install the helper flow embeds")
	}
	return Helper{Path: apk}, nil
}
