package flow

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// appFileKind is what an --app-file is, read from its name and checked
// against its content.
type appFileKind string

const (
	appAPK   appFileKind = ".apk"  // an Android package (a zip archive)
	appApp   appFileKind = ".app"  // an iOS app bundle (a folder with Info.plist)
	appIPA   appFileKind = ".ipa"  // an iOS app archive for iPhones (a zip archive)
	appModel appFileKind = "model" // a sim app model (.yaml, .yml, .json; contracts §7)
)

// zipMagic starts a zip archive's first local file header (PKWARE's
// APPNOTE.TXT §4.3.7): APKs and IPAs are zip archives.
var zipMagic = []byte("PK\x03\x04")

// CheckAppFiles checks every --app-file before a device is opened: it
// exists, is what its name says, and fits the device the run is on (an
// .apk on Android, an .app or .ipa on iOS, an app model on sim; Appium
// takes what its driver takes, checked by platformName where it names
// one). A file that does not fit is INVALID_ARGS (exit 2) naming the file,
// with the device it fits.
func CheckAppFiles(t Target) error {
	for _, file := range t.AppFiles {
		if isAppium(t) {
			if err := checkAppiumFile(file); err != nil {
				return err
			}
			continue
		}
		kind, err := readAppFile(file)
		if err != nil {
			return err
		}
		if err := fitsDevice(t, file, kind); err != nil {
			return err
		}
	}
	return nil
}

