package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
)

// TestAndroidHelperBuildWithoutSDK: with no SDK there is nothing to build
// with, and the error names every way to get a helper.
func TestAndroidHelperBuildWithoutSDK(t *testing.T) {
	r := runFlow(t, "", "android", "helper", "build")
	if r.code != 3 || !strings.Contains(r.stderr, "ANDROID_HOME") || !strings.Contains(r.stderr, "--android-helper") {
		t.Fatalf("want exit 3 naming the ways to get a helper:\n%s", r)
	}
}

// TestDevicesListsTheFakePhone: flow devices shows an adb device with
// its model and API level, next to sim and web.
func TestDevicesListsTheFakePhone(t *testing.T) {
	_, d, env, _ := fakeAndroid(t)
	if code := run(t.Context(), env, []string{"flow", "devices", "--json"}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	var list struct {
		Devices []flowapi.DeviceInfo `json:"devices"`
	}
	out := env.Stdout.(interface{ String() string }).String()
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var android, sim, web bool
	for _, l := range list.Devices {
		switch {
		case l.Serial == d.Serial:
			android = l.APILevel == "34" && l.Model != "" && l.Name == "android:"+d.Serial
		case strings.HasPrefix(l.Name, "sim"):
			sim = true
		case l.Name == "web":
			web = true
		}
	}
	if !android || !sim || !web {
		t.Fatalf("want the fake phone (API 34, with its model), sim and web:\n%s", out)
	}
}

// TestDevicesWithoutADB: no server and no adb to start one is a note, not
// a failure; sim and web are still listed.
func TestDevicesWithoutADB(t *testing.T) {
	var env = testEnv(map[string]string{"ANDROID_ADB_SERVER_PORT": "1"})
	if code := run(t.Context(), env, []string{"flow", "devices"}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	out := env.Stdout.(interface{ String() string }).String() + env.Stderr.(interface{ String() string }).String()
	if !strings.Contains(out, "sim") || !strings.Contains(out, "web") || !strings.Contains(strings.ToLower(out), "adb") {
		t.Fatalf("want sim, web and a note on adb:\n%s", out)
	}
}

func testEnv(vars map[string]string) Env {
	var out, errb bytes.Buffer
	return Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(func(k string) string { return vars[k] })}
}
