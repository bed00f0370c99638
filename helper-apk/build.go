package helperapk

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/flow-runner/flow/canonical"
)

// sources are the helper's Java sources, pure and android.* layer; the
// tests and stubs/ are not shipped.
//
//go:embed src/dev/flow/helper/*.java
var sources embed.FS

// BuildConfig says where the tools are and where the APK goes.
type BuildConfig struct {
	// SDK is the Android SDK folder (ANDROID_HOME, or ANDROID_SDK_ROOT);
	// the build uses its platforms/android-N/android.jar and the d8,
	// aapt2, zipalign and apksigner of its build-tools/VERSION.
	SDK string
	// CacheDir keeps the built APKs (named by their cache key) and the
	// debug signing key; empty is the user's cache folder + flow/android-helper.
	CacheDir string
	// JDK is a JDK folder whose bin/ holds javac and keytool (JAVA_HOME);
	// empty finds them on PATH.
	JDK string
	// Platform ("android-35") and BuildTools ("35.0.0") pin what the SDK
	// offers; empty takes the newest complete one.
	Platform, BuildTools string
	// Log, when set, receives each command line before it runs.
	Log io.Writer
}

// keyAlias and keyPass are the debug key's, as Android's own debug key has
// a well-known password: it signs a test helper, it protects nothing.
const (
	keyAlias   = "flowhelper"
	keyPass    = "android"
	keystore   = "debug.keystore"
	buildStyle = "flow-helper-build-v1" // bump when the steps below change the APK
)

// tools is what one build runs.
type tools struct {
	androidJar, platform, buildTools string
	api                              int
	javac, keytool                   string
	d8, aapt2, zipalign, apksigner   string
	// jdk is the JDK javac belongs to and jdkVersion what its javac
	// -version says; env is flow's environment with that JDK first on
	// PATH and as JAVA_HOME, for every tool the build runs.
	jdk, jdkVersion string
	env             []string
}

// minJDK is the oldest JDK the SDK build accepts: recent platforms'
// android.jar classes are class version 61 (Java 17), which an older javac
// cannot read, and Android's own build (AGP 8) requires JDK 17 too.
const minJDK = 17

// Build compiles the embedded helper with the SDK's own tools (javac
// against android.jar, d8, aapt2 link with Manifest, zipalign, apksigner
// with a debug key it makes once with keytool) and returns the APK's path.
// The APK is cached under a key of the sources, the manifest and the tool
// versions, so a second Build returns at once. Failures are
// DEVICE_UNAVAILABLE (no helper, no Android run) naming the step and what
// to do.
func Build(ctx context.Context, cfg BuildConfig) (string, error) {
	return build(ctx, cfg, sources)
}

func build(ctx context.Context, cfg BuildConfig, src fs.FS) (string, error) {
	if cfg.SDK == "" {
		return "", Missing("")
	}
	cache := cfg.CacheDir
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", unavailable("no cache folder for the helper APK: %v", err).Wrap(err).
				WithHint("set XDG_CACHE_HOME (or HOME), or pass --android-helper APK")
		}
		cache = filepath.Join(dir, "flow", "android-helper")
	}
	tl, err := findTools(cfg)
	if err != nil {
		return "", err
	}
	if err := checkJDK(ctx, &tl); err != nil {
		return "", err
	}
	files, err := javaFiles(src)
	if err != nil {
		return "", unavailable("reading the helper's sources: %v", err).Wrap(err)
	}
	manifest := Manifest()
	apk := filepath.Join(cache, "flow-helper-"+cacheKey(files, manifest, tl)[:16]+".apk")
	if st, err := os.Stat(apk); err == nil && st.Mode().IsRegular() {
		return apk, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", unavailable("cannot create the helper cache %s: %v", cache, err).Wrap(err)
	}
	work, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return "", unavailable("cannot create a build folder in %s: %v", cache, err).Wrap(err)
	}
	defer os.RemoveAll(work)
	b := &builder{ctx: ctx, log: cfg.Log, work: work, env: tl.env}
	signed, err := b.run(tl, files, manifest, filepath.Join(cache, keystore))
	if err != nil {
		return "", err
	}
	if err := os.Rename(signed, apk); err != nil {
		return "", unavailable("cannot move the built helper to %s: %v", apk, err).Wrap(err)
	}
	return apk, nil
}

type javaFile struct {
	name string // path inside src/, slash-separated
	data []byte
}

