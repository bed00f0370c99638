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

// TestJava compiles the helper as Java 8 twice, the pure classes with
// their JUnit tests and without any Android class on the class path (so
// nothing pure can lean on the platform), and the glue against the stubs,
// then runs JUnit: the golden schedules, the wire transcripts, the XML.
func TestJava(t *testing.T) {
	javac, java := javaTools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pure, glue := javaSources(t)
	for _, must := range []string{"TouchPlan.java", "PointerEventSchedule.java", "Protocol.java", "XmlWriter.java", "KeyText.java", "InstrumentationStatus.java"} {
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
	stubs, err := filepath.Glob("stubs/*/*/*.java")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("stubs/*/*/*/*.java")
	stubs = append(stubs, more...)

	sep := string(os.PathListSeparator)
	testCP := strings.Join([]string{jsonJar, junitJar, hamcrestJar}, sep)
	pureOut, glueOut := filepath.Join(t.TempDir(), "pure"), filepath.Join(t.TempDir(), "glue")
	args := append([]string{"--release", "8", "-encoding", "UTF-8", "-Xlint:all", "-cp", testCP, "-d", pureOut}, pure...)
	run(t, ctx, javac, append(args, tests...)...)
	if len(glue) > 0 {
		if len(stubs) == 0 {
			t.Fatal("glue classes but no stubs in stubs/")
		}
		args := append([]string{"--release", "8", "-encoding", "UTF-8", "-Xlint:all", "-cp", jsonJar, "-d", glueOut}, pure...)
		args = append(args, glue...)
		run(t, ctx, javac, append(args, stubs...)...)
	}

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
