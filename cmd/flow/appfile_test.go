package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// zipFile writes a zip archive (what APKs and IPAs are: PKWARE's
// APPNOTE.TXT) holding the named entries.
func zipFile(t *testing.T, name string, entries map[string]string) string {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for n, body := range entries {
		f, _ := w.Create(n)
		f.Write([]byte(body))
	}
	w.Close()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// iosApp writes an .app bundle whose Info.plist names bundleID ("" for
// one that names none).
func iosApp(t *testing.T, bundleID string) string {
	t.Helper()
	app := filepath.Join(t.TempDir(), "Todo.app")
	os.MkdirAll(app, 0o755)
	plist := `<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>`
	if bundleID != "" {
		plist += `<key>CFBundleIdentifier</key><string>` + bundleID + `</string>`
	}
	os.WriteFile(filepath.Join(app, "Info.plist"), []byte(plist+`</dict></plist>`), 0o644)
	return app
}

// TestAppFileOnFakePhone: --app-file APK installs on the fake phone,
// through the real adb server, before the first flow: the package manager
// received the file byte for byte and lists its package afterwards.
func TestAppFileOnFakePhone(t *testing.T) {
	apk := zipFile(t, "todo.apk", map[string]string{"AndroidManifest.xml": "binary manifest of com.example.todo"})
	data, _ := os.ReadFile(apk)
	sum := sha256.Sum256(data)
	fs := adbd.NewMemFS()
	p := phone.New(phone.Options{Files: fs, Packages: map[string]string{hex.EncodeToString(sum[:]): "com.example.todo"}})
	t.Cleanup(func() { p.Close() })
	d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
	helper := filepath.Join(t.TempDir(), "flow-helper.apk")
	os.WriteFile(helper, []byte("a helper the fake phone accepts"), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: d.Getenv}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := run(ctx, env, []string{"flow", "test", "../../flows/demo/01-launch.yaml", "--device", "android:" + d.Serial,
		"--android-helper", helper, "--app-file", apk})
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, &out, &errb)
	}
	var got []string
	for _, in := range p.Installs() {
		got = append(got, in.Package)
		if in.Package == "com.example.todo" && in.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("the phone received other bytes than the APK: %+v", in)
		}
	}
	if strings.Join(got, ",") != "dev.flow.helper,com.example.todo" {
		t.Fatalf("installs: %q, want the helper then the app", got)
	}
	listed, err := d.ADBCommand(ctx, "shell", "pm", "list", "packages").CombinedOutput()
	if err != nil || !strings.Contains(string(listed), "package:com.example.todo") {
		t.Fatalf("pm does not list the installed app: %v\n%s", err, listed)
	}
}

// TestAppFileThroughFakeXcrun: on a Mac (the fake xcrun), --app-file
// APP installs with simctl install on the simulator before the first flow
// (before launchApp's clearState reaches simctl); simctl refusing the
// bundle, and an .ipa (built for iPhones), are exit 2 naming the file.
func TestAppFileThroughFakeXcrun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a flow on a wall clock")
	}
	app := iosApp(t, "com.example.todo")
	env, dir := fakeMac(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", "../../flows/demo/01-launch.yaml", "--device", "ios", "--app-file", app}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	install := strings.Index(string(log), "simctl install FAKE-UDID-1 "+app+"\n")
	clear := strings.Index(string(log), "simctl uninstall FAKE-UDID-1 com.example.shop")
	if install < 0 || clear < 0 || install > clear {
		t.Fatalf("want simctl install of %s before the flow's clearState:\n%s", app, log)
	}
	ipa := zipFile(t, "Todo.ipa", map[string]string{"Payload/Todo.app/Info.plist": "<plist/>"})
	for name, tc := range map[string]struct {
		file string
		want string
	}{
		"simctl refuses the bundle": {iosApp(t, ""), "is not an application bundle"},
		"an ipa on a simulator":     {ipa, "built for iPhones"},
	} {
		t.Run(name, func(t *testing.T) {
			env, _ := fakeMac(t)
			code := run(ctx, env, []string{"flow", "test", "../../flows/demo/01-launch.yaml", "--device", "ios", "--app-file", tc.file})
			stderr := env.Stderr.(*bytes.Buffer).String()
			if code != 2 || !strings.Contains(stderr, tc.file) || !strings.Contains(stderr, tc.want) {
				t.Fatalf("want exit 2 naming %s and saying %q, got %d\n%s", tc.file, tc.want, code, stderr)
			}
		})
	}
}

