package helperapk

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// requireRobolectricEnv turns missing Robolectric jars into a failure
// (.ci/run sets it after resolving robolectric/pom.xml online).
const requireRobolectricEnv = "FLOW_REQUIRE_ROBOLECTRIC"

// robolectricPOM lists the Robolectric lane's class path (see its comment).
const robolectricPOM = "robolectric/pom.xml"

// robolectricSkip skips, or fails under FLOW_REQUIRE_ROBOLECTRIC=1, saying
// what is missing and how to get it.
func robolectricSkip(t *testing.T, what string) {
	t.Helper()
	msg := "the helper's Robolectric tests need " + what +
		"; resolve them once with `mvn -q -B -f helper-apk/" + robolectricPOM + " dependency:build-classpath` (Maven Central)"
	if os.Getenv(requireRobolectricEnv) != "" {
		t.Fatalf("%s; %s=1 is set", msg, requireRobolectricEnv)
	}
	t.Skip(msg)
}

// robolectricClassPath asks Maven, offline, for the pom's resolved class
// path: nothing is downloaded here. It splits off the plain android-all jar,
// which the sources compile against and which must stay off the run-time
// class path (Robolectric loads the framework from the instrumented jar).
func robolectricClassPath(t *testing.T, ctx context.Context) (compileOnly string, run []string, instrumentedDir string) {
	t.Helper()
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		robolectricSkip(t, "Maven (apt-get install maven)")
	}
	out := filepath.Join(t.TempDir(), "classpath.txt")
	cmd := exec.CommandContext(ctx, mvn, "-o", "-q", "-B", "-f", robolectricPOM, "dependency:build-classpath", "-Dmdep.outputFile="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		robolectricSkip(t, "its jars in the local Maven repository (mvn -o: "+mavenError(string(b))+")")
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	aars := t.TempDir()
	for _, p := range filepath.SplitList(strings.TrimSpace(string(data))) {
		base := filepath.Base(p)
		switch {
		case strings.HasPrefix(base, "android-all-instrumented-"):
			instrumentedDir = filepath.Dir(p)
			// The test runner reads Robolectric's annotations (Config's
			// defaults name android.app.Application) before any sandbox
			// exists: the framework must be on the class path too.
			run = append(run, p)
		case strings.HasPrefix(base, "android-all-"):
			compileOnly = p
		case strings.HasSuffix(base, ".aar"):
			// androidx.test's monitor ships as an Android archive; its
			// classes.jar is what Robolectric loads.
			jar := filepath.Join(aars, strings.TrimSuffix(base, ".aar")+".jar")
			if err := extractClassesJar(p, jar); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			run = append(run, jar)
		default:
			run = append(run, p)
		}
	}
	if compileOnly == "" || instrumentedDir == "" {
		t.Fatalf("%s resolved without android-all and android-all-instrumented: %s", robolectricPOM, data)
	}
	return compileOnly, run, instrumentedDir
}

func extractClassesJar(aar, dst string) error {
	z, err := zip.OpenReader(aar)
	if err != nil {
		return err
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name != "classes.jar" {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return err
		}
		defer r.Close()
		w, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, r); err != nil {
			w.Close()
			return err
		}
		return w.Close()
	}
	return os.ErrNotExist
}

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// mavenError is the first error line Maven printed, without its colours.
func mavenError(out string) string {
	out = ansiEscape.ReplaceAllString(out, "")
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "[ERROR]") {
			return strings.TrimSpace(strings.TrimPrefix(l, "[ERROR]"))
		}
	}
	return strings.TrimSpace(out)
}

// TestRobolectric runs the helper's android.* layer on the Android
// framework's own code (API 35, Robolectric 4.17) in one JVM: the helper's
// sources, compiled against the real framework jar rather than stubs/, with
// the tests in robolectric/test. What they prove, and what Robolectric
// cannot host, is in docs/android.md ("Robolectric").
func TestRobolectric(t *testing.T) {
	javac, err := exec.LookPath("javac")
	if err != nil {
		robolectricSkip(t, "javac (apt-get install default-jdk-headless)")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		robolectricSkip(t, "java (apt-get install default-jdk-headless)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	android, runCP, instrumented := robolectricClassPath(t, ctx)

	srcs, err := filepath.Glob("src/dev/flow/helper/*.java")
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no helper sources (%v)", err)
	}
	tests, err := filepath.Glob("robolectric/test/dev/flow/helper/*.java")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no Robolectric tests in robolectric/test (%v)", err)
	}
	sep := string(os.PathListSeparator)
	classes := filepath.Join(t.TempDir(), "classes")
	compileCP := strings.Join(append([]string{android}, runCP...), sep)
	args := append([]string{"-encoding", "UTF-8", "-nowarn", "-proc:none", "-cp", compileCP, "-d", classes}, srcs...)
	run(t, ctx, javac, append(args, tests...)...)

	var names []string
	for _, f := range tests {
		if name := strings.TrimSuffix(filepath.Base(f), ".java"); strings.HasSuffix(name, "Test") {
			names = append(names, "dev.flow.helper."+name)
		}
	}
	golden, _ := filepath.Abs(goldenDir)
	args = []string{
		"-cp", strings.Join(append([]string{classes}, runCP...), sep),
		// Never download: the framework jar comes from where Maven put it.
		"-Drobolectric.offline=true",
		"-Drobolectric.dependency.dir=" + instrumented,
		"-Dflow.golden=" + golden,
		"org.junit.runner.JUnitCore",
	}
	out := run(t, ctx, java, append(args, names...)...)
	if !strings.Contains(out, "\nOK (") {
		t.Fatalf("JUnit did not report OK:\n%s", out)
	}
	t.Logf("%s", strings.TrimSpace(out[strings.LastIndex(out, "\nOK ("):]))
}