func readAppFile(file string) (appFileKind, error) {
	bad := func(format string, args ...any) *canonical.Error {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file "+format, args...).With("file", file).
			WithHint("--app-file takes an .apk (Android), an .app folder or .ipa (iOS), or a sim app model (.yaml, .json)")
	}
	st, err := os.Stat(file)
	if err != nil {
		return "", bad("%s: no such file or folder", file)
	}
	ext := strings.ToLower(filepath.Ext(strings.TrimRight(file, `/\`)))
	switch ext {
	case ".apk", ".ipa":
		if !st.Mode().IsRegular() || !startsWith(file, zipMagic) {
			return "", bad("%s is not an %s: it is not a zip archive", file, ext)
		}
		return appFileKind(ext), nil
	case ".app":
		// An iOS bundle keeps its Info.plist at its root (Apple's Bundle
		// Programming Guide, "The Structure of an iOS App Bundle").
		if _, err := os.Stat(filepath.Join(file, "Info.plist")); !st.IsDir() || err != nil {
			return "", bad("%s is not an iOS app: an .app is a folder with an Info.plist", file)
		}
		return appApp, nil
	case ".yaml", ".yml", ".json":
		return appModel, nil
	}
	return "", bad("%s is neither an .apk, an .app, an .ipa nor a sim app model", file)
}

func startsWith(file string, magic []byte) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(magic))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, magic)
}

// fitsDevice says whether a checked app file can go on the run's device.
func fitsDevice(t Target, file string, kind appFileKind) error {
	refuse := func(device, takes, hint string) error {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s does not fit --device %s: %s", file, device, takes).
			With("file", file).WithHint(hint)
	}
	switch {
	case IsAndroidDevice(t.Device):
		if kind != appAPK {
			return refuse(t.Device, "an Android device installs .apk files", "pass the app's .apk, or run on --device ios for an .app or .ipa")
		}
	case IsIOSDevice(t.Device):
		if t.IOSRunnerURL != "" {
			return refuse("ios", "flow reaches a runner at --ios-runner-url only through the runner, which cannot install apps",
				"install it yourself (xcrun simctl install UDID APP), or run on the Mac with --device ios:UDID so flow can")
		}
		if kind != appApp && kind != appIPA {
			return refuse(t.Device, "an iOS device installs an .app folder (a simulator) or an .ipa (an iPhone)", "pass the app's .app or .ipa, or run an .apk on --device android")
		}
	case IsSimDevice(t.Device):
		if kind != appModel {
			return refuse(t.Device, "sim runs app models, not built apps", "pass a sim app model (.yaml or .json, contracts §7), or run the app on --device android or ios")
		}
	default:
		return refuse(t.Device, "the web device opens pages and installs no app", "drop --app-file, or run on android, ios, sim or appium")
	}
	return nil
}

// isAppium is a run on a remote WebDriver endpoint, where the app goes
// in the session's capabilities.
func isAppium(t Target) bool {
	return t.Device == "appium" || t.Device == "web" && t.WebDriverURL != ""
}

// checkAppiumFile checks an app for Appium's app capability: a URL the
// server downloads, or a file or folder here (Appium's drivers take .apk,
// .app, .ipa, .zip; its fake driver an XML page source), never a sim
// app model.
func checkAppiumFile(file string) error {
	if strings.Contains(file, "://") {
		return nil
	}
	if _, err := os.Stat(file); err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s: no such file or folder", file).With("file", file).
			WithHint("give the app Appium's driver installs (.apk, .app, .ipa, .zip), as a path or a URL the server can download")
	}
	switch strings.ToLower(filepath.Ext(file)) {
	case ".yaml", ".yml", ".json":
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s does not fit --device appium: a sim app model runs on --device sim only", file).
			With("file", file).WithHint("give the app Appium's driver installs (.apk, .app, .ipa, .zip)")
	}
	return nil
}

// appiumFiles are --app-file paths (absolute: the server reads them) as
// Appium's capabilities: the first is appium:app, the rest
// appium:otherApps, a JSON array in a string as UiAutomator2 and
// XCUITest read it. A capabilities file that names a platform refuses a
// file of the other.
func appiumFiles(caps map[string]any, files []string) (map[string]any, error) {
	if len(files) == 0 {
		return caps, nil
	}
	out := map[string]any{}
	for k, v := range caps {
		out[k] = v
	}
	target := out
	if inner, ok := out["capabilities"].(map[string]any); ok {
		inner = cloneMap(inner)
		out["capabilities"] = inner
		am, _ := inner["alwaysMatch"].(map[string]any)
		am = cloneMap(am)
		inner["alwaysMatch"] = am
		target = am
	} else if am, ok := out["alwaysMatch"].(map[string]any); ok {
		am = cloneMap(am)
		out["alwaysMatch"] = am
		target = am
	}
	platform := ""
	for _, k := range []string{"platformName", "appium:platformName"} {
		if s, ok := target[k].(string); ok {
			platform = strings.ToLower(s)
		}
	}
	var abs []string
	for _, f := range files {
		a := f
		if !strings.Contains(f, "://") {
			var err error
			if a, err = filepath.Abs(f); err != nil {
				return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s: %v", f, err)
			}
		}
		ext := strings.ToLower(filepath.Ext(strings.TrimRight(f, `/\`)))
		switch {
		case platform == "android" && (ext == ".app" || ext == ".ipa"):
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s is an iOS app; the capabilities ask for platformName Android", f).
				With("file", f).WithHint("pass the app's .apk, or capabilities for an iOS session")
		case platform == "ios" && ext == ".apk":
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s is an Android app; the capabilities ask for platformName iOS", f).
				With("file", f).WithHint("pass the app's .app or .ipa, or capabilities for an Android session")
		}
		abs = append(abs, a)
	}
	target["appium:app"] = abs[0]
	if len(abs) > 1 {
		more, _ := json.Marshal(abs[1:])
		target["appium:otherApps"] = string(more)
	}
	return out, nil
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// installApps installs every --app-file on every device of the run at
// once, before the first flow. Sim and Appium took theirs when they were
// opened (app models, the session's app capability).
func installApps(ctx context.Context, files []string, devs []exec.Device) error {
	if len(files) == 0 {
		return nil
	}
	errs := make([]error, len(devs))
	done := make(chan int)
	for i, d := range devs {
		go func() {
			defer func() { done <- i }()
			in, ok := d.(exec.AppInstaller)
			if !ok {
				return
			}
			for _, f := range files {
				if err := in.InstallApp(ctx, f); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	for range devs {
		<-done
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