// javaFiles lists src's .java files in a fixed order.
func javaFiles(src fs.FS) ([]javaFile, error) {
	var out []javaFile
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".java") {
			return err
		}
		data, err := fs.ReadFile(src, p)
		out = append(out, javaFile{name: strings.TrimPrefix(p, "src/"), data: data})
		return err
	})
	if err == nil && len(out) == 0 {
		err = errors.New("no .java files")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}

// cacheKey names everything that shapes the APK: the build's own steps,
// each source, the manifest and the SDK parts it is built with.
func cacheKey(files []javaFile, manifest []byte, tl tools) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", buildStyle)
	for _, f := range files {
		fmt.Fprintf(h, "%s %d\n", f.name, len(f.data))
		h.Write(f.data)
	}
	fmt.Fprintf(h, "manifest %d\n", len(manifest))
	h.Write(manifest)
	fmt.Fprintf(h, "platform %s\nbuild-tools %s\njdk %s\n", tl.platform, tl.buildTools, tl.jdkVersion)
	return hex.EncodeToString(h.Sum(nil))
}

type builder struct {
	ctx  context.Context
	log  io.Writer
	work string
	env  []string // the tools' environment; nil inherits flow's
	hint string   // a failed step's hint; empty is sdkHint
}

const sdkHint = "the output above is the SDK tool's own; fix the SDK (sdkmanager --install) or pass a prebuilt helper with --android-helper APK"

// run builds in b.work and returns the signed APK's path there.
func (b *builder) run(tl tools, files []javaFile, manifest []byte, keyPath string) (string, error) {
	srcDir, classes, dex := filepath.Join(b.work, "src"), filepath.Join(b.work, "classes"), filepath.Join(b.work, "dex")
	var srcs []string
	for _, f := range files {
		p := filepath.Join(srcDir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", unavailable("writing the helper's sources: %v", err).Wrap(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return "", unavailable("writing the helper's sources: %v", err).Wrap(err)
		}
		srcs = append(srcs, p)
	}
	manifestPath := filepath.Join(b.work, "AndroidManifest.xml")
	for _, dir := range []string{classes, dex} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", unavailable("creating %s: %v", dir, err).Wrap(err)
		}
	}
	if err := os.WriteFile(manifestPath, manifest, 0o644); err != nil {
		return "", unavailable("writing the manifest: %v", err).Wrap(err)
	}

	// Java 8 bytecode against android.jar as the boot class path: the
	// platform's java.* and org.json are what the phone has, and d8
	// desugars Java 8 for every API level.
	javac := append([]string{tl.javac, "-source", "8", "-target", "8", "-bootclasspath", tl.androidJar,
		"-encoding", "UTF-8", "-nowarn", "-Xlint:-options", "-d", classes}, srcs...)
	if err := b.step("javac", javac); err != nil {
		return "", err
	}
	classFiles, err := listFiles(classes, ".class")
	if err != nil || len(classFiles) == 0 {
		return "", unavailable("javac wrote no classes to %s (%v)", classes, err).
			With("step", "javac").WithHint("check that " + tl.javac + " is a JDK's javac")
	}
	if err := b.step("d8", append([]string{tl.d8, "--release", "--min-api", strconv.Itoa(MinSDK), "--lib", tl.androidJar,
		"--output", dex}, classFiles...)); err != nil {
		return "", err
	}
	linked := filepath.Join(b.work, "linked.apk")
	if err := b.step("aapt2", []string{tl.aapt2, "link", "-o", linked, "-I", tl.androidJar, "--manifest", manifestPath}); err != nil {
		return "", err
	}
	unaligned := filepath.Join(b.work, "unaligned.apk")
	if err := addDex(linked, filepath.Join(dex, "classes.dex"), unaligned); err != nil {
		return "", unavailable("adding classes.dex to the APK: %v", err).Wrap(err).With("step", "dex")
	}
	aligned := filepath.Join(b.work, "aligned.apk")
	if err := b.step("zipalign", []string{tl.zipalign, "-p", "-f", "4", unaligned, aligned}); err != nil {
		return "", err
	}
	if err := b.debugKey(tl, keyPath); err != nil {
		return "", err
	}
	signed := filepath.Join(b.work, "signed.apk")
	if err := b.step("apksigner", []string{tl.apksigner, "sign", "--ks", keyPath, "--ks-pass", "pass:" + keyPass,
		"--key-pass", "pass:" + keyPass, "--ks-key-alias", keyAlias, "--min-sdk-version", strconv.Itoa(MinSDK),
		"--out", signed, aligned}); err != nil {
		return "", err
	}
	if err := b.step("apksigner", []string{tl.apksigner, "verify", "--min-sdk-version", strconv.Itoa(MinSDK), signed}); err != nil {
		return "", err
	}
	return signed, nil
}

