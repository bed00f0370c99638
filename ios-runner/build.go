package iosrunner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"howett.net/plist"

	"github.com/flow-runner/flow/canonical"
)

// Project and scheme names the build uses (ios-runner/FlowRunner.xcodeproj).
const (
	project = "FlowRunner.xcodeproj"
	scheme  = "FlowRunner"
	// buildStyle names the steps below; bump it when they change what
	// comes out, so old caches are not reused.
	buildStyle = "flow-ios-runner-build-v2"
	// RunnerApp is the runner app Xcode makes of the UI-test bundle; on an
	// iPhone it is what gets installed.
	RunnerApp = "FlowRunnerUITests-Runner.app"
)

// BundleIDs are the runner's bundle ids for a signing team.
type BundleIDs struct {
	// Prefix is FLOW_BUNDLE_ID_PREFIX, the build setting every target's
	// PRODUCT_BUNDLE_IDENTIFIER starts with.
	Prefix string
	// Host is the host app, UITests the UI-test bundle, and Runner the
	// app Xcode makes of it (UITests + ".xctrunner"), which go-ios starts
	// on an iPhone and simctl terminates on a simulator.
	Host, UITests, Runner string
}

// IDs derives the runner's bundle ids from the team that signs it.
// Explicit App IDs are unique across all of Apple's teams, so fixed ids
// could be signed by the first team only (agent-device issue #145): each
// team gets its own, dev.flow.runner.<team>. No team (simulators, which
// need no signing) keeps dev.flow.runner. Characters a bundle id may not
// hold are dropped.
func IDs(team string) BundleIDs {
	prefix := "dev.flow.runner"
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return -1
	}, team)
	if clean != "" {
		prefix += "." + clean
	}
	return BundleIDs{Prefix: prefix, Host: prefix + ".Host", UITests: prefix + ".UITests", Runner: prefix + ".UITests.xctrunner"}
}

// BuildConfig says how to build the runner.
type BuildConfig struct {
	// Xcrun runs xcodebuild (`xcrun xcodebuild`); empty finds xcrun on PATH.
	Xcrun string
	// CacheDir keeps one built runner per cache key; empty is the user's
	// cache folder + flow/ios-runner.
	CacheDir string
	// IPhone builds for real devices (generic/platform=iOS, signed with
	// Team) instead of simulators.
	IPhone bool
	// Team is the Apple development team that signs an iPhone build
	// (DEVELOPMENT_TEAM); Xcode's automatic signing makes the profiles.
	Team string
	// Env is the environment of xcodebuild; nil is this process's.
	Env []string
	// Log receives the command line and xcodebuild's output.
	Log io.Writer
}

// Built is a runner build.
type Built struct {
	// XCTestRun is the .xctestrun file `xcodebuild test-without-building`
	// takes.
	XCTestRun string
	// Products is the folder of the built products (the host app and
	// RunnerApp), for installing on an iPhone.
	Products string
	// Version is the CFBundleVersion the build stamps: a number made of
	// the cache key, so an installed runner can be told from a newer one.
	Version string
	// Cached is true when nothing was built.
	Cached bool
	// IDs are the bundle ids the build carries (IDs of its team).
	IDs BundleIDs
}

// Build builds the runner sources this binary embeds with `xcodebuild
// build-for-testing`, once per cache key (the sources, the destination and
// the team): a second call returns the cached build at once. Failures are
// DEVICE_UNAVAILABLE naming what to do.
func Build(ctx context.Context, cfg BuildConfig) (Built, error) {
	return build(ctx, cfg, Sources())
}

func unavailable(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, format, args...)
}

