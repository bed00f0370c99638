package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
)

// assertScreenshot on sim under the current Maestro (docs.maestro.dev
// reference/commands-available/assertscreenshot; Maestro PRs #2949,
// #3034, #3261): a reference taken with takeScreenshot matches the same
// screen, another screen fails with the match percentage and a
// NAME_diff.png beside the reference, a missing reference fails, and
// under --maestro-version 1.39 the command is unknown.
func TestAssertScreenshotOnSim(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("appId: com.example.shop\n---\n- launchApp:\n    clearState: true\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := semGetenv(defaultEnv())
	test := func(flow string, args ...string) result {
		return runWithEnv(t, env, append(append([]string{"test", "--device", "sim"}, args...), flow)...)
	}

	// takeScreenshot writes relative to the working folder; an absolute
	// path puts the reference beside the flows.
	if r := test(write("make.yaml", "- takeScreenshot: "+filepath.Join(dir, "home")+"\n")); r.code != 0 {
		t.Fatalf("taking the reference: %s", r)
	}
	// The name without .png is completed (PR #3034) and resolved against
	// the flow's folder, not the working folder.
	if r := test(write("same.yaml", "- assertScreenshot: home\n")); r.code != 0 {
		t.Fatalf("the same screen did not match its reference: %s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "home_diff.png")); err == nil {
		t.Error("a passing assertScreenshot wrote a diff image")
	}

	// The login screen differs from the home screen.
	r := test(write("changed.yaml", "- tapOn: Log in\n- assertVisible: Welcome back\n- assertScreenshot:\n    path: home.png\n    thresholdPercentage: 99\n"))
	out := r.stdout + r.stderr
	if r.code != 1 || !strings.Contains(out, "Comparison error: Assert screenshot matches home.png (threshold: 99.0%) - threshold not met, current: ") {
		t.Fatalf("another screen: want exit 1 and Maestro's comparison error, got %s", r)
	}
	diff := filepath.Join(dir, "home_diff.png")
	f, err := os.Open(diff)
	if err != nil {
		t.Fatalf("no diff image beside the reference: %v", err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("the diff image is not a PNG: %v", err)
	}
	if !strings.Contains(out, "home_diff.png") {
		t.Errorf("the failure does not name the diff image:\n%s", out)
	}
	// A threshold of 0 accepts any screen of the same size.
	if r := test(write("lenient.yaml", "- tapOn: Log in\n- assertScreenshot: {path: home.png, thresholdPercentage: 0}\n")); r.code != 0 {
		t.Errorf("thresholdPercentage 0 failed: %s", r)
	}

	// cropOn on both (reference/commands-available/takescreenshot): the
	// banner's crop matches itself exactly, and is not the whole screen.
	if r := test(write("crop_make.yaml", "- takeScreenshot:\n    path: "+filepath.Join(dir, "banner")+"\n    cropOn: Summer sale.*\n")); r.code != 0 {
		t.Fatalf("taking a cropped reference: %s", r)
	}
	if r := test(write("crop_same.yaml", "- assertScreenshot:\n    path: banner.png\n    cropOn: Summer sale.*\n    thresholdPercentage: 100\n")); r.code != 0 {
		t.Errorf("the cropped banner did not match its reference: %s", r)
	}
	if r := test(write("crop_whole.yaml", "- assertScreenshot: banner.png\n")); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "the reference "+filepath.ToSlash(filepath.Join(dir, "banner.png"))+" is ") {
		t.Errorf("the whole screen against the cropped reference: want exit 1 naming both sizes, got %s", r)
	}

	// A missing reference fails (the reference page: the assertion fails
	// if the comparison image doesn't exist) and writes nothing.
	r = test(write("missing.yaml", "- assertScreenshot: screens/checkout.png\n"))
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "Screenshot file not found: "+filepath.ToSlash(filepath.Join(dir, "screens", "checkout.png"))) {
		t.Errorf("a missing reference: want exit 1 and Screenshot file not found, got %s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "screens")); err == nil {
		t.Error("a missing reference made its folder")
	}

	// 1.39 has no assertScreenshot.
	r = test(filepath.Join(dir, "same.yaml"), "--maestro-version", "1.39")
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, `unknown command "assertScreenshot"`) {
		t.Errorf("under 1.39: want exit 2 and an unknown command, got %s", r)
	}
}

// assertScreenshot and takeScreenshot's cropOn on Android: the fake phone
// behind the real adb server answers screencap with its own PNG (adb exec-out
// screencap -p), flow crops and compares it as on sim.
func TestAssertScreenshotOnFakePhone(t *testing.T) {
	_, d, env, apk := fakeAndroid(t)
	env.Getenv = func(k string) string { // the phone's environment, no FLOW_MAESTRO_VERSION
		if k == flowapi.MaestroVersionEnv {
			return ""
		}
		return d.Getenv(k)
	}
	dir := t.TempDir()
	flow := filepath.Join(dir, "f.yaml")
	body := "appId: com.example.shop\n---\n- launchApp:\n    clearState: true\n" +
		"- takeScreenshot: " + filepath.Join(dir, "home") + "\n- assertScreenshot: home\n" +
		"- takeScreenshot:\n    path: " + filepath.Join(dir, "banner") + "\n    cropOn: Summer sale.*\n" +
		"- assertScreenshot:\n    path: banner.png\n    cropOn: Summer sale.*\n" +
		"- tapOn: Log in\n- assertScreenshot: {path: home.png, thresholdPercentage: 99.9}\n"
	if err := os.WriteFile(flow, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code := run(t.Context(), env, []string{"flow", "test", "--device", "android:" + d.Serial, "--android-helper", apk, flow})
	out := fmt.Sprint(env.Stdout, env.Stderr)
	if code != 1 || !strings.Contains(out, "Comparison error: Assert screenshot matches home.png (threshold: 99.9%)") {
		t.Fatalf("want the first two comparisons to pass and the login screen to fail against home.png; exit %d\n%s", code, out)
	}
	if strings.Contains(out, "Comparison error: Assert screenshot matches banner.png") || strings.Contains(out, "Comparison error: Assert screenshot matches home (") {
		t.Errorf("a screen did not match its own reference:\n%s", out)
	}
	for _, f := range []string{"home.png", "banner.png", "home_diff.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
