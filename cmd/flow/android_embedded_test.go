package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	helperapk "github.com/flow-runner/flow/helper-apk"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// TestAndroidDemoWithEmbeddedHelper is issue 19's acceptance: with no
// Android SDK, no JDK on PATH (PATH holds adb alone) and no
// --android-helper, the demo suite passes on the fake phone through the
// real adb server, and the phone received exactly the helper flow embeds
// (the sha256 of the bytes pm install took). A second run finds that
// helper installed by its checksum and does not install it again.
func TestAndroidDemoWithEmbeddedHelper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo suite on a wall clock")
	}
	fs := adbd.NewMemFS()
	p := phone.New(phone.Options{Files: fs})
	t.Cleanup(func() { p.Close() })
	d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})

	// PATH is a folder holding a link to adb and nothing else: no javac,
	// java, d8 or aapt can be found, in flow's environment or the process's.
	bin := t.TempDir()
	if err := os.Symlink(d.ADB, filepath.Join(bin, "adb")); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ANDROID_HOME", "ANDROID_SDK_ROOT", "JAVA_HOME", "FLOW_ANDROID_HELPER"} {
		t.Setenv(k, "")
	}
	t.Setenv("PATH", bin)
	vars := map[string]string{"PATH": bin, "HOME": d.Getenv("HOME"), "ANDROID_ADB_SERVER_PORT": d.Getenv("ANDROID_ADB_SERVER_PORT")}
	getenv := func(k string) string { return vars[k] }

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for i, flows := range []string{"../../flows/demo", "../../flows/demo/02-login.yaml"} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(getenv)}
		if code := run(ctx, env, []string{"flow", "test", flows, "--device", "android:" + d.Serial}); code != 0 {
			t.Fatalf("run %d: exit %d\n%s%s", i+1, code, &out, &errb)
		}
		if i == 0 && !strings.Contains(out.String(), "05-checkout.yaml") {
			t.Fatalf("the demo suite did not run whole:\n%s", &out)
		}
	}
	installs := p.Installs()
	if len(installs) != 1 {
		t.Fatalf("the phone took %d installs, want 1 (the second run must find the helper installed): %+v", len(installs), installs)
	}
	if got := installs[0]; got.SHA256 != helperapk.EmbeddedSHA256() || got.Size != len(helperapk.Embedded()) {
		t.Fatalf("the phone received %d bytes with sha256 %s, not the embedded helper (%d bytes, sha256 %s)",
			got.Size, got.SHA256, len(helperapk.Embedded()), helperapk.EmbeddedSHA256())
	}
	if f := p.Forbidden(); len(f) != 0 {
		t.Fatalf("flow shelled out for input: %q", f)
	}
}
