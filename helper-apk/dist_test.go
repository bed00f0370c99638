package helperapk

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// requireAndroidToolsEnv turns a missing aapt, apksigner, dexdump,
// zipalign or Maven artifact into a failure (.ci/run sets it).
const requireAndroidToolsEnv = "FLOW_REQUIRE_ANDROID_TOOLS"

// androidTool is the path of a Debian Android tool, or skips (fails under
// FLOW_REQUIRE_ANDROID_TOOLS=1).
func androidTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		msg := name + " is not on PATH (apt-get install " + name + "): the shipped helper is checked with Debian's Android tools"
		if os.Getenv(requireAndroidToolsEnv) != "" {
			t.Fatalf("%s; %s=1 is set", msg, requireAndroidToolsEnv)
		}
		t.Skip(msg)
	}
	return p
}

// shippedAPK writes the embedded helper to a file the tools can read.
func shippedAPK(t *testing.T) string {
	t.Helper()
	if len(Embedded()) == 0 {
		t.Fatal("no helper is embedded")
	}
	p := filepath.Join(t.TempDir(), "flow-helper.apk")
	must(t, os.WriteFile(p, Embedded(), 0o644))
	return p
}

func tool(t *testing.T, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, androidTool(t, name), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestShippedAPKSignature: apksigner (Debian's, AOSP's
// tools/apksig) accepts the embedded APK for every API from minSdk on,
// signed with APK Signature Scheme v2 only, by the committed key.
func TestShippedAPKSignature(t *testing.T) {
	apk := shippedAPK(t)
	out := tool(t, "apksigner", "verify", "--verbose", "--print-certs", "--min-sdk-version", strconv.Itoa(MinSDK), apk)
	for _, want := range []string{"Verifies", "Verified using v2 scheme (APK Signature Scheme v2): true",
		"Verified using v1 scheme (JAR signing): false", "Number of signers: 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("apksigner verify does not say %q:\n%s", want, out)
		}
	}
	pemData, err := os.ReadFile(distCert)
	must(t, err)
	block, _ := pem.Decode(pemData)
	if block == nil {
		t.Fatalf("%s is not PEM", distCert)
	}
	digest := sha256.Sum256(block.Bytes)
	fp := hex.EncodeToString(digest[:])
	if !strings.Contains(out, "certificate SHA-256 digest: "+fp) {
		t.Errorf("the APK is not signed by %s (SHA-256 %s):\n%s", distCert, fp, out)
	}
}

// TestShippedAPKManifest: aapt reads the package, version, minSdk 24 and
// the pinned targetSdk (dump badging), and the instrumentation `am
// instrument` starts, targeting its own package (dump xmltree: badging
// does not list instrumentations).
func TestShippedAPKManifest(t *testing.T) {
	apk := shippedAPK(t)
	badging := tool(t, "aapt", "dump", "badging", apk)
	for _, want := range []string{
		"package: name='" + Package + "' versionCode='" + strconv.Itoa(VersionCode) + "' versionName='" + Protocol + "'",
		"sdkVersion:'" + strconv.Itoa(MinSDK) + "'",
		"targetSdkVersion:'" + strconv.Itoa(TargetSDK) + "'",
		"uses-permission: name='android.permission.QUERY_ALL_PACKAGES'",
	} {
		if !strings.Contains(badging, want) {
			t.Errorf("aapt dump badging does not show %s:\n%s", want, badging)
		}
	}
	tree := tool(t, "aapt", "dump", "xmltree", apk, "AndroidManifest.xml")
	i := strings.Index(tree, "E: instrumentation")
	if i < 0 {
		t.Fatalf("the manifest has no instrumentation:\n%s", tree)
	}
	_, runner, _ := strings.Cut(Runner, "/")
	inst := tree[i:]
	if !strings.Contains(inst, `android:name(0x01010003)="`+runner+`"`) || !strings.Contains(inst, `android:targetPackage(0x01010021)="`+Package+`"`) {
		t.Errorf("the instrumentation is not %s targeting %s:\n%s", Runner, Package, inst)
	}
}

// typeDecl finds the named classes, interfaces and enums a source
// declares, nested ones included (anonymous classes have no name).
var typeDecl = regexp.MustCompile(`(?m)^\s*(?:(?:public|private|protected|static|final|abstract)\s+)*(?:class|interface|enum)\s+(\w+)`)

// TestShippedAPKClasses: dexdump finds in classes.dex exactly the named
// types src/dev/flow/helper declares (plus anonymous classes), so no
// source is missing from the shipped helper and nothing else is in it.
func TestShippedAPKClasses(t *testing.T) {
	apk := shippedAPK(t)
	files, err := filepath.Glob("src/dev/flow/helper/*.java")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources (%v)", err)
	}
	var want []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(t, err)
		for _, m := range typeDecl.FindAllStringSubmatch(string(data), -1) {
			want = append(want, m[1])
		}
	}
	out := tool(t, "dexdump", apk)
	var got []string
	for _, m := range regexp.MustCompile(`Class descriptor\s+: 'L([^;]+);'`).FindAllStringSubmatch(out, -1) {
		desc := m[1]
		if !strings.HasPrefix(desc, "dev/flow/helper/") {
			t.Errorf("classes.dex holds %s, not a helper class", desc)
			continue
		}
		name := desc[strings.LastIndexAny(desc, "/$")+1:]
		if _, err := strconv.Atoi(name); err == nil {
			continue // an anonymous class: Outer$1
		}
		got = append(got, name)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("classes.dex has the named types\n%v\nthe sources declare\n%v\n(rebuild with go run ./helper-apk/cmd/builddist)", got, want)
	}
}

