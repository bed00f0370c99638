package helperapk

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/flow-runner/flow/canonical"
)

// The shipped helper (helper-apk/dist) is built from these Maven Central
// artifacts only, pinned so that the same sources give the same bytes.
var (
	// compileJar is the compile class path: Robolectric's android-all for
	// API 35 (Android 15), the API of TargetSDK, is AOSP's framework jar
	// (android.*, org.json) as Robolectric runs it, so javac checks every
	// android.* call against the real framework classes, not our stubs.
	compileJar = mavenArtifact{"org.robolectric", "android-all", "15-robolectric-12650502"}
	// linkJar gives aapt the framework's resource table (the android:
	// attribute IDs the binary manifest refers to). Debian's aapt is
	// Android 10's: it cannot read the API 34+ table (type chunks with
	// FLAG_OFFSET16, frameworks/base libs/androidfw ResourceTypes.h) nor a
	// zip64 jar, so the build takes API 33's resources.arsc and
	// AndroidManifest.xml out of this jar into a small zip. Attribute IDs
	// are public and frozen (core/res/res/values/public*.xml), so the
	// manifest links the same as against API 35's table.
	linkJar = mavenArtifact{"org.robolectric", "android-all", "13-robolectric-9030017"}
	// dexer is AOSP's dx (dalvik/dx), repackaged on Maven Central; its
	// entry point is com.android.dx.command.Main --dex. dx does not
	// desugar: the helper's Java 8 sources must not use lambdas or method
	// references (invokedynamic needs --min-sdk-version 26).
	dexer = mavenArtifact{"com.jakewharton.android.repackaged", "dalvik-dx", "16.0.1"}
)

// TargetSDK is the API level the helper targets, in both builds (the
// shipped one and `flow android helper build`): the API it is compiled
// against here (compileJar), so that its behaviour does not depend on the
// newest platform a user happens to have installed.
const TargetSDK = 35

// The dist folder's files, relative to helper-apk/.
const (
	DistAPK      = "dist/flow-helper.apk"
	DistInfo     = "dist/flow-helper.txt"
	distKey      = "dist/signing/flow-helper.pk8"
	distCert     = "dist/signing/flow-helper.x509.pem"
	zipEpochDate = (2008-1980)<<9 | 1<<5 | 1 // 2008-01-01 in MS-DOS date format
)

type mavenArtifact struct{ group, artifact, version string }

// Coords is group:artifact:version, as mvn dependency:get takes it.
func (a mavenArtifact) Coords() string { return a.group + ":" + a.artifact + ":" + a.version }

// path is the jar's place in a Maven local repository.
func (a mavenArtifact) path(repo string) string {
	return filepath.Join(append([]string{repo}, append(strings.Split(a.group, "."),
		a.artifact, a.version, a.artifact+"-"+a.version+".jar")...)...)
}

// DistArtifacts are the Maven coordinates the shipped build reads from
// the local repository; `builddist -resolve` fetches them with mvn.
func DistArtifacts() []string {
	return []string{compileJar.Coords(), linkJar.Coords(), dexer.Coords()}
}

// DistConfig says where the shipped build finds its inputs.
type DistConfig struct {
	// Dir is the helper-apk folder: src/ and dist/signing/ are read there.
	Dir string
	// Repo is the Maven local repository; empty is ~/.m2/repository.
	Repo string
	// JDK is a JDK 17 folder whose bin/ holds javac and java; empty finds
	// them on PATH.
	JDK string
	// Log, when set, receives each command line before it runs.
	Log io.Writer
}

// Dist is one build of the shipped helper.
type Dist struct {
	APK  []byte
	Info []byte // the text of dist/flow-helper.txt
}

// MavenRepo is the local repository mvn uses by default.
func MavenRepo() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".m2", "repository"), nil
}

// MissingArtifacts are the pinned jars absent from repo.
func MissingArtifacts(repo string) []string {
	var out []string
	for _, a := range []mavenArtifact{compileJar, linkJar, dexer} {
		if _, err := os.Stat(a.path(repo)); err != nil {
			out = append(out, a.Coords())
		}
	}
	return out
}

// distTools is what the shipped build runs: the JDK's javac and java, and
// Debian's aapt, zipalign and apksigner.
type distTools struct {
	javac, java, aapt, zipalign, apksigner string
	javacMajor                             int
}

