package helperapk

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
	"github.com/gkampitakis/go-snaps/snaps"
)

// fakeTool is the body, after the shared preamble, of each fake SDK or JDK
// tool: it writes what the real tool writes, where build.go's arguments say
// (argument forms: `javac -d DIR`, `d8 --output DIR` writes classes.dex,
// `aapt2 link -o APK --manifest FILE`, `zipalign … IN OUT`,
// `keytool -keystore FILE`, `apksigner sign --out OUT IN`, `apksigner verify`,
// as the tools' own --help documents them).
var fakeTool = map[string]string{
	// javac -version prints "javac 17.0.9" (JDK 9+; JDK 8 says "javac
	// 1.8.0_392"); $FAKE/javac-version sets the number.
	"javac": `if [ "$1" = -version ]; then printf 'javac %s\n' "$(cat "$FAKE/javac-version" 2>/dev/null || echo 17.0.9)"; exit 0; fi
out=$(arg -d "$@")
mkdir -p "$out/dev/flow/helper"
for a in "$@"; do case $a in *.java) : > "$out/dev/flow/helper/$(basename "$a" .java).class";; esac; done`,
	"d8":       javaEnv + `printf 'dex\n' > "$(arg --output "$@")/classes.dex"`,
	"aapt2":    `cp "$(arg --manifest "$@")" "$FAKE/linked-manifest.xml"; cp "$FAKE/linked.zip" "$(arg -o "$@")"`,
	"zipalign": `for a in "$@"; do in=$out; out=$a; done; cp "$in" "$out"`,
	// $FAKE/race names a key another flow writes while this keytool runs.
	"java":      `:`,
	"keytool":   `printf 'key\n' > "$(arg -keystore "$@")"; if [ -f "$FAKE/race" ]; then printf 'other\n' > "$(cat "$FAKE/race")"; fi`,
	"apksigner": javaEnv + `if [ "$1" = sign ]; then for a in "$@"; do last=$a; done; cp "$last" "$(arg --out "$@")"; fi`,
}

// javaEnv: the SDK's d8 and apksigner are scripts that run the java on
// PATH (build-tools' d8 and apksigner wrappers), so the fakes record which
// java that is and JAVA_HOME, in $FAKE/java-env.
const javaEnv = `printf '%s JAVA_HOME=%s java=%s\n' "$(basename "$0")" "$JAVA_HOME" "$(command -v java)" >> "$FAKE/java-env"
`

const fakePreamble = `#!/bin/sh
# A fake %s for helper-apk/build_test.go: it records its argv in $FAKE/argv,
# fails with the text of $FAKE/fail-%s when that file exists, else writes
# the outputs the real tool writes.
FAKE=%q
arg() { want=$1; shift; prev=; for a in "$@"; do [ "$prev" = "$want" ] && { printf '%%s' "$a"; return; }; prev=$a; done; }
{ printf '%%s' "$0"; for a in "$@"; do printf ' %%s' "$a"; done; printf '\n'; } >> "$FAKE/argv"
if [ -f "$FAKE/fail-%s" ]; then cat "$FAKE/fail-%s" >&2; exit 1; fi
`

type fake struct {
	dir, sdk, jdk, cache string
}

// newFake makes an SDK (platforms/android-34, build-tools/34.0.0) and a JDK
// of shell scripts, and the zip the fake aapt2 links.
func newFake(t *testing.T) *fake {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake Android SDK is made of POSIX shell scripts")
	}
	root := t.TempDir()
	f := &fake{dir: filepath.Join(root, "fake"), sdk: filepath.Join(root, "sdk"), jdk: filepath.Join(root, "jdk"), cache: filepath.Join(root, "cache")}
	must(t, os.MkdirAll(f.dir, 0o755))
	f.platform(t, "android-34")
	f.buildTools(t, "34.0.0", "d8", "aapt2", "zipalign", "apksigner")
	for _, tool := range []string{"javac", "java", "keytool"} {
		f.script(t, filepath.Join(f.jdk, "bin"), tool)
	}
	var z bytes.Buffer
	w := zip.NewWriter(&z)
	for _, name := range []string{"AndroidManifest.xml", "resources.arsc"} {
		e, err := w.Create(name)
		must(t, err)
		_, err = e.Write([]byte("linked " + name))
		must(t, err)
	}
	must(t, w.Close())
	must(t, os.WriteFile(filepath.Join(f.dir, "linked.zip"), z.Bytes(), 0o644))
	return f
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fake) platform(t *testing.T, name string) {
	dir := filepath.Join(f.sdk, "platforms", name)
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "android.jar"), []byte("jar"), 0o644))
}

