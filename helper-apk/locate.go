package helperapk

import (
	"context"
	"io"
	"os"

	"github.com/flow-runner/flow/canonical"
)

// waysHint names every way to get the helper, in the order Locate tries them.
const waysHint = "pass a prebuilt helper with --android-helper APK (or FLOW_ANDROID_HELPER=APK), " +
	"or set ANDROID_HOME (or ANDROID_SDK_ROOT) to an Android SDK so flow builds it (flow android helper build)"

func unavailable(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, format, args...)
}

// Missing is the error of a run that has no way to get the helper: without
// it there is no Android run (ADR 0013: no fallback to adb shell input), so
// it is DEVICE_UNAVAILABLE (exit 3), naming the device when serial is set.
func Missing(serial string) *canonical.Error {
	e := unavailable("flow's Android helper is needed to drive a device, and there is no way to get it")
	if serial != "" {
		e = unavailable("Android device %s needs flow's helper, and there is no way to get it", serial).With("serial", serial)
	}
	return e.WithHint(waysHint)
}

// Source is what Locate may use, in its order: an APK given on the
// command line, FLOW_ANDROID_HELPER, then a build with the SDK that
// ANDROID_HOME or ANDROID_SDK_ROOT names.
type Source struct {
	APK    string              // --android-helper
	Getenv func(string) string // nil reads nothing from the environment
	Serial string              // the device the helper is for, named by errors
	// CacheDir, JDK and Log are passed on to Build; an empty JDK takes
	// JAVA_HOME from Getenv.
	CacheDir string
	JDK      string
	Log      io.Writer
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

// Locate returns the helper APK a run installs. A given APK that is not a
// file is INVALID_ARGS; no way at all is Missing.
func Locate(ctx context.Context, s Source) (string, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	apk, from := s.APK, "--android-helper"
	if apk == "" {
		apk, from = getenv("FLOW_ANDROID_HELPER"), "FLOW_ANDROID_HELPER"
	}
	if apk != "" {
		st, err := os.Stat(apk)
		if err != nil || !st.Mode().IsRegular() {
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "%s %s is not an APK file", from, apk).With("path", apk).
				WithHint("give the path of a built helper (flow android helper build prints one), or unset it to build with ANDROID_HOME")
		}
		return apk, nil
	}
	sdk := SDKFromEnv(getenv)
	if sdk == "" {
		return "", Missing(s.Serial)
	}
	jdk := s.JDK
	if jdk == "" {
		jdk = getenv("JAVA_HOME")
	}
	return Build(ctx, BuildConfig{SDK: sdk, CacheDir: s.CacheDir, JDK: jdk, Log: s.Log})
}