// TestShippedAPKRecord: dist/flow-helper.txt records the embedded APK's
// checksum and size, and the file on disk is the embedded one.
func TestShippedAPKRecord(t *testing.T) {
	info, err := os.ReadFile(DistInfo)
	must(t, err)
	onDisk, err := os.ReadFile(DistAPK)
	must(t, err)
	if !bytes.Equal(onDisk, Embedded()) {
		t.Fatal("the embedded helper is not dist/flow-helper.apk")
	}
	sum := sha256.Sum256(onDisk)
	if EmbeddedSHA256() != hex.EncodeToString(sum[:]) {
		t.Errorf("EmbeddedSHA256 %s is not the APK's", EmbeddedSHA256())
	}
	for _, want := range []string{"sha256: " + hex.EncodeToString(sum[:]) + "\n", "size: " + strconv.Itoa(len(onDisk)) + "\n",
		"targetSdk " + strconv.Itoa(TargetSDK) + "\n"} {
		if !strings.Contains(string(info), want) {
			t.Errorf("%s does not record %q:\n%s", DistInfo, want, info)
		}
	}
}

// TestShippedAPKRebuilds builds the helper twice from src/ with the pinned
// artifacts and compares: the two builds are the same bytes, and the same
// as the committed APK and record. It skips when the artifacts are not in
// the local Maven repository (go run ./helper-apk/cmd/builddist -resolve
// fetches them) and fails instead under FLOW_REQUIRE_ANDROID_TOOLS=1.
func TestShippedAPKRebuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the helper twice")
	}
	for _, name := range []string{"aapt", "zipalign", "apksigner", "javac", "java"} {
		androidTool(t, name)
	}
	repo, err := MavenRepo()
	must(t, err)
	if missing := MissingArtifacts(repo); len(missing) > 0 {
		msg := "the Maven repository " + repo + " lacks " + strings.Join(missing, ", ") + " (go run ./helper-apk/cmd/builddist -resolve fetches them)"
		if os.Getenv(requireAndroidToolsEnv) != "" {
			t.Fatalf("%s; %s=1 is set", msg, requireAndroidToolsEnv)
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var builds []Dist
	for range 2 {
		d, err := BuildDist(ctx, DistConfig{Dir: ".", Repo: repo})
		if err != nil {
			t.Fatal(err)
		}
		builds = append(builds, d)
	}
	if !bytes.Equal(builds[0].APK, builds[1].APK) || !bytes.Equal(builds[0].Info, builds[1].Info) {
		t.Fatalf("two builds of the same sources differ:\n%s\n%s", builds[0].Info, builds[1].Info)
	}
	info, err := os.ReadFile(DistInfo)
	must(t, err)
	if !bytes.Equal(builds[0].APK, Embedded()) || !bytes.Equal(builds[0].Info, info) {
		t.Fatalf("the committed helper is not what src/ builds to: run go run ./helper-apk/cmd/builddist and commit helper-apk/dist\nbuilt:\n%s\ncommitted:\n%s", builds[0].Info, info)
	}
}