// debugKey makes the cache's signing key once. Every later build signs with
// it, so a rebuilt helper installs over the last one without an uninstall.
func (b *builder) debugKey(tl tools, keyPath string) error {
	if _, err := os.Stat(keyPath); err == nil {
		return nil
	}
	// keytool writes the new key in the build folder; a link makes it appear
	// whole, and never replaces a key another flow made meanwhile (its
	// builds would no longer install over each other).
	tmp := filepath.Join(b.work, keystore)
	if err := b.step("keytool", []string{tl.keytool, "-genkeypair", "-keystore", tmp, "-storetype", "PKCS12",
		"-storepass", keyPass, "-keypass", keyPass, "-alias", keyAlias, "-keyalg", "RSA", "-keysize", "2048",
		"-validity", "10000", "-dname", "CN=flow helper debug", "-noprompt"}); err != nil {
		return err
	}
	err := os.Link(tmp, keyPath)
	if err != nil {
		if _, statErr := os.Stat(keyPath); statErr == nil {
			return nil // another build made it first: sign with that one
		}
		err = os.Rename(tmp, keyPath) // no hard links on this file system
	}
	if err != nil {
		return unavailable("cannot store the debug key at %s: %v", keyPath, err).Wrap(err)
	}
	return nil
}

// outputLimit bounds the tool output an error quotes (agent-device quotes
// 400 bytes of a failed command too).
const outputLimit = 400

func (b *builder) step(name string, argv []string) error {
	if b.log != nil {
		fmt.Fprintln(b.log, strings.Join(argv, " "))
	}
	cmd := exec.CommandContext(b.ctx, argv[0], argv[1:]...)
	cmd.Dir = b.work
	cmd.Env = b.env
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	if ctxErr := b.ctx.Err(); ctxErr != nil {
		return canonical.Interrupted(ctxErr)
	}
	tail := strings.TrimSpace(string(out))
	if len(tail) > outputLimit {
		tail = "…" + tail[len(tail)-outputLimit:]
	}
	hint := b.hint
	if hint == "" {
		hint = sdkHint
	}
	return unavailable("building the Android helper: %s failed: %v", name, err).Wrap(err).
		With("step", name).With("command", strings.Join(argv, " ")).With("output", tail).WithHint(hint)
}

func listFiles(dir, suffix string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, suffix) {
			out = append(out, p)
		}
		return err
	})
	sort.Strings(out)
	return out, err
}

// addDex writes linked (aapt2's APK: manifest, resources table) plus
// classes.dex to out. aapt2 has no "add" (aapt had); the zip is plain.
func addDex(linked, dex, out string) (err error) {
	r, err := zip.OpenReader(linked)
	if err != nil {
		return err
	}
	defer r.Close()
	code, err := os.ReadFile(dex)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := zip.NewWriter(f)
	for _, e := range r.File {
		if e.Name == "classes.dex" {
			continue
		}
		if err := w.Copy(e); err != nil {
			return err
		}
	}
	dw, err := w.CreateHeader(&zip.FileHeader{Name: "classes.dex", Method: zip.Deflate})
	if err != nil {
		return err
	}
	if _, err := dw.Write(code); err != nil {
		return err
	}
	return w.Close()
}