func findDistTools(ctx context.Context, jdk string) (distTools, error) {
	var tl distTools
	var missing []string
	for _, t := range []struct {
		name, pkg string
		dst       *string
		inJDK     bool
	}{
		{"javac", "openjdk-17-jdk-headless", &tl.javac, true},
		{"java", "openjdk-17-jdk-headless", &tl.java, true},
		{"aapt", "aapt", &tl.aapt, false},
		{"zipalign", "zipalign", &tl.zipalign, false},
		{"apksigner", "apksigner", &tl.apksigner, false},
	} {
		if t.inJDK && jdk != "" {
			if p := toolPath(filepath.Join(jdk, "bin"), t.name); p != "" {
				*t.dst = p
				continue
			}
		}
		p, err := exec.LookPath(t.name)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s (apt-get install %s)", t.name, t.pkg))
			continue
		}
		*t.dst = p
	}
	if len(missing) > 0 {
		return tl, canonical.Errorf(canonical.CodeDeviceUnavailable, "building the shipped helper needs %s", strings.Join(missing, ", ")).
			WithHint("install them (Debian package names given), then run go run ./helper-apk/cmd/builddist again")
	}
	v, err := javacVersion(ctx, tl.javac, nil)
	if err != nil {
		return tl, err
	}
	tl.javacMajor = v.major
	return tl, nil
}

// BuildDist builds the shipped helper from cfg.Dir's sources with the
// pinned artifacts, offline, in a temporary folder: javac --release 8
// against android-all, dx, aapt (manifest only), a zip rewritten with fixed
// order and times, zipalign, and apksigner with the committed key, v2 only.
func BuildDist(ctx context.Context, cfg DistConfig) (Dist, error) {
	repo := cfg.Repo
	if repo == "" {
		var err error
		if repo, err = MavenRepo(); err != nil {
			return Dist{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "no home folder for the Maven repository: %v", err).Wrap(err)
		}
	}
	if missing := MissingArtifacts(repo); len(missing) > 0 {
		return Dist{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "the Maven repository %s lacks %s", repo, strings.Join(missing, ", ")).
			With("repo", repo).
			WithHint("fetch them once with go run ./helper-apk/cmd/builddist -resolve (mvn dependency:get), then build offline")
	}
	tl, err := findDistTools(ctx, cfg.JDK)
	if err != nil {
		return Dist{}, err
	}
	if tl.javacMajor != distJavacMajor {
		return Dist{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "javac %s is JDK %d; the shipped helper is built with JDK %d", tl.javac, tl.javacMajor, distJavacMajor).
			WithHint(fmt.Sprintf("javac's bytecode differs between releases, so the committed APK is reproducible with JDK %d only: set -jdk (or PATH) to one (apt-get install openjdk-%d-jdk-headless)", distJavacMajor, distJavacMajor))
	}
	// The tools run in the build folder: every path they get is absolute.
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return Dist{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "the helper folder %s: %v", cfg.Dir, err).Wrap(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "src", "dev", "flow", "helper", "*.java"))
	if err != nil || len(files) == 0 {
		return Dist{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "no helper sources in %s (%v)", filepath.Join(cfg.Dir, "src"), err).
			WithHint("run it from the repository root, or give -dir the helper-apk folder")
	}
	sort.Strings(files)
	work, err := os.MkdirTemp("", "flow-helper-dist-")
	if err != nil {
		return Dist{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "no temporary folder: %v", err).Wrap(err)
	}
	defer os.RemoveAll(work)
	b := &builder{ctx: ctx, log: cfg.Log, work: work, hint: distHint}
	return b.dist(dir, repo, tl, files)
}

const distHint = "the output above is the tool's own; the inputs are pinned (helper-apk/dist.go), so a failure here is a source that does not build for Android 7 with dx (no lambdas) or a tool that is not the Debian one"

// distJavacMajor is the JDK the committed APK is built with (Debian
// bookworm's default-jdk).
const distJavacMajor = 17