func (f *fake) buildTools(t *testing.T, version string, tools ...string) {
	for _, tool := range tools {
		f.script(t, filepath.Join(f.sdk, "build-tools", version), tool)
	}
}

func (f *fake) script(t *testing.T, dir, tool string) {
	must(t, os.MkdirAll(dir, 0o755))
	body := strings.NewReplacer("%s", tool, "%q", "'"+f.dir+"'", "%%", "%").Replace(fakePreamble) + fakeTool[tool] + "\n"
	must(t, os.WriteFile(filepath.Join(dir, tool), []byte(body), 0o755))
}

// argv is what the tools recorded, with the machine's folders named.
func (f *fake) argv(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join(f.dir, "argv"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	s := strings.NewReplacer(f.sdk, "$SDK", f.jdk, "$JDK").Replace(string(data))
	s = regexp.MustCompile(regexp.QuoteMeta(f.cache)+`/build-[0-9]+`).ReplaceAllString(s, "$$WORK")
	return strings.ReplaceAll(s, f.cache, "$CACHE")
}

// inputRuns are the runs of source and class files in a command line,
// which the snapshot shows as one placeholder each (a new source file is
// not a new command); TestBuildCommandLines checks the files themselves.
var inputRuns = regexp.MustCompile(`( \$WORK/(src|classes)/dev/flow/helper/\S+\.(java|class))+`)

func collapseInputs(argv string) string {
	return inputRuns.ReplaceAllStringFunc(argv, func(run string) string {
		if strings.HasSuffix(run, ".java") {
			return " $WORK/src/dev/flow/helper/*.java"
		}
		return " $WORK/classes/dev/flow/helper/*.class"
	})
}

func (f *fake) config() BuildConfig {
	return BuildConfig{SDK: f.sdk, CacheDir: f.cache, JDK: f.jdk}
}

func zipEntries(t *testing.T, apk string) map[string]string {
	t.Helper()
	r, err := zip.OpenReader(apk)
	if err != nil {
		t.Fatalf("%s is not a zip: %v", apk, err)
	}
	defer r.Close()
	out := map[string]string{}
	for _, e := range r.File {
		rc, err := e.Open()
		must(t, err)
		data, err := io.ReadAll(rc)
		rc.Close()
		must(t, err)
		out[e.Name] = string(data)
	}
	return out
}

// TestBuildCommandLines pins every command Build runs, in order, and
// checks what it leaves: the APK in the cache (aapt2's entries plus d8's
// classes.dex), the debug key, no build folder.
func TestBuildCommandLines(t *testing.T) {
	f := newFake(t)
	var log bytes.Buffer
	cfg := f.config()
	cfg.Log = &log
	apk, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	argv := f.argv(t)
	snaps.MatchSnapshot(t, collapseInputs(argv))
	// javac compiles every embedded source, d8 dexes every class javac
	// wrote (the fake javac writes one per source).
	files, err := javaFiles(sources)
	must(t, err)
	var srcs, classes []string
	for _, jf := range files {
		srcs = append(srcs, "$WORK/src/"+jf.name)
		classes = append(classes, "$WORK/classes/"+strings.TrimSuffix(jf.name, ".java")+".class")
	}
	lines := strings.Split(argv, "\n")
	if lines[0] != "$JDK/bin/javac -version" {
		t.Errorf("the JDK's version must be read first (cache key, JDK 17 check), got %s", lines[0])
	}
	if !strings.HasSuffix(lines[1], " "+strings.Join(srcs, " ")) {
		t.Errorf("javac did not get exactly the %d embedded sources:\n%s", len(srcs), lines[1])
	}
	if !strings.HasSuffix(lines[2], " "+strings.Join(classes, " ")) {
		t.Errorf("d8 did not get exactly the classes javac wrote:\n%s", lines[2])
	}
	if got := strings.Count(log.String(), "\n"); got != 7 {
		t.Errorf("Log got %d command lines, want the 7 that ran:\n%s", got, log.String())
	}
	if filepath.Dir(apk) != f.cache || !regexp.MustCompile(`^flow-helper-[0-9a-f]{16}\.apk$`).MatchString(filepath.Base(apk)) {
		t.Errorf("APK at %s, want $CACHE/flow-helper-<key>.apk", apk)
	}
	entries := zipEntries(t, apk)
	want := map[string]string{"AndroidManifest.xml": "linked AndroidManifest.xml", "resources.arsc": "linked resources.arsc", "classes.dex": "dex\n"}
	if len(entries) != len(want) {
		t.Errorf("APK entries %v, want %v", entries, want)
	}
	for k, v := range want {
		if entries[k] != v {
			t.Errorf("APK entry %s = %q, want %q", k, entries[k], v)
		}
	}
	linked, err := os.ReadFile(filepath.Join(f.dir, "linked-manifest.xml"))
	must(t, err)
	if !bytes.Equal(linked, Manifest()) {
		t.Errorf("aapt2 linked the manifest\n%s\nwant Manifest()\n%s", linked, Manifest())
	}
	if _, err := os.Stat(filepath.Join(f.cache, keystore)); err != nil {
		t.Errorf("no debug key kept in the cache: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(f.cache, "build-*")); len(left) > 0 {
		t.Errorf("build folders left behind: %v", left)
	}
}

// TestBuildCache: the same sources and tools return the cached APK without
// running anything; another source or another build-tools builds anew and
// signs with the key already made.
func TestBuildCache(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	src, err := fs.Sub(sources, ".")
	must(t, err)
	first, err := build(ctx, f.config(), src)
	must(t, err)
	ran := f.argv(t)
	again, err := build(ctx, f.config(), src)
	must(t, err)
	// Only the JDK's version is read again: it is part of the key.
	if again != first || f.argv(t) != ran+"$JDK/bin/javac -version\n" {
		t.Fatalf("a second build with nothing changed ran tools or moved the APK (%s, then %s):\n%s", first, again, strings.TrimPrefix(f.argv(t), ran))
	}

	changed := fstest.MapFS{}
	files, err := javaFiles(sources)
	must(t, err)
	for _, jf := range files {
		changed["src/"+jf.name] = &fstest.MapFile{Data: jf.data}
	}
	changed["src/dev/flow/helper/Protocol.java"].Data = append(bytes.Clone(changed["src/dev/flow/helper/Protocol.java"].Data), "\n// changed\n"...)
	other, err := build(ctx, f.config(), changed)
	must(t, err)
	if other == first {
		t.Fatal("a changed source reused the cached APK")
	}
	rebuilt := strings.TrimPrefix(f.argv(t), ran)
	if strings.Contains(rebuilt, "bin/keytool") || !strings.Contains(rebuilt, "apksigner sign --ks $CACHE/debug.keystore") {
		t.Errorf("a rebuild must sign with the cached key and not make another:\n%s", rebuilt)
	}

	f.buildTools(t, "35.0.0", "d8", "aapt2", "zipalign", "apksigner")
	newer, err := build(ctx, f.config(), src)
	must(t, err)
	if newer == first || !strings.Contains(f.argv(t), "$SDK/build-tools/35.0.0/d8") {
		t.Errorf("newer build-tools must build anew with them (APK %s):\n%s", newer, f.argv(t))
	}
}

// TestCacheKey: every input of the APK changes the key.
func TestCacheKey(t *testing.T) {
	files := []javaFile{{"dev/flow/helper/A.java", []byte("class A {}")}}
	tl := tools{platform: "android-34", buildTools: "34.0.0", jdkVersion: "javac 17.0.9"}
	m := Manifest()
	base := cacheKey(files, m, tl)
	if base != cacheKey([]javaFile{{"dev/flow/helper/A.java", []byte("class A {}")}}, m, tl) {
		t.Fatal("the key is not stable")
	}
	variants := map[string]string{
		"source":      cacheKey([]javaFile{{"dev/flow/helper/A.java", []byte("class A { }")}}, m, tl),
		"file name":   cacheKey([]javaFile{{"dev/flow/helper/B.java", []byte("class A {}")}}, m, tl),
		"manifest":    cacheKey(files, append(bytes.Clone(m), ' '), tl),
		"platform":    cacheKey(files, m, tools{platform: "android-35", buildTools: "34.0.0", jdkVersion: "javac 17.0.9"}),
		"build-tools": cacheKey(files, m, tools{platform: "android-34", buildTools: "34.0.1", jdkVersion: "javac 17.0.9"}),
		"JDK":         cacheKey(files, m, tools{platform: "android-34", buildTools: "34.0.0", jdkVersion: "javac 21.0.2"}),
	}
	for what, k := range variants {
		if k == base {
			t.Errorf("another %s gives the same key", what)
		}
	}
}

func TestPickTools(t *testing.T) {
	f := newFake(t)
	for _, p := range []string{"android-23", "android-35", "android-33"} {
		f.platform(t, p)
	}
	must(t, os.MkdirAll(filepath.Join(f.sdk, "platforms", "android-36"), 0o755)) // no android.jar: a broken download
	must(t, os.MkdirAll(filepath.Join(f.sdk, "platforms", "android-UpsideDownCake"), 0o755))
	f.buildTools(t, "35.0.0-rc1", "d8", "aapt2", "zipalign", "apksigner")
	f.buildTools(t, "35.0.0", "d8", "aapt2", "zipalign", "apksigner")
	f.buildTools(t, "36.0.0", "d8", "aapt2", "zipalign") // no apksigner
	f.buildTools(t, "9.0.0", "d8", "aapt2", "zipalign", "apksigner")
	tl, err := findTools(f.config())
	must(t, err)
	if tl.platform != "android-35" || tl.api != 35 || tl.buildTools != "35.0.0" {
		t.Errorf("picked %s (API %d) and build-tools %s, want android-35 and 35.0.0", tl.platform, tl.api, tl.buildTools)
	}
	cfg := f.config()
	cfg.Platform, cfg.BuildTools = "android-33", "35.0.0-rc1"
	tl, err = findTools(cfg)
	must(t, err)
	if tl.platform != "android-33" || tl.buildTools != "35.0.0-rc1" {
		t.Errorf("pinned android-33 and 35.0.0-rc1, got %s and %s", tl.platform, tl.buildTools)
	}
	for _, c := range [][2]string{{"34.0.0", "35.0.0-rc1"}, {"35.0.0-rc1", "35.0.0"}, {"35.0.0", "35.0.1"}, {"9.0.0", "10.0.0"}} {
		if !versionLess(c[0], c[1]) || versionLess(c[1], c[0]) {
			t.Errorf("versionLess(%s, %s) must hold one way only", c[0], c[1])
		}
	}
}

// coded asserts a DEVICE_UNAVAILABLE (or want) error whose message and hint
// hold the given texts.
func coded(t *testing.T, err error, code canonical.Code, texts ...string) *canonical.Error {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != code {
		t.Fatalf("got %v, want a %s error", err, code)
	}
	for _, s := range texts {
		if !strings.Contains(ce.Message+"\n"+ce.Hint, s) {
			t.Errorf("%s\nhint: %s\ndoes not say %q", ce.Message, ce.Hint, s)
		}
	}
	return ce
}

func TestBuildFailures(t *testing.T) {
	ctx := context.Background()
	t.Run("no SDK", func(t *testing.T) {
		_, err := Build(ctx, BuildConfig{CacheDir: t.TempDir()})
		coded(t, err, canonical.CodeDeviceUnavailable, "--android-helper APK", "FLOW_ANDROID_HELPER", "ANDROID_HOME")
	})
	t.Run("SDK is not a folder", func(t *testing.T) {
		_, err := Build(ctx, BuildConfig{SDK: filepath.Join(t.TempDir(), "nope"), CacheDir: t.TempDir()})
		coded(t, err, canonical.CodeDeviceUnavailable, "is not a folder", "ANDROID_HOME", "--android-helper APK")
	})
	t.Run("no platform", func(t *testing.T) {
		f := newFake(t)
		must(t, os.RemoveAll(filepath.Join(f.sdk, "platforms")))
		_, err := Build(ctx, f.config())
		coded(t, err, canonical.CodeDeviceUnavailable, "no platform of API 24 or newer", `sdkmanager "platforms;android-35"`, "--android-helper APK")
	})
	t.Run("no build-tools", func(t *testing.T) {
		f := newFake(t)
		must(t, os.Remove(filepath.Join(f.sdk, "build-tools", "34.0.0", "zipalign")))
		_, err := Build(ctx, f.config())
		coded(t, err, canonical.CodeDeviceUnavailable, "no build-tools with d8, aapt2, zipalign, apksigner", `sdkmanager "build-tools;35.0.0"`)
	})
	t.Run("no javac in the JDK", func(t *testing.T) {
		f := newFake(t)
		must(t, os.Remove(filepath.Join(f.jdk, "bin", "javac")))
		_, err := Build(ctx, f.config())
		coded(t, err, canonical.CodeDeviceUnavailable, "has no bin/javac", "JAVA_HOME")
	})
	t.Run("a tool fails", func(t *testing.T) {
		f := newFake(t)
		must(t, os.WriteFile(filepath.Join(f.dir, "fail-d8"), []byte("Error: classes.jar: unsupported class file major version 65\n"), 0o644))
		_, err := Build(ctx, f.config())
		ce := coded(t, err, canonical.CodeDeviceUnavailable, "d8 failed", "--android-helper APK")
		if ce.Details["step"] != "d8" || !strings.Contains(ce.Details["output"].(string), "unsupported class file major version 65") {
			t.Errorf("details %v must name the step and quote the tool", ce.Details)
		}
		if apks, _ := filepath.Glob(filepath.Join(f.cache, "*.apk")); len(apks) > 0 {
			t.Errorf("a failed build left %v in the cache", apks)
		}
		if left, _ := filepath.Glob(filepath.Join(f.cache, "build-*")); len(left) > 0 {
			t.Errorf("a failed build left %v", left)
		}
		if strings.Contains(f.argv(t), "/aapt2") {
			t.Errorf("the build went on after d8 failed:\n%s", f.argv(t))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		f := newFake(t)
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := Build(ctx, f.config())
		if canonical.CodeOf(err) != canonical.CodeInterrupted {
			t.Errorf("a cancelled build: %v, want INTERRUPTED", err)
		}
	})
}

// TestLocate: --android-helper, then FLOW_ANDROID_HELPER, then the
// embedded helper; an SDK in the environment builds nothing (a run needs
// none, `flow android helper build` is the way to use one).
func TestLocate(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	given := filepath.Join(t.TempDir(), "given.apk")
	fromEnv := filepath.Join(t.TempDir(), "env.apk")
	must(t, os.WriteFile(given, []byte("apk"), 0o644))
	must(t, os.WriteFile(fromEnv, []byte("apk"), 0o644))

	f := newFake(t)
	for _, getenv := range []func(string) string{nil, env("ANDROID_HOME", f.sdk, "JAVA_HOME", f.jdk)} {
		h, err := Locate(Source{Getenv: getenv})
		if err != nil || h.Path != "" || !bytes.Equal(h.APK, Embedded()) || len(h.APK) == 0 {
			t.Errorf("with no APK given, Locate must return the embedded helper: %+v, %v", h.Path, err)
		}
	}
	if argv := f.argv(t); argv != "" {
		t.Errorf("Locate ran the SDK's tools:\n%s", argv)
	}
	if got, err := Locate(Source{APK: given, Getenv: env("FLOW_ANDROID_HELPER", fromEnv)}); err != nil || got.Path != given || got.APK != nil {
		t.Errorf("--android-helper must win over FLOW_ANDROID_HELPER: %+v, %v", got, err)
	}
	if got, err := Locate(Source{Getenv: env("FLOW_ANDROID_HELPER", fromEnv, "ANDROID_HOME", "/sdk")}); err != nil || got.Path != fromEnv {
		t.Errorf("FLOW_ANDROID_HELPER must win over the embedded helper: %+v, %v", got, err)
	}
	_, err := Locate(Source{APK: filepath.Dir(given)})
	coded(t, err, canonical.CodeInvalidArgs, "--android-helper", "is not an APK file")
	_, err = Locate(Source{Getenv: env("FLOW_ANDROID_HELPER", "/no/such.apk")})
	coded(t, err, canonical.CodeInvalidArgs, "FLOW_ANDROID_HELPER /no/such.apk is not an APK file")

	ce := coded(t, Missing("emulator-5554"), canonical.CodeDeviceUnavailable, "emulator-5554", "ANDROID_HOME", "--android-helper APK", "embeds")
	if ce.Details["serial"] != "emulator-5554" {
		t.Errorf("details %v must name the serial", ce.Details)
	}
	if SDKFromEnv(env("ANDROID_SDK_ROOT", "/old", "ANDROID_HOME", "/new")) != "/new" {
		t.Error("ANDROID_HOME must win over ANDROID_SDK_ROOT")
	}
}

// manifestXML is the part of AndroidManifest.xml the helper's start
// depends on.
type manifestXML struct {
	Package     string `xml:"package,attr"`
	VersionCode string `xml:"versionCode,attr"`
	UsesSDK     struct {
		Min    string `xml:"minSdkVersion,attr"`
		Target string `xml:"targetSdkVersion,attr"`
	} `xml:"uses-sdk"`
	Permissions []struct {
		Name string `xml:"name,attr"`
		Max  string `xml:"maxSdkVersion,attr"`
	} `xml:"uses-permission"`
	Application     *struct{} `xml:"application"`
	Instrumentation []struct {
		Name   string `xml:"name,attr"`
		Target string `xml:"targetPackage,attr"`
	} `xml:"instrumentation"`
}

// TestManifest: the manifest declares the instrumentation `am instrument`
// starts (Runner, PROTOCOL.md "Start and stop") as a class the sources
// hold, with the permissions its operations need.
func TestManifest(t *testing.T) {
	var m manifestXML
	if err := xml.Unmarshal(Manifest(), &m); err != nil {
		t.Fatalf("Manifest is not XML: %v\n%s", err, Manifest())
	}
	if m.Package != Package || m.VersionCode != "1" || m.UsesSDK.Min != "24" || m.UsesSDK.Target != "35" || m.Application == nil {
		t.Errorf("manifest %+v: want package %s, versionCode 1, minSdk 24, targetSdk 35 (TargetSDK), an application", m, Package)
	}
	if len(m.Instrumentation) != 1 || Package+"/"+m.Instrumentation[0].Name != Runner || m.Instrumentation[0].Target != Package {
		t.Fatalf("instrumentation %+v must be %s targeting its own package", m.Instrumentation, Runner)
	}
	class := strings.TrimPrefix(m.Instrumentation[0].Name, ".")
	src, err := sources.ReadFile("src/dev/flow/helper/" + class + ".java")
	if err != nil || !strings.Contains(string(src), "class "+class+" extends Instrumentation") {
		t.Errorf("the instrumentation %s is not a class of the embedded sources extending Instrumentation (%v)", class, err)
	}
	perms := map[string]string{}
	for _, p := range m.Permissions {
		perms[p.Name] = p.Max
	}
	for name, max := range map[string]string{"android.permission.ACCESS_MOCK_LOCATION": "", "android.permission.QUERY_ALL_PACKAGES": "", "android.permission.WRITE_EXTERNAL_STORAGE": "28"} {
		if got, ok := perms[name]; !ok || got != max {
			t.Errorf("permission %s (maxSdkVersion %q) missing or different: %v", name, max, perms)
		}
	}
	status, err := sources.ReadFile("src/dev/flow/helper/InstrumentationStatus.java")
	if err != nil || !strings.Contains(string(status), `PROTOCOL = "`+Protocol+`"`) {
		t.Errorf("InstrumentationStatus.java must announce %s (%v)", Protocol, err)
	}
}

// TestEmbeddedSources: the binary carries exactly src/dev/flow/helper's
// Java, neither the tests nor the stubs.
func TestEmbeddedSources(t *testing.T) {
	files, err := javaFiles(sources)
	must(t, err)
	onDisk, err := filepath.Glob("src/dev/flow/helper/*.java")
	must(t, err)
	if len(files) != len(onDisk) {
		t.Fatalf("embedded %d sources, src/dev/flow/helper has %d", len(files), len(onDisk))
	}
	for _, f := range files {
		disk, err := os.ReadFile(filepath.Join("src", filepath.FromSlash(f.name)))
		if err != nil || !bytes.Equal(disk, f.data) {
			t.Errorf("embedded %s differs from the file (%v)", f.name, err)
		}
	}
}

// TestBuildWithSDK builds the real APK when an Android SDK and a JDK are
// here (never on this project's CI, which has no SDK): the APK must hold
// the manifest and the dex.
func TestBuildWithSDK(t *testing.T) {
	sdk := SDKFromEnv(os.Getenv)
	if sdk == "" {
		t.Skip("no Android SDK (ANDROID_HOME / ANDROID_SDK_ROOT unset): the real build is checked only where one is installed")
	}
	apk, err := Build(context.Background(), BuildConfig{SDK: sdk, CacheDir: t.TempDir(), JDK: os.Getenv("JAVA_HOME")})
	if err != nil {
		t.Fatal(err)
	}
	entries := zipEntries(t, apk)
	for _, name := range []string{"AndroidManifest.xml", "classes.dex"} {
		if _, ok := entries[name]; !ok {
			t.Errorf("%s has no %s", apk, name)
		}
	}
}

// TestOnlyTheShippedAPKIsCommitted: the one APK in the tree is the
// shipped helper, which CI rebuilds bit for bit from src/; any other APK
// would be a binary nobody can review.
func TestOnlyTheShippedAPKIsCommitted(t *testing.T) {
	shipped, err := filepath.Abs(filepath.FromSlash(DistAPK))
	must(t, err)
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if abs, _ := filepath.Abs(p); !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".apk") && abs != shipped {
			t.Errorf("%s: no APK but %s belongs in the repository (go run ./helper-apk/cmd/builddist makes it)", p, DistAPK)
		}
		return nil
	})
	must(t, err)
}