// findTools picks the platform and build-tools, and the JDK's javac and
// keytool; what is missing is named with the sdkmanager line that adds it.
func findTools(cfg BuildConfig) (tools, error) {
	var tl tools
	st, err := os.Stat(cfg.SDK)
	if err != nil || !st.IsDir() {
		return tl, unavailable("the Android SDK %s is not a folder", cfg.SDK).With("sdk", cfg.SDK).
			WithHint("set ANDROID_HOME to the SDK folder (Android Studio: Settings > Android SDK), or " + waysHint)
	}
	tl.platform, tl.api, err = pickPlatform(cfg.SDK, cfg.Platform)
	if err != nil {
		return tl, err
	}
	tl.androidJar = filepath.Join(cfg.SDK, "platforms", tl.platform, "android.jar")
	names := []string{"d8", "aapt2", "zipalign", "apksigner"}
	tl.buildTools, err = pickBuildTools(cfg.SDK, cfg.BuildTools, names)
	if err != nil {
		return tl, err
	}
	bt := filepath.Join(cfg.SDK, "build-tools", tl.buildTools)
	tl.d8, tl.aapt2, tl.zipalign, tl.apksigner = toolPath(bt, "d8"), toolPath(bt, "aapt2"), toolPath(bt, "zipalign"), toolPath(bt, "apksigner")
	for _, j := range []struct {
		name string
		dst  *string
	}{{"javac", &tl.javac}, {"keytool", &tl.keytool}} {
		if cfg.JDK != "" {
			if p := toolPath(filepath.Join(cfg.JDK, "bin"), j.name); p != "" {
				*j.dst = p
				continue
			}
			return tl, unavailable("the JDK %s has no bin/%s", cfg.JDK, j.name).With("jdk", cfg.JDK).
				WithHint(fmt.Sprintf("point JAVA_HOME at a JDK %d or newer (Android Studio bundles one: its jbr folder)", minJDK))
		}
		p, err := exec.LookPath(j.name)
		if err != nil {
			return tl, unavailable("building the Android helper needs %s, which is not on PATH", j.name).
				WithHint("install a JDK (apt-get install default-jdk-headless) or set JAVA_HOME; or " + waysHint)
		}
		*j.dst = p
	}
	tl.jdk = cfg.JDK
	if tl.jdk == "" {
		// javac on PATH is often a link (/usr/bin/javac → the JDK's
		// bin/javac): the JDK is where the link leads.
		real, err := filepath.EvalSymlinks(tl.javac)
		if err != nil {
			real = tl.javac
		}
		tl.jdk = filepath.Dir(filepath.Dir(real))
	}
	tl.env = jdkEnv(os.Environ(), tl.jdk)
	return tl, nil
}

// jdkEnv is environ with jdk as JAVA_HOME and its bin/ first on PATH. The
// SDK's d8 and apksigner are scripts that run "java" from PATH (their
// JAVA_HOME use varies by release), so without this they take whatever
// java PATH has, or none: on a Mac with only Android Studio there is none.
func jdkEnv(environ []string, jdk string) []string {
	out := make([]string, 0, len(environ)+2)
	path := ""
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.EqualFold(k, "PATH") && path == "":
			path = v
		case strings.EqualFold(k, "PATH"), k == "JAVA_HOME":
		default:
			out = append(out, kv)
		}
	}
	bin := filepath.Join(jdk, "bin")
	if path != "" {
		bin += string(os.PathListSeparator) + path
	}
	return append(out, "PATH="+bin, "JAVA_HOME="+jdk)
}

// checkJDK reads the JDK's version (it goes into the cache key: another
// javac compiles other bytes) and refuses one older than minJDK.
func checkJDK(ctx context.Context, tl *tools) error {
	v, err := javacVersion(ctx, tl.javac, tl.env)
	if err != nil {
		return err
	}
	if v.major < minJDK {
		return unavailable("the JDK %s is %s; building the helper needs JDK %d or newer", tl.jdk, v.text, minJDK).
			With("jdk", tl.jdk).With("javac", tl.javac).
			WithHint(fmt.Sprintf("recent android.jar files are Java %d class files: set JAVA_HOME to a JDK %d or newer (Android Studio's jbr folder is one; apt-get install openjdk-17-jdk-headless), or use the helper flow embeds", minJDK, minJDK))
	}
	tl.jdkVersion = v.text
	return nil
}

// platformVersion is what a platforms/ folder's name says: android-35,
// android-36.1 (a minor release), android-33-ext4 (an SDK extension
// level), or a preview named by its codename (android-UpsideDownCake),
// whose API level is in its source.properties.
type platformVersion struct {
	api, minor, ext int
	preview         bool
}

