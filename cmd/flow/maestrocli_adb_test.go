package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHostPortReachAnotherADBServer: --host/--port (Maestro's hidden
// global options) and ADB_SERVER_SOCKET (adb's own variable, AOSP
// adb/client/commandline.cpp) send flow to an adb server that is not at
// adb's default address: the fake phone behind a real adb server on a
// port of the test's own, named by nothing else in the environment.
func TestHostPortReachAnotherADBServer(t *testing.T) {
	t.Parallel()
	_, d, _, apk := fakeAndroid(t)
	flow := filepath.Join(t.TempDir(), "flow.yaml")
	if err := os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp\n- assertVisible: Shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(d.ServerPort)
	cases := []struct {
		name string
		vars map[string]string
		args []string
		code int
	}{
		{"host_port_global", nil, []string{"--host", "127.0.0.1", "--port", port, "test", "--device", "android:" + d.Serial}, 0},
		{"maestro_style", nil, []string{"-p", "android", "--device", d.Serial, "--port", port, "test"}, 0},
		{"port_after_test", nil, []string{"test", "--device", "android:" + d.Serial, "--port", port}, 0},
		{"adb_server_socket", map[string]string{"ADB_SERVER_SOCKET": "tcp:127.0.0.1:" + port}, []string{"test", "--device", "android:" + d.Serial}, 0},
		// The flags win over the environment, as adb's -H/-P do.
		{"flags_over_env", map[string]string{"ADB_SERVER_SOCKET": "tcp:127.0.0.1:1"}, []string{"--port", port, "test", "--device", "android:" + d.Serial}, 0},
		// Neither: adb's default server, which does not have this phone
		// (or is not running: flow may not start one here).
		{"default_server", nil, []string{"test", "--device", "android:" + d.Serial}, 3},
	}
	// flow devices asks the same server.
	var out bytes.Buffer
	home := map[string]string{"HOME": d.Getenv("HOME")}
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(k string) string { return home[k] }}
	if code := run(context.Background(), env, []string{"flow", "--host", "127.0.0.1", "--port", port, "devices"}); code != 0 || !strings.Contains(out.String(), "android:"+d.Serial) {
		t.Fatalf("flow --host --port devices lists the fake phone: exit %d\n%s", code, out.String())
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vars := map[string]string{"HOME": d.Getenv("HOME")}
			for k, v := range c.vars {
				vars[k] = v
			}
			var out, errb bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			code := run(ctx, env, append(append([]string{"flow"}, c.args...), "--android-helper", apk, flow))
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out.String(), errb.String())
			}
		})
	}
}