func build(ctx context.Context, cfg BuildConfig, src fs.FS) (Built, error) {
	if cfg.IPhone && cfg.Team == "" {
		return Built{}, canonical.NewError(canonical.CodeInvalidArgs, "building the runner for iPhones needs the development team that signs it").
			WithHint("pass --team TEAMID (or FLOW_IOS_TEAM): Xcode → Settings → Accounts shows it; simulators need none")
	}
	xcrun := cfg.Xcrun
	if xcrun == "" {
		p, err := osexec.LookPath("xcrun")
		if err != nil {
			return Built{}, unavailable("building flow's iOS runner needs Xcode, and xcrun is not on PATH").
				WithHint("install Xcode and run `xcode-select --install`; or pass a built runner with FLOW_IOS_RUNNER_XCTESTRUN, or a running one with --ios-runner-url")
		}
		xcrun = p
	}
	cache := cfg.CacheDir
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return Built{}, unavailable("no cache folder for the iOS runner: %v", err).Wrap(err).
				WithHint("set HOME, or pass a built runner with FLOW_IOS_RUNNER_XCTESTRUN")
		}
		cache = filepath.Join(dir, "flow", "ios-runner")
	}
	files, err := sourceFiles(src)
	if err != nil {
		return Built{}, unavailable("reading the runner's sources: %v", err).Wrap(err)
	}
	key := cacheKey(files, cfg)
	out := filepath.Join(cache, key[:16])
	if b, err := find(out, cfg.IPhone); err == nil {
		b.Version, b.Cached, b.IDs = version(key), true, IDs(cfg.Team)
		return b, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return Built{}, unavailable("cannot create the runner cache %s: %v", cache, err).Wrap(err)
	}
	work, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return Built{}, unavailable("cannot create a build folder in %s: %v", cache, err).Wrap(err)
	}
	defer os.RemoveAll(work)
	for _, f := range files {
		p := filepath.Join(work, "src", filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return Built{}, unavailable("writing the runner's sources: %v", err).Wrap(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return Built{}, unavailable("writing the runner's sources: %v", err).Wrap(err)
		}
	}
	derived := filepath.Join(work, "derived")
	args := []string{"xcodebuild", "build-for-testing",
		"-project", filepath.Join(work, "src", project), "-scheme", scheme,
		"-derivedDataPath", derived, "-parallel-testing-enabled", "NO",
		// A build number made of the key lets an iPhone's installed runner
		// be compared with this build without reading its files.
		"CURRENT_PROJECT_VERSION=" + version(key),
		"FLOW_BUNDLE_ID_PREFIX=" + IDs(cfg.Team).Prefix}
	if cfg.IPhone {
		args = append(args, "-destination", "generic/platform=iOS", "-allowProvisioningUpdates", "DEVELOPMENT_TEAM="+cfg.Team)
	} else {
		args = append(args, "-destination", "generic/platform=iOS Simulator")
	}
	var tail tailBuffer
	var logw io.Writer = &tail
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "building flow's iOS runner (once; cached in %s): xcrun %s\n", out, strings.Join(args, " "))
		logw = io.MultiWriter(cfg.Log, &tail)
	}
	cmd := osexec.CommandContext(ctx, xcrun, args...)
	cmd.Env = cfg.Env
	cmd.Stdout, cmd.Stderr = logw, logw
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Built{}, ctx.Err()
		}
		hint := "read xcodebuild's output above; `xcodebuild -version` must work (run `sudo xcode-select -s /Applications/Xcode.app`)"
		if cfg.IPhone {
			hint = "signing for iPhones needs your team's account in Xcode → Settings → Accounts and the phone registered to it; " + hint
		}
		return Built{}, unavailable("xcodebuild build-for-testing of flow's iOS runner failed: %v: %s", err, tail.last()).Wrap(err).WithHint(hint)
	}
	if _, err := find(derived, cfg.IPhone); err != nil {
		return Built{}, unavailable("xcodebuild built the runner but %v", err).WithHint("report this with xcodebuild's output: the build products are not where Xcode puts them")
	}
	os.RemoveAll(out)
	if err := os.Rename(derived, out); err != nil {
		return Built{}, unavailable("cannot keep the built runner in %s: %v", out, err).Wrap(err)
	}
	b, err := find(out, cfg.IPhone)
	b.Version, b.IDs = version(key), IDs(cfg.Team)
	return b, err
}