// TestDebugKeyRace: a key another flow stored while this build made its own
// is kept and used, so the two flows' helpers install over each other.
func TestDebugKeyRace(t *testing.T) {
	f := newFake(t)
	key := filepath.Join(f.cache, keystore)
	must(t, os.WriteFile(filepath.Join(f.dir, "race"), []byte(key), 0o644))
	if _, err := Build(context.Background(), f.config()); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(key); err != nil || string(data) != "other\n" {
		t.Errorf("the debug key is %q (%v), want the one the other flow stored", data, err)
	}
}

// TestBuildRunsToolsWithTheJDK (review R3): the SDK's d8 and apksigner
// wrappers run the java on PATH, so the build gives them the JDK it found
// (JAVA_HOME, or the JDK javac on PATH links into) first on PATH and as
// JAVA_HOME.
func TestBuildRunsToolsWithTheJDK(t *testing.T) {
	check := func(t *testing.T, f *fake, jdk string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(f.dir, "java-env"))
		must(t, err)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) < 3 { // d8, apksigner sign, apksigner verify
			t.Fatalf("d8 and apksigner did not run:\n%s", data)
		}
		want := "JAVA_HOME=" + jdk + " java=" + filepath.Join(jdk, "bin", "java")
		for _, l := range lines {
			if !strings.HasSuffix(l, want) {
				t.Errorf("%s\nwant the JDK's java and JAVA_HOME: %s", l, want)
			}
		}
	}
	t.Run("JAVA_HOME", func(t *testing.T) {
		f := newFake(t)
		t.Setenv("JAVA_HOME", "/elsewhere")
		_, err := Build(context.Background(), f.config())
		must(t, err)
		check(t, f, f.jdk)
	})
	t.Run("javac on PATH through a link", func(t *testing.T) {
		f := newFake(t)
		links := filepath.Join(t.TempDir(), "bin")
		must(t, os.MkdirAll(links, 0o755))
		for _, tool := range []string{"javac", "keytool"} {
			must(t, os.Symlink(filepath.Join(f.jdk, "bin", tool), filepath.Join(links, tool)))
		}
		t.Setenv("PATH", links+string(os.PathListSeparator)+os.Getenv("PATH"))
		cfg := f.config()
		cfg.JDK = ""
		_, err := Build(context.Background(), cfg)
		must(t, err)
		check(t, f, f.jdk)
	})
}

