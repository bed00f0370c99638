package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// staticTapFlow taps an element that does nothing when tapped (the login
// screen's "Welcome back" title): with retryTapIfNoChange, Maestro's
// default, Maestro taps it twice (Maestro.kt hierarchyBasedTap: same
// hierarchy, same screenshot).
const staticTapFlow = `appId: com.example.shop
---
- launchApp
- tapOn: Log in
- tapOn: Welcome back
- assertVisible: Welcome back
`

// countTaps is the number of tap events the runtime logged.
func countTaps(t *testing.T, file string) int {
	t.Helper()
	return strings.Count(runnerEvents(t, file), `"type":"tap"`)
}

// TestAndroidTapsAStaticElementAsSimDoes is issue 19's Deliver 5: the
// fake phone's settled reads move their version with the tap itself (its
// touch bumps the accessibility event counter, as the touch's own events
// do on a phone), and before the fix the runtime took that for a change,
// so the phone got one tap on a static element where sim got two. Now
// both decide as Maestro does, and the fake helper received exactly as
// many touches as sim logged taps.
func TestAndroidTapsAStaticElementAsSimDoes(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	flow := filepath.Join(dir, "static.yaml")
	os.WriteFile(flow, []byte(staticTapFlow), 0o644)
	androidEvents, simEvents := filepath.Join(dir, "android.jsonl"), filepath.Join(dir, "sim.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", flow, "--device", "android:" + d.Serial,
		"--android-helper", apk, "--events", androidEvents}); code != 0 {
		t.Fatalf("android: exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	if r := runFlow(t, "", "test", flow, "--device", "sim:android", "--events", simEvents); r.code != 0 {
		t.Fatalf("sim: %s", r)
	}
	simTaps, androidTaps := countTaps(t, simEvents), countTaps(t, androidEvents)
	if simTaps != 3 {
		t.Fatalf("sim tapped %d times; want 3 (Log in once, the static title twice)", simTaps)
	}
	if androidTaps != simTaps || len(p.Touches()) != simTaps {
		t.Fatalf("sim tapped %d times; the Android run logged %d taps and the phone's helper received %d touches",
			simTaps, androidTaps, len(p.Touches()))
	}
}

// busyFlow keeps a device busy for several seconds: ten taps of a static
// title, each tapped twice and settled.
const busyFlow = `appId: com.example.shop
---
- launchApp
- tapOn: Log in
- repeat:
    times: 6
    commands:
      - tapOn: Welcome back
- assertVisible: Welcome back
`

// TestAndroidSecondRunOnABusyPhoneExits3 is issue 19's M1 on the fake
// phone through the real adb server: while one run holds the phone, a
// second `flow test` and a one-off `flow press` are refused with exit 3
// naming the first run (its command, pid and host), and the first run
// passes untouched. Without the device lock, the second run's am
// instrument force-stops the first run's helper (the fake does what
// ActivityManagerService.startInstrumentation does).
func TestAndroidSecondRunOnABusyPhoneExits3(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	busy := filepath.Join(dir, "busy.yaml")
	os.WriteFile(busy, []byte(busyFlow), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	first := make(chan int, 1)
	firstArgs := []string{"flow", "test", busy, "--device", "android:" + d.Serial, "--android-helper", apk}
	go func() { first <- run(ctx, env, firstArgs) }()

	// Wait until the first run holds the phone and its helper serves.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if len(p.Touches()) > 0 {
			break
		}
		select {
		case code := <-first:
			t.Fatalf("the first run ended before it tapped: exit %d\n%s%s", code, env.Stdout, env.Stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run never tapped")
		}
	}
	host, _ := os.Hostname()
	wants := []string{d.Serial, "in use by another flow run", strings.Join(firstArgs, " "), fmt.Sprintf("pid %d", os.Getpid()), host, "hint:"}
	for _, second := range [][]string{
		{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "android:" + d.Serial, "--android-helper", apk},
		{"flow", "press", "540", "1200", "--device", "android:" + d.Serial, "--android-helper", apk},
	} {
		var out, errb bytes.Buffer
		env2 := env
		env2.Stdout, env2.Stderr = &out, &errb
		code := run(ctx, env2, second)
		all := out.String() + errb.String()
		t.Logf("%s on a busy phone:\n%s", strings.Join(second[:2], " "), all)
		if code != 3 {
			t.Fatalf("%s on a busy phone: exit %d, want 3\n%s", strings.Join(second[:2], " "), code, all)
		}
		for _, w := range wants {
			if !strings.Contains(all, w) {
				t.Errorf("%s on a busy phone does not say %q:\n%s", strings.Join(second[:2], " "), w, all)
			}
		}
	}
	select {
	case code := <-first:
		if code != 0 {
			t.Fatalf("the first run was disturbed: exit %d\n%s%s", code, env.Stdout, env.Stderr)
		}
	case <-ctx.Done():
		t.Fatal("the first run did not finish")
	}
	if links := p.Links(); len(links) != 0 {
		t.Fatalf("the first run left its lock behind: %v", links)
	}
}