// find is the build in a derived-data folder: its Build/Products holds one
// .xctestrun for the destination's platform and the runner app beside it.
func find(derived string, iphone bool) (Built, error) {
	products := filepath.Join(derived, "Build", "Products")
	runs, _ := filepath.Glob(filepath.Join(products, "*.xctestrun"))
	platform := "iphonesimulator"
	if iphone {
		platform = "iphoneos"
	}
	var pick []string
	for _, r := range runs {
		if strings.Contains(filepath.Base(r), "_"+platform) {
			pick = append(pick, r)
		}
	}
	if len(pick) == 0 {
		return Built{}, fmt.Errorf("no %s .xctestrun in %s", platform, products)
	}
	sort.Strings(pick)
	app := filepath.Join(products, "Debug-"+platform, RunnerApp)
	if st, err := os.Stat(app); err != nil || !st.IsDir() {
		return Built{}, fmt.Errorf("no %s in %s", RunnerApp, filepath.Dir(app))
	}
	return Built{XCTestRun: pick[len(pick)-1], Products: filepath.Dir(app)}, nil
}

type sourceFile struct {
	name string
	data []byte
}

func sourceFiles(src fs.FS) ([]sourceFile, error) {
	var out []sourceFile
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		out = append(out, sourceFile{name: p, data: data})
		return err
	})
	if err == nil && !hasProject(out) {
		err = errors.New("no " + project + " among them")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}

func hasProject(files []sourceFile) bool {
	for _, f := range files {
		if strings.HasPrefix(f.name, project+"/") {
			return true
		}
	}
	return false
}

func cacheKey(files []sourceFile, cfg BuildConfig) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\niphone %v\nteam %s\n", buildStyle, cfg.IPhone, cfg.Team)
	for _, f := range files {
		fmt.Fprintf(h, "%s %d\n", f.name, len(f.data))
		h.Write(f.data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// version is a CFBundleVersion made of the key: digits only, as Apple's
// format wants, and different for every key in practice.
func version(key string) string {
	raw, _ := hex.DecodeString(key[:8])
	return strconv.FormatUint(uint64(binary.BigEndian.Uint32(raw)), 10)
}

// tailBuffer keeps the end of xcodebuild's output for the error message.
type tailBuffer struct{ buf []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 64<<10 {
		t.buf = t.buf[len(t.buf)-32<<10:]
	}
	return len(p), nil
}

// last is the output's last few lines that say something, errors first.
func (t *tailBuffer) last() string {
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	var errs []string
	for _, l := range lines {
		if strings.Contains(l, "error:") {
			errs = append(errs, strings.TrimSpace(l))
		}
	}
	if len(errs) > 0 {
		lines = errs
	}
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return string(bytes.TrimSpace([]byte(strings.Join(lines, "; "))))
}

// AppVersion is the CFBundleVersion in an .app folder's Info.plist (binary
// or XML, as Xcode writes either), for comparing a prebuilt runner with
// the one on a phone.
func AppVersion(app string) (string, error) {
	_, v, err := AppInfo(app)
	return v, err
}

// AppInfo is the CFBundleIdentifier and CFBundleVersion in an .app
// folder's Info.plist.
func AppInfo(app string) (id, version string, err error) {
	data, err := os.ReadFile(filepath.Join(app, "Info.plist"))
	if err != nil {
		return "", "", canonical.Errorf(canonical.CodeInvalidArgs, "%s is not a built app: %v", app, err).With("path", app).
			WithHint("give the " + RunnerApp + " folder from a build for iPhones (flow ios runner build --iphone --team TEAM prints its folder)")
	}
	var info struct {
		ID      string `plist:"CFBundleIdentifier"`
		Version string `plist:"CFBundleVersion"`
	}
	if _, err := plist.Unmarshal(data, &info); err != nil {
		return "", "", canonical.Errorf(canonical.CodeInvalidArgs, "%s/Info.plist is not a property list: %v", app, err).With("path", app).
			WithHint("give the " + RunnerApp + " folder Xcode built")
	}
	return info.ID, info.Version, nil
}