func (b *builder) dist(dir, repo string, tl distTools, files []string) (Dist, error) {
	classes := filepath.Join(b.work, "classes")
	if err := os.MkdirAll(classes, 0o755); err != nil {
		return Dist{}, unavailable("creating %s: %v", classes, err).Wrap(err)
	}
	// --release 8 gives Java 8's java.* API; android-all has no java.*
	// (Robolectric runs on the host JDK) but android.* and org.json.
	javac := append([]string{tl.javac, "--release", "8", "-encoding", "UTF-8", "-nowarn", "-implicit:none",
		"-cp", compileJar.path(repo), "-d", classes}, files...)
	if err := b.step("javac", javac); err != nil {
		return Dist{}, err
	}
	dex := filepath.Join(b.work, "classes.dex")
	if err := b.step("dx", []string{tl.java, "-cp", dexer.path(repo), "com.android.dx.command.Main", "--dex",
		"--min-sdk-version=" + strconv.Itoa(MinSDK), "--output=" + dex, classes}); err != nil {
		return Dist{}, err
	}
	framework := filepath.Join(b.work, "framework-res.zip")
	if err := frameworkZip(linkJar.path(repo), framework); err != nil {
		return Dist{}, unavailable("reading the framework resources of %s: %v", linkJar.Coords(), err).Wrap(err).With("step", "framework")
	}
	manifest := filepath.Join(b.work, "AndroidManifest.xml")
	if err := os.WriteFile(manifest, Manifest(), 0o644); err != nil {
		return Dist{}, unavailable("writing the manifest: %v", err).Wrap(err)
	}
	linked := filepath.Join(b.work, "linked.apk")
	if err := b.step("aapt", []string{tl.aapt, "package", "-f", "-M", manifest, "-I", framework, "-F", linked}); err != nil {
		return Dist{}, err
	}
	unaligned := filepath.Join(b.work, "unaligned.apk")
	if err := storedZip(linked, dex, unaligned); err != nil {
		return Dist{}, unavailable("writing the APK's zip: %v", err).Wrap(err).With("step", "zip")
	}
	aligned := filepath.Join(b.work, "aligned.apk")
	if err := b.step("zipalign", []string{tl.zipalign, "-p", "-f", "4", unaligned, aligned}); err != nil {
		return Dist{}, err
	}
	signed := filepath.Join(b.work, "signed.apk")
	// v2 only: minSdk 24 is the first release that verifies v2
	// (APK Signature Scheme v2 came with Android 7.0), so v1's JAR
	// signature would protect no device; v3 (key rotation) and v4
	// (incremental install, a side file) are not needed. RSA PKCS#1 v1.5
	// signatures are deterministic, so the same APK signs to the same bytes.
	if err := b.step("apksigner", []string{tl.apksigner, "sign", "--key", filepath.Join(dir, distKey), "--cert", filepath.Join(dir, distCert),
		"--v1-signing-enabled", "false", "--v2-signing-enabled", "true", "--v3-signing-enabled", "false", "--v4-signing-enabled", "false",
		"--min-sdk-version", strconv.Itoa(MinSDK), "--out", signed, aligned}); err != nil {
		return Dist{}, err
	}
	apk, err := os.ReadFile(signed)
	if err != nil {
		return Dist{}, unavailable("reading the signed APK: %v", err).Wrap(err)
	}
	versions, err := b.distVersions(tl)
	if err != nil {
		return Dist{}, err
	}
	return Dist{APK: apk, Info: distInfo(apk, versions)}, nil
}

// distVersions are the tools' own version lines, for dist/flow-helper.txt.
func (b *builder) distVersions(tl distTools) ([]string, error) {
	out := []string{fmt.Sprintf("javac: JDK %d, --release 8", tl.javacMajor)}
	for _, t := range []struct{ name, bin, arg string }{{"aapt", tl.aapt, "version"}, {"apksigner", tl.apksigner, "version"}} {
		cmd := exec.CommandContext(b.ctx, t.bin, t.arg)
		v, err := cmd.Output()
		if err != nil {
			return nil, unavailable("%s %s: %v", t.bin, t.arg, err).Wrap(err)
		}
		out = append(out, t.name+": "+strings.TrimSpace(string(v)))
	}
	out = append(out, "zipalign: Debian's (it prints no version)")
	return out, nil
}