// TestAppFileOnIPhone: on an iPhone (a fake USB link) --app-file
// installs an .app and an .ipa through go-ios's installer, in order,
// before the flow runs.
func TestAppFileOnIPhone(t *testing.T) {
	env, _ := fakeMac(t)
	link := &fakePhones{phones: []ios.Phone{{UDID: "00008110-PHONE", Name: "Ada's iPhone", Version: "16.7"}}}
	env.IOSLink = link
	app := iosApp(t, "com.example.todo")
	ipa := zipFile(t, "Todo.ipa", map[string]string{"Payload/Todo.app/Info.plist": "<plist/>"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios:00008110-PHONE",
		"--app-file", app, "--app-file", ipa}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	link.mu.Lock()
	defer link.mu.Unlock()
	if strings.Join(link.installs, " ") != app+" "+ipa {
		t.Fatalf("the phone's installer got %q, want %s then %s", link.installs, app, ipa)
	}
}

// TestAppFileOnAppium: --app-file gives Appium's session its app
// capability: the fake driver, which refuses a session without one, opens
// the page-source file given and the flows pass.
func TestAppFileOnAppium(t *testing.T) {
	srv := appiumServer.Get(t)
	caps := appiumCaps(t, "../../exec/appium/testdata/source/uiautomator2-login.xml", map[string]any{"appium:app": nil})
	r := runFlow(t, "", "test", "testdata/appium/android", "--device", "appium", "--webdriver-url", srv.URL,
		"--capabilities", caps, "--app-file", "../../exec/appium/testdata/source/uiautomator2-login.xml",
		"--output", filepath.Join(t.TempDir(), "report.json"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\nAppium:\n%s", r.code, r, srv.Log())
	}
}

// TestAppFileOnSim: an app model given with --app-file installs on sim as
// --app does (a flow launching it passes); files that do not fit the
// device, or are not what their name says, are exit 2 naming the file
// with what the device takes.
func TestAppFileOnSim(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flowFile := filepath.Join(dir, "board.yaml")
	os.WriteFile(flowFile, []byte("appId: com.example.board\n---\n- launchApp\n"), 0o644)
	if r := runFlow(t, "", "test", flowFile, "--device", "sim", "--app-file", "testdata/drag/board.yaml"); r.code != 0 {
		t.Fatalf("the board app model did not install: %s", r)
	}
	if r := runFlow(t, "", "test", flowFile, "--device", "sim"); r.code == 0 {
		t.Fatalf("without --app-file the board app is not there, and the flow cannot pass: %s", r)
	}
	apk := zipFile(t, "todo.apk", map[string]string{"AndroidManifest.xml": "x"})
	notZip := filepath.Join(dir, "broken.apk")
	os.WriteFile(notZip, []byte("not a zip"), 0o644)
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"apk on sim":        {[]string{"--device", "sim", "--app-file", apk}, "does not fit --device sim"},
		"app on android":    {[]string{"--device", "android", "--app-file", iosApp(t, "a.b")}, "an Android device installs .apk files"},
		"apk on ios":        {[]string{"--device", "ios", "--app-file", apk}, "an iOS device installs"},
		"apk on web":        {[]string{"--device", "web", "--app-file", apk}, "installs no app"},
		"not a zip":         {[]string{"--device", "android", "--app-file", notZip}, "not a zip archive"},
		"missing":           {[]string{"--device", "android", "--app-file", filepath.Join(dir, "gone.apk")}, "no such file"},
		"app without plist": {[]string{"--device", "ios", "--app-file", dir + "/Empty.app"}, "no such file"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", append([]string{"test", flowFile}, tc.args...)...)
			file := tc.args[len(tc.args)-1]
			if r.code != 2 || !strings.Contains(r.stderr, file) || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "hint") {
				t.Fatalf("want exit 2 naming %s, saying %q, with a hint: %s", file, tc.want, r)
			}
		})
	}
}
