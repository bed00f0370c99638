package helperapk

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// requireJavaEnv turns a missing JDK or JUnit into a failure (.ci/run sets it).
const requireJavaEnv = "FLOW_REQUIRE_JAVA"

// Debian's jars (packages junit4, libhamcrest-java, libandroid-json-java):
// com.android.json.jar is AOSP's org.json, the API the phone has.
var (
	jsonJar     = "/usr/share/java/com.android.json.jar"
	junitJar    = "/usr/share/java/junit4.jar"
	hamcrestJar = "/usr/share/java/hamcrest-core.jar"
)

// javaTools finds javac, java and the jars, or skips (fails under
// FLOW_REQUIRE_JAVA=1) naming what is missing.
func javaTools(t *testing.T) (javac, java string) {
	t.Helper()
	var missing []string
	javac, err := exec.LookPath("javac")
	if err != nil {
		missing = append(missing, "javac (apt-get install default-jdk-headless)")
	}
	java, err = exec.LookPath("java")
	if err != nil {
		missing = append(missing, "java (apt-get install default-jdk-headless)")
	}
	for _, jar := range []struct{ path, pkg string }{{jsonJar, "libandroid-json-java"}, {junitJar, "junit4"}, {hamcrestJar, "junit4"}} {
		if _, err := os.Stat(jar.path); err != nil {
			missing = append(missing, jar.path+" (apt-get install "+jar.pkg+")")
		}
	}
	if len(missing) > 0 {
		msg := "the helper's Java tests need " + strings.Join(missing, ", ")
		if os.Getenv(requireJavaEnv) != "" {
			t.Fatalf("%s; %s=1 is set", msg, requireJavaEnv)
		}
		t.Skip(msg)
	}
	return javac, java
}

// androidImport marks a glue class. A pure class that reached for the
// platform without importing it would still fail: the pure compile has no
// Android class on its class path.
var androidImport = regexp.MustCompile(`(?m)^import\s+(static\s+)?android\.`)

// javaSources splits src/ into the pure classes and the glue that needs the
// platform.
func javaSources(t *testing.T) (pure, glue []string) {
	t.Helper()
	files, err := filepath.Glob("src/dev/flow/helper/*.java")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Java sources in src/dev/flow/helper (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if androidImport.Match(data) {
			glue = append(glue, f)
		} else {
			pure = append(pure, f)
		}
	}
	return pure, glue
}

func run(t *testing.T, ctx context.Context, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args[:min(len(args), 8)], " "), err, out)
	}
	return string(out)
}

// TestJava compiles the pure classes as Java 8 with their JUnit tests and
// without any Android class on the class path (so nothing pure can lean on
// the platform), then runs JUnit: the golden schedules, the wire
// transcripts, the XML. TestThinLayer compiles the rest.
func TestJava(t *testing.T) {
	javac, java := javaTools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pure, _ := javaSources(t)
	for _, must := range []string{"TouchPlan.java", "PointerEventSchedule.java", "TouchInjector.java", "Protocol.java", "SessionServer.java", "EventCounter.java", "XmlWriter.java", "KeyText.java", "InstrumentationStatus.java", "BodyStream.java", "Frames.java", "UiConnection.java"} {
		found := false
		for _, f := range pure {
			found = found || filepath.Base(f) == must
		}
		if !found {
			t.Errorf("%s must be a pure class (no android.*)", must)
		}
	}
	tests, err := filepath.Glob("test/dev/flow/helper/*.java")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no Java tests in test/dev/flow/helper (%v)", err)
	}
	sep := string(os.PathListSeparator)
	testCP := strings.Join([]string{jsonJar, junitJar, hamcrestJar}, sep)
	pureOut := filepath.Join(t.TempDir(), "pure")
	args := append([]string{"--release", "8", "-encoding", "UTF-8", "-Xlint:all", "-cp", testCP, "-d", pureOut}, pure...)
	run(t, ctx, javac, append(args, tests...)...)

	var classes []string
	for _, f := range tests {
		if name := strings.TrimSuffix(filepath.Base(f), ".java"); strings.HasSuffix(name, "Test") {
			classes = append(classes, "dev.flow.helper."+name)
		}
	}
	golden, _ := filepath.Abs(goldenDir)
	wire, _ := filepath.Abs("testdata/wire")
	args = []string{"-cp", pureOut + sep + testCP, "-Dflow.golden=" + golden, "-Dflow.wire=" + wire, "org.junit.runner.JUnitCore"}
	out := run(t, ctx, java, append(args, classes...)...)
	if !strings.Contains(out, "\nOK (") {
		t.Fatalf("JUnit did not report OK:\n%s", out)
	}
	t.Logf("%s", strings.TrimSpace(out[strings.LastIndex(out, "\nOK ("):]))
}

// stubFiles lists stubs/**.java.
func stubFiles(t *testing.T) []string {
	t.Helper()
	var stubs []string
	err := filepath.WalkDir("stubs", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			stubs = append(stubs, p)
		}
		return err
	})
	if err != nil || len(stubs) == 0 {
		t.Fatalf("no stubs in stubs/ (%v)", err)
	}
	return stubs
}

// compileWhole compiles every class of the helper, the android.* layer
// included, against the stubs, the way the SDK build compiles it against
// android.jar (-Werror: a deprecated call must be suppressed on purpose).
func compileWhole(ctx context.Context, javac, srcDir, outDir string, stubs []string) ([]byte, error) {
	srcs, err := filepath.Glob(filepath.Join(srcDir, "*.java"))
	if err != nil {
		return nil, err
	}
	args := []string{"--release", "8", "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-cp", jsonJar, "-d", outDir}
	args = append(append(args, srcs...), stubs...)
	return exec.CommandContext(ctx, javac, args...).CombinedOutput()
}

// TestThinLayer compiles the WHOLE helper, pure classes and android.*
// layer, against stubs/, so a call into android.* that the stubs (copied
// from the platform's reference) do not declare fails here. A copy with one
// wrong call must fail too, or the compile proves nothing.
func TestThinLayer(t *testing.T) {
	javac, _ := javaTools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, glue := javaSources(t)
	for _, must := range []string{"FlowInstrumentation.java", "AndroidDevice.java", "UiAutomationDispatcher.java", "AccessibilityNodeSource.java", "Screens.java", "HelperServer.java", "Media.java", "MockLocation.java"} {
		found := false
		for _, f := range glue {
			found = found || filepath.Base(f) == must
		}
		if !found {
			t.Errorf("%s is missing from the android.* layer", must)
		}
	}
	stubs := stubFiles(t)
	if out, err := compileWhole(ctx, javac, "src/dev/flow/helper", t.TempDir(), stubs); err != nil {
		t.Fatalf("the helper does not compile against stubs/: %v\n%s", err, out)
	}

	// injectInputEvent takes (InputEvent, boolean): a call without sync must not compile.
	dir := filepath.Join(t.TempDir(), "src")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("src/dev/flow/helper/*.java")
	mutated := false
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "UiAutomationDispatcher.java" {
			wrong := strings.Replace(string(data), "injectInputEvent(ev, e.waitForDispatch)", "injectInputEvent(ev)", 1)
			mutated = wrong != string(data)
			data = []byte(wrong)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !mutated {
		t.Fatal("UiAutomationDispatcher.java no longer calls injectInputEvent(ev, e.waitForDispatch); update the mutation")
	}
	out, err := compileWhole(ctx, javac, dir, t.TempDir(), stubs)
	if err == nil || !strings.Contains(string(out), "injectInputEvent") {
		t.Fatalf("a wrong injectInputEvent call compiled against the stubs (err %v):\n%s", err, out)
	}
}