// distInfo is dist/flow-helper.txt: what the APK is and what made it.
func distInfo(apk []byte, versions []string) []byte {
	sum := sha256.Sum256(apk)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The Android helper flow embeds (helper-apk/dist.go). Rebuild: go run ./helper-apk/cmd/builddist\n")
	fmt.Fprintf(&b, "sha256: %s\n", hex.EncodeToString(sum[:]))
	fmt.Fprintf(&b, "size: %d\n", len(apk))
	fmt.Fprintf(&b, "package: %s versionCode %d minSdk %d targetSdk %d\n", Package, VersionCode, MinSDK, TargetSDK)
	fmt.Fprintf(&b, "compile class path: %s\n", compileJar.Coords())
	fmt.Fprintf(&b, "dexer: %s\n", dexer.Coords())
	fmt.Fprintf(&b, "framework resources for aapt: %s\n", linkJar.Coords())
	for _, v := range versions {
		fmt.Fprintln(&b, v)
	}
	fmt.Fprintf(&b, "signing: %s, %s (public on purpose), APK Signature Scheme v2 only\n", distKey, distCert)
	return b.Bytes()
}

// frameworkZip copies the jar's resources.arsc and AndroidManifest.xml
// (aapt -I wants both) into a plain zip aapt can open.
func frameworkZip(jar, out string) error {
	r, err := zip.OpenReader(jar)
	if err != nil {
		return err
	}
	defer r.Close()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, name := range []string{"AndroidManifest.xml", "resources.arsc"} {
		f, err := r.Open(name)
		if err != nil {
			return fmt.Errorf("%s has no %s: %w", jar, name, err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return err
		}
		if err := writeStored(w, name, data); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// storedZip writes aapt's entries (AndroidManifest.xml first, the rest by
// name) and classes.dex to out, all stored, at one fixed time, with no data
// descriptors: the zip's bytes depend on the entries' bytes only, not on
// when aapt ran nor on a compressor's version. Stored dex is what the
// platform maps without extracting anyway.
func storedZip(linked, dex, out string) error {
	r, err := zip.OpenReader(linked)
	if err != nil {
		return err
	}
	defer r.Close()
	entries := map[string][]byte{}
	for _, f := range r.File {
		if f.Name == "classes.dex" || strings.HasSuffix(f.Name, "/") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		entries[f.Name] = data
	}
	if _, ok := entries["AndroidManifest.xml"]; !ok {
		return fmt.Errorf("aapt's %s has no AndroidManifest.xml", linked)
	}
	code, err := os.ReadFile(dex)
	if err != nil {
		return err
	}
	entries["classes.dex"] = code
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "AndroidManifest.xml") != (names[j] == "AndroidManifest.xml") {
			return names[i] == "AndroidManifest.xml"
		}
		return names[i] < names[j]
	})
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, n := range names {
		if err := writeStored(w, n, entries[n]); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// writeStored adds one stored entry with the fixed date. CreateRaw writes
// the header as given: no data descriptor, no extended-time field.
func writeStored(w *zip.Writer, name string, data []byte) error {
	fh := &zip.FileHeader{
		Name:               name,
		Method:             zip.Store,
		CRC32:              crc32.ChecksumIEEE(data),
		CompressedSize64:   uint64(len(data)),
		UncompressedSize64: uint64(len(data)),
		ModifiedDate:       zipEpochDate, //nolint:staticcheck // the raw MS-DOS field: Modified would add a time-zone-bearing extra field
	}
	fw, err := w.CreateRaw(fh)
	if err != nil {
		return err
	}
	_, err = fw.Write(data)
	return err
}

// jdkVersion is what `javac -version` says.
type jdkVersion struct {
	major int
	text  string // "javac 17.0.15"
}

var javacVersionLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`javac (1\.)?(\d+)[^\s]*`) })

// javacVersion runs javac -version (with env when set) and reads the
// major release: "javac 1.8.0_392" is 8, "javac 17.0.15" is 17.
func javacVersion(ctx context.Context, javac string, env []string) (jdkVersion, error) {
	cmd := exec.CommandContext(ctx, javac, "-version")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return jdkVersion{}, canonical.Interrupted(ctxErr)
		}
		return jdkVersion{}, unavailable("%s -version failed: %v", javac, err).Wrap(err).With("output", clip(string(out))).
			WithHint("point JAVA_HOME at a JDK 17 or newer")
	}
	m := javacVersionLine().FindStringSubmatch(string(out))
	if m == nil {
		return jdkVersion{}, unavailable("%s -version printed no version: %q", javac, clip(string(out))).
			WithHint("point JAVA_HOME at a JDK 17 or newer")
	}
	n, _ := strconv.Atoi(m[2])
	return jdkVersion{major: n, text: m[0]}, nil
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > outputLimit {
		return s[:outputLimit] + "…"
	}
	return s
}