var platformName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^android-(\d+)(?:\.(\d+))?(?:-ext(\d+))?$`) })

func parsePlatform(sdk, name string) (platformVersion, bool) {
	if m := platformName().FindStringSubmatch(name); m != nil {
		var v platformVersion
		v.api, _ = strconv.Atoi(m[1])
		v.minor, _ = strconv.Atoi(m[2])
		v.ext, _ = strconv.Atoi(m[3])
		return v, true
	}
	if !strings.HasPrefix(name, "android-") {
		return platformVersion{}, false
	}
	// sdkmanager writes source.properties beside each platform's
	// android.jar; a preview's AndroidVersion.ApiLevel is the last
	// release's level (its own number does not exist yet) and
	// AndroidVersion.CodeName its name.
	props, err := os.ReadFile(filepath.Join(sdk, "platforms", name, "source.properties"))
	if err != nil {
		return platformVersion{}, false
	}
	for _, line := range strings.Split(string(props), "\n") {
		k, val, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.TrimSpace(k) == "AndroidVersion.ApiLevel" {
			n, err := strconv.Atoi(strings.TrimSpace(val))
			return platformVersion{api: n, preview: true}, err == nil
		}
	}
	return platformVersion{}, false
}

// less orders platforms for picking the newest: any release above any
// preview, then by API level, minor release and extension level.
func (a platformVersion) less(b platformVersion) bool {
	if a.preview != b.preview {
		return a.preview
	}
	if a.api != b.api {
		return a.api < b.api
	}
	if a.minor != b.minor {
		return a.minor < b.minor
	}
	return a.ext < b.ext
}

// pickPlatform is the wanted platforms/NAME, or the newest with an
// android.jar (platformVersion.less). It only gives javac its class path:
// the manifest's targetSdk is TargetSDK whatever is picked.
func pickPlatform(sdk, want string) (string, int, error) {
	hint := "install one: sdkmanager \"platforms;android-35\" (or Android Studio's SDK Manager); or " + waysHint
	entries, _ := os.ReadDir(filepath.Join(sdk, "platforms"))
	best, found := "", false
	var bestV platformVersion
	for _, e := range entries {
		v, ok := parsePlatform(sdk, e.Name())
		if !ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(sdk, "platforms", e.Name(), "android.jar")); err != nil {
			continue
		}
		if want == e.Name() {
			return e.Name(), v.api, nil
		}
		if want == "" && v.api >= MinSDK && (!found || bestV.less(v)) {
			best, bestV, found = e.Name(), v, true
		}
	}
	if want != "" {
		return "", 0, unavailable("the Android SDK %s has no platforms/%s/android.jar", sdk, want).With("sdk", sdk).WithHint(hint)
	}
	if !found {
		return "", 0, unavailable("the Android SDK %s has no platform of API %d or newer (platforms/android-N/android.jar)", sdk, MinSDK).
			With("sdk", sdk).WithHint(hint)
	}
	return best, bestV.api, nil
}

// pickBuildTools is the wanted build-tools version, or the newest holding
// every tool.
func pickBuildTools(sdk, want string, names []string) (string, error) {
	hint := "install them: sdkmanager \"build-tools;35.0.0\" (or Android Studio's SDK Manager); or " + waysHint
	entries, _ := os.ReadDir(filepath.Join(sdk, "build-tools"))
	var complete []string
	for _, e := range entries {
		ok := true
		for _, n := range names {
			ok = ok && toolPath(filepath.Join(sdk, "build-tools", e.Name()), n) != ""
		}
		if ok && (want == "" || want == e.Name()) {
			complete = append(complete, e.Name())
		}
	}
	if len(complete) == 0 {
		what := "build-tools with " + strings.Join(names, ", ")
		if want != "" {
			what = "build-tools/" + want + " with " + strings.Join(names, ", ")
		}
		return "", unavailable("the Android SDK %s has no %s", sdk, what).With("sdk", sdk).WithHint(hint)
	}
	sort.Slice(complete, func(i, j int) bool { return versionLess(complete[i], complete[j]) })
	return complete[len(complete)-1], nil
}

// versionLess orders "34.0.0" < "35.0.0-rc1" < "35.0.0" < "35.0.1".
func versionLess(a, b string) bool {
	split := func(v string) ([]int, string) {
		num, pre, _ := strings.Cut(v, "-")
		var parts []int
		for _, p := range strings.Split(num, ".") {
			n, _ := strconv.Atoi(p)
			parts = append(parts, n)
		}
		return parts, pre
	}
	an, ap := split(a)
	bn, bp := split(b)
	for i := 0; i < max(len(an), len(bn)); i++ {
		var x, y int
		if i < len(an) {
			x = an[i]
		}
		if i < len(bn) {
			y = bn[i]
		}
		if x != y {
			return x < y
		}
	}
	if (ap == "") != (bp == "") {
		return ap != "" // a pre-release comes before its release
	}
	return ap < bp
}

// toolPath is dir/name as the SDK ships it on this system (d8 and
// apksigner are .bat scripts on Windows, aapt2 and zipalign .exe), or "".
func toolPath(dir, name string) string {
	suffixes := []string{""}
	if runtime.GOOS == "windows" {
		suffixes = []string{".exe", ".bat"}
	}
	for _, s := range suffixes {
		p := filepath.Join(dir, name+s)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}
