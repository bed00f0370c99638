package iosrunner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
)

// fakeXcodebuild is a stand-in for `xcrun xcodebuild build-for-testing`:
// it logs its argv and lays out Build/Products as Xcode does
// (<scheme>_<platform><sdk>-<archs>.xctestrun beside Debug-<platform>/),
// or fails the way xcodebuild does (exit 65, "error:" lines).
func fakeXcodebuild(t *testing.T, fail bool) (xcrun, logFile string) {
	t.Helper()
	dir := t.TempDir()
	logFile = filepath.Join(dir, "argv.log")
	body := `#!/bin/sh
echo "$@" >> ` + logFile + `
if [ -n "$FAIL" ]; then
  echo "note: building"
  echo "/src/FlowRunnerUITests/Commands.swift:12:5: error: cannot find 'XCUIApplication' in scope" >&2
  exit 65
fi
derived=""; platform=iphonesimulator
while [ $# -gt 0 ]; do
  case "$1" in
    -derivedDataPath) derived="$2"; shift;;
    -destination) case "$2" in *Simulator*) platform=iphonesimulator;; *) platform=iphoneos;; esac; shift;;
  esac
  shift
done
mkdir -p "$derived/Build/Products/Debug-$platform/FlowRunnerUITests-Runner.app"
echo '<plist/>' > "$derived/Build/Products/FlowRunner_${platform}17.5-arm64.xctestrun"
echo "** TEST BUILD SUCCEEDED **"
`
	xcrun = filepath.Join(dir, "xcrun")
	if err := os.WriteFile(xcrun, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if fail {
		t.Setenv("FAIL", "1")
	}
	return xcrun, logFile
}

func runnerSources() fstest.MapFS {
	return fstest.MapFS{
		"FlowRunner.xcodeproj/project.pbxproj":    {Data: []byte("// !$*UTF8*$!\n{}\n")},
		"FlowRunnerUITests/FlowRunnerTests.swift": {Data: []byte("import XCTest\n")},
	}
}

func calls(t *testing.T, logFile string) []string {
	t.Helper()
	data, err := os.ReadFile(logFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func TestBuildOnceThenCached(t *testing.T) {
	xcrun, logFile := fakeXcodebuild(t, false)
	cache := t.TempDir()
	cfg := BuildConfig{Xcrun: xcrun, CacheDir: cache, Env: os.Environ()}
	b, err := build(context.Background(), cfg, runnerSources())
	if err != nil {
		t.Fatal(err)
	}
	if b.Cached || !strings.HasPrefix(b.XCTestRun, cache) || !strings.HasSuffix(b.XCTestRun, "_iphonesimulator17.5-arm64.xctestrun") {
		t.Fatalf("first build: %+v", b)
	}
	if _, err := os.Stat(b.XCTestRun); err != nil {
		t.Fatalf("the xctestrun is not kept: %v", err)
	}
	if filepath.Base(b.Products) != "Debug-iphonesimulator" {
		t.Errorf("products: %s", b.Products)
	}
	argv := calls(t, logFile)
	if len(argv) != 1 {
		t.Fatalf("xcodebuild ran %d times: %q", len(argv), argv)
	}
	for _, want := range []string{"xcodebuild build-for-testing -project ", "/src/FlowRunner.xcodeproj -scheme FlowRunner -derivedDataPath ",
		"-destination generic/platform=iOS Simulator", "CURRENT_PROJECT_VERSION=" + b.Version} {
		if !strings.Contains(argv[0], want) {
			t.Errorf("argv lacks %q: %s", want, argv[0])
		}
	}
	if strings.Contains(argv[0], "DEVELOPMENT_TEAM") {
		t.Errorf("a simulator build is signed with a team: %s", argv[0])
	}

	again, err := build(context.Background(), cfg, runnerSources())
	if err != nil || !again.Cached || again.XCTestRun != b.XCTestRun || again.Version != b.Version {
		t.Fatalf("second build: %+v %v (first %+v)", again, err, b)
	}
	if n := len(calls(t, logFile)); n != 1 {
		t.Errorf("a cached build ran xcodebuild again (%d calls)", n)
	}

	// Changed sources are a new build with a new version.
	changed := runnerSources()
	changed["FlowRunnerUITests/FlowRunnerTests.swift"] = &fstest.MapFile{Data: []byte("import XCTest // changed\n")}
	c, err := build(context.Background(), cfg, changed)
	if err != nil || c.Cached || c.XCTestRun == b.XCTestRun || c.Version == b.Version {
		t.Fatalf("changed sources: %+v %v", c, err)
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "build-") {
			t.Errorf("a build folder is left behind: %s", e.Name())
		}
	}
}

func TestBuildForIPhone(t *testing.T) {
	xcrun, logFile := fakeXcodebuild(t, false)
	_, err := build(context.Background(), BuildConfig{Xcrun: xcrun, CacheDir: t.TempDir(), IPhone: true}, runnerSources())
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeInvalidArgs || !strings.Contains(ce.Hint, "--team") {
		t.Fatalf("no team: %v", err)
	}
	if calls(t, logFile) != nil {
		t.Fatal("xcodebuild ran without a team")
	}
	b, err := build(context.Background(), BuildConfig{Xcrun: xcrun, CacheDir: t.TempDir(), IPhone: true, Team: "ABCDE12345", Env: os.Environ()}, runnerSources())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(b.Products) != "Debug-iphoneos" || !strings.Contains(b.XCTestRun, "_iphoneos") {
		t.Errorf("iPhone build: %+v", b)
	}
	argv := calls(t, logFile)[0]
	for _, want := range []string{"-destination generic/platform=iOS ", "-allowProvisioningUpdates", "DEVELOPMENT_TEAM=ABCDE12345",
		"FLOW_BUNDLE_ID_PREFIX=dev.flow.runner.abcde12345 "} {
		if !strings.Contains(argv+" ", want) {
			t.Errorf("argv lacks %q: %s", want, argv)
		}
	}
	if b.IDs.Runner != "dev.flow.runner.abcde12345.UITests.xctrunner" {
		t.Errorf("the build's runner id: %+v", b.IDs)
	}
}

// TestIDsFollowTheTeam (M2): each team signs its own explicit App IDs;
// two teams never share one, and no team keeps the simulator's ids.
func TestIDsFollowTheTeam(t *testing.T) {
	a, b, none := IDs("ABCDE12345"), IDs("ZYXWV98765"), IDs("")
	if a.Runner == b.Runner || a.Host == b.Host || !strings.HasPrefix(a.UITests, a.Prefix+".") {
		t.Fatalf("two teams' ids: %+v %+v", a, b)
	}
	if none.Runner != "dev.flow.runner.UITests.xctrunner" || none.Host != "dev.flow.runner.Host" {
		t.Fatalf("no team: %+v", none)
	}
	if got := IDs("AB/C D.E").Prefix; got != "dev.flow.runner.abcde" {
		t.Fatalf("a team with characters no bundle id holds: %q", got)
	}
}

func TestBuildFailureSaysWhy(t *testing.T) {
	xcrun, _ := fakeXcodebuild(t, true)
	cache := t.TempDir()
	_, err := build(context.Background(), BuildConfig{Xcrun: xcrun, CacheDir: cache, Env: os.Environ()}, runnerSources())
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "cannot find 'XCUIApplication' in scope") ||
		!strings.Contains(ce.Hint, "xcode-select") {
		t.Fatalf("failed build: %v", err)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 0 {
		t.Errorf("a failed build left %d entries in the cache", len(entries))
	}
}

func TestBuildWithoutXcode(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := build(context.Background(), BuildConfig{CacheDir: t.TempDir()}, runnerSources())
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Hint, "FLOW_IOS_RUNNER_XCTESTRUN") {
		t.Fatalf("no xcrun: %v", err)
	}
}

func TestVersionIsDigits(t *testing.T) {
	for _, key := range []string{"00000000ff", "ffffffff00", "0123abcd99"} {
		v := version(key)
		if v == "" || strings.Trim(v, "0123456789") != "" {
			t.Errorf("version(%s) = %q", key, v)
		}
	}
	if version("00000001aa") == version("00000002aa") {
		t.Error("different keys, same version")
	}
}

func TestAppVersion(t *testing.T) {
	app := filepath.Join(t.TempDir(), RunnerApp)
	os.MkdirAll(app, 0o755)
	// An XML Info.plist as Xcode writes one (it may also write binary;
	// the plist package reads both).
	os.WriteFile(filepath.Join(app, "Info.plist"), []byte(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>CFBundleIdentifier</key><string>dev.flow.runner.UITests.xctrunner</string>
<key>CFBundleVersion</key><string>3735928559</string></dict></plist>`), 0o644)
	if v, err := AppVersion(app); err != nil || v != "3735928559" {
		t.Fatalf("AppVersion = %q, %v", v, err)
	}
	if _, err := AppVersion(t.TempDir()); canonical.CodeOf(err) != canonical.CodeInvalidArgs {
		t.Fatalf("a folder without Info.plist: %v", err)
	}
}

// The binary carries what xcodebuild needs: the project and every source
// file it names (internal/iosproject checks the project against the
// folder; this checks the folder against the binary).
func TestSourcesAreEmbedded(t *testing.T) {
	files, err := sourceFiles(Sources())
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		have[f.name] = true
	}
	for _, want := range []string{"FlowRunner.xcodeproj/project.pbxproj", "FlowRunner.xcodeproj/xcshareddata/xcschemes/FlowRunner.xcscheme",
		"FlowRunnerUITests/FlowRunnerTests.swift", "FlowRunnerUITests/EventBridge.m", "FlowRunnerUITests/FlowRunnerUITests-Bridging-Header.h",
		"FlowRunnerCore/Sources/FlowRunnerCore/GesturePlan.swift", "FlowRunnerHost/FlowRunnerHostApp.swift"} {
		if !have[want] {
			t.Errorf("%s is not embedded", want)
		}
	}
	for name := range have {
		if strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "testdata/") {
			t.Errorf("%s is embedded but not part of the build", name)
		}
	}
}