// TestBuildNeedsJDK17 (review R4): an older JDK is refused before anything
// is built, and the JDK's version is part of the cache key.
func TestBuildNeedsJDK17(t *testing.T) {
	for _, old := range []string{"11.0.22", "1.8.0_392"} {
		f := newFake(t)
		must(t, os.WriteFile(filepath.Join(f.dir, "javac-version"), []byte(old), 0o644))
		_, err := Build(context.Background(), f.config())
		coded(t, err, canonical.CodeDeviceUnavailable, "javac "+old, "JDK 17 or newer", "JAVA_HOME")
		if argv := f.argv(t); strings.TrimSpace(argv) != "$JDK/bin/javac -version" {
			t.Errorf("JDK %s: only the version may be read, ran:\n%s", old, argv)
		}
	}
	f := newFake(t)
	first, err := Build(context.Background(), f.config())
	must(t, err)
	must(t, os.WriteFile(filepath.Join(f.dir, "javac-version"), []byte("21.0.2"), 0o644))
	second, err := Build(context.Background(), f.config())
	must(t, err)
	if first == second {
		t.Errorf("JDK 21 reused the APK JDK 17 built (%s): the JDK must be in the cache key", first)
	}
}

// TestPickPlatformNames (review R5): minor releases (android-36.1),
// extension levels (android-35-ext14) and previews named by codename
// (their API level in source.properties, as sdkmanager writes it) are
// platforms too; the newest release wins over a preview.
func TestPickPlatformNames(t *testing.T) {
	f := newFake(t)
	for _, p := range []string{"android-35", "android-35-ext14", "android-36", "android-36.1", "android-Baklava"} {
		f.platform(t, p)
	}
	must(t, os.WriteFile(filepath.Join(f.sdk, "platforms", "android-Baklava", "source.properties"),
		[]byte("Pkg.Desc=Android SDK Platform Baklava\nAndroidVersion.ApiLevel=35\nAndroidVersion.CodeName=Baklava\n"), 0o644))
	name, api, err := pickPlatform(f.sdk, "")
	if err != nil || name != "android-36.1" || api != 36 {
		t.Errorf("picked %s (API %d, %v), want android-36.1 (API 36)", name, api, err)
	}
	for want, api := range map[string]int{"android-35-ext14": 35, "android-Baklava": 35, "android-36.1": 36} {
		name, got, err := pickPlatform(f.sdk, want)
		if err != nil || name != want || got != api {
			t.Errorf("pinned %s: got %s API %d (%v), want API %d", want, name, got, err, api)
		}
	}
	for _, c := range [][2]string{{"android-35", "android-35-ext14"}, {"android-35-ext14", "android-36"}, {"android-36", "android-36.1"}} {
		a, _ := parsePlatform(f.sdk, c[0])
		b, _ := parsePlatform(f.sdk, c[1])
		if !a.less(b) || b.less(a) {
			t.Errorf("%s must come before %s", c[0], c[1])
		}
	}
	only := newFake(t)
	must(t, os.RemoveAll(filepath.Join(only.sdk, "platforms")))
	only.platform(t, "android-Baklava")
	must(t, os.WriteFile(filepath.Join(only.sdk, "platforms", "android-Baklava", "source.properties"), []byte("AndroidVersion.ApiLevel=35\n"), 0o644))
	if name, _, err := pickPlatform(only.sdk, ""); err != nil || name != "android-Baklava" {
		t.Errorf("a preview alone must be used: %s, %v", name, err)
	}
}

// TestBuildPinsTargetSDK (review R5): the manifest targets TargetSDK
// whatever platform the SDK has, so the helper behaves the same on every
// machine.
func TestBuildPinsTargetSDK(t *testing.T) {
	f := newFake(t)
	f.platform(t, "android-36")
	_, err := Build(context.Background(), f.config())
	must(t, err)
	linked, err := os.ReadFile(filepath.Join(f.dir, "linked-manifest.xml"))
	must(t, err)
	var m manifestXML
	must(t, xml.Unmarshal(linked, &m))
	if m.UsesSDK.Target != strconv.Itoa(TargetSDK) || !strings.Contains(f.argv(t), "platforms/android-36/android.jar") {
		t.Errorf("built against android-36 with targetSdk %s, want %d:\n%s", m.UsesSDK.Target, TargetSDK, f.argv(t))
	}
}