// TestAndroidDriverStartupTimeout: MAESTRO_DRIVER_STARTUP_TIMEOUT, in
// milliseconds as Maestro reads it, bounds the wait for the helper's ready
// line (default 15 s): a helper that never gets ready fails the run with
// exit 3 after that long, saying so. A value that is not milliseconds is
// refused (exit 2) before anything touches the phone.
func TestAndroidDriverStartupTimeout(t *testing.T) {
	fs := adbd.NewMemFS()
	p := phone.New(phone.Options{Files: fs, Faults: phone.Faults{HelperNeverReady: true}})
	t.Cleanup(func() { p.Close() })
	d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
	apk := filepath.Join(t.TempDir(), "flow-helper.apk")
	os.WriteFile(apk, []byte("helper"), 0o644)
	for _, tc := range []struct {
		value string
		code  int
		says  string
	}{
		{"700", 3, "did not report ready on " + d.Serial + " within 700ms"},
		{"15s", 2, "MAESTRO_DRIVER_STARTUP_TIMEOUT=\"15s\" is not a number of milliseconds"},
	} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
			if k == "MAESTRO_DRIVER_STARTUP_TIMEOUT" {
				return tc.value
			}
			return d.Getenv(k)
		}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		start := time.Now()
		code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "android:" + d.Serial, "--android-helper", apk})
		took := time.Since(start)
		cancel()
		all := out.String() + errb.String()
		if code != tc.code || !strings.Contains(all, tc.says) {
			t.Fatalf("%s=%s: exit %d, want %d saying %q\n%s", "MAESTRO_DRIVER_STARTUP_TIMEOUT", tc.value, code, tc.code, tc.says, all)
		}
		if took > 8*time.Second {
			t.Fatalf("%s: took %s; the 700 ms bound was not applied", tc.value, took)
		}
	}
}

// TestAndroidAddMediaOnAPI28 is issue 19's M6 on the fake phone, which
// models WRITE_EXTERNAL_STORAGE as the runtime permission it is on API
// 24–28 (the media store refuses the helper without the grant): addMedia
// passes both on a fresh install (pm install -g) and with a helper that
// was installed before without the grant (pm grant at session start).
// Before the fix, both runs failed with the media store's refusal.
func TestAndroidAddMediaOnAPI28(t *testing.T) {
	dir := t.TempDir()
	photo := filepath.Join(dir, "cat.png")
	os.WriteFile(photo, []byte("\x89PNG\r\n\x1a\n"), 0o644)
	flow := filepath.Join(dir, "media.yaml")
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- addMedia:\n    - cat.png\n"), 0o644)
	apkBytes := []byte("a helper the fake phone accepts")
	for name, preinstalled := range map[string][]byte{"fresh install": nil, "installed before without the grant": apkBytes} {
		t.Run(name, func(t *testing.T) {
			fs := adbd.NewMemFS()
			p := phone.New(phone.Options{Files: fs, HelperAPK: preinstalled, Props: map[string]string{"ro.build.version.sdk": "28", "ro.build.version.release": "9"}})
			t.Cleanup(func() { p.Close() })
			d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
			apk := filepath.Join(t.TempDir(), "flow-helper.apk")
			os.WriteFile(apk, apkBytes, 0o644)
			var out, errb bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: d.Getenv}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if code := run(ctx, env, []string{"flow", "test", flow, "--device", "android:" + d.Serial, "--android-helper", apk}); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, &out, &errb)
			}
		})
	}
}

// TestAndroidToastVisibleFor3500ms: a toast the app posts (the fake phone
// sends TYPE_NOTIFICATION_STATE_CHANGED, as AOSP's Toast does) is visible
// to assertVisible, as in Maestro, and gone after 3.5 s.
func TestAndroidToastVisibleFor3500ms(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	flow := filepath.Join(dir, "toast.yaml")
	os.WriteFile(flow, []byte(`appId: com.example.shop
---
- launchApp
- assertVisible: Saved to favourites
- extendedWaitUntil:
    notVisible: Saved to favourites
    timeout: 8000
`), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	shownAt := make(chan time.Time, 1)
	go func() {
		for len(p.Links()) == 0 && ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		shownAt <- time.Now()
		p.ShowToast("Saved to favourites")
	}()
	code := run(ctx, env, []string{"flow", "test", flow, "--device", "android:" + d.Serial, "--android-helper", apk})
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	if took := time.Since(<-shownAt); took < 3*time.Second {
		t.Fatalf("the toast was gone after %s; a toast stays 3.5 s", took)
	}
}
