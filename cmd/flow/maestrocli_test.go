package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// maestroWorkspace is a folder Maestro would run: a passing flow tagged
// smoke, a failing one tagged slow, a flow that passes on iOS only
// (maestro.platform, Maestro's JS), a config.yaml that takes them all and
// another that takes the passing one alone.
func maestroWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pass.yaml":    "appId: com.example.shop\nname: pass\ntags: [smoke]\n---\n- launchApp\n- assertVisible: Shop\n",
		"fail.yaml":    "appId: com.example.shop\nname: fail\ntags: [slow]\n---\n- launchApp\n- assertVisible: No such text\n",
		"ios.yaml":     "appId: com.example.shop\nname: ios\ntags: [platform]\n---\n- launchApp\n- assertTrue: ${maestro.platform == 'ios'}\n",
		"config.yaml":  "flows:\n  - pass.yaml\n  - fail.yaml\n",
		"passing.yaml": "flows:\n  - pass.yaml\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMaestroCommandLines is issue 21's table of Maestro command lines
// (maestro-cli App.kt, TestCommand.kt, DisableAnsiMixin.kt of 1.39.10),
// run as a CI script would run them with `maestro` replaced by `flow`, on
// sim: each global option before the command and after it, each test
// option, alone and combined. A verdict is Maestro's (0 passed, 1 a flow
// failed); flow's invalid input is 2 where Maestro's picocli says 2 for a
// usage error (contracts §1).
func TestMaestroCommandLines(t *testing.T) {
	t.Parallel()
	ws := maestroWorkspace(t)
	pass, fail, ios := filepath.Join(ws, "pass.yaml"), filepath.Join(ws, "fail.yaml"), filepath.Join(ws, "ios.yaml")
	cases := []struct {
		name string
		args []string
		tty  bool
		code int
		want []string // in stdout+stderr
		not  []string // never in stdout+stderr
	}{
		{"plain", []string{"test", pass}, false, 0, []string{"1 passed, 0 failed"}, []string{"warning"}},
		{"failing", []string{"test", fail}, false, 1, []string{"0 passed, 1 failed"}, nil},
		// -p/--platform: before the command, after it, after the paths.
		{"platform_ios_global", []string{"-p", "ios", "--device", "sim", "test", ios}, false, 0, []string{"1 passed"}, nil},
		{"platform_ios_after", []string{"test", "--platform", "ios", "--device", "sim", ios}, false, 0, []string{"1 passed"}, nil},
		{"platform_ios_last", []string{"test", ios, "--device", "sim", "-p", "ios"}, false, 0, []string{"1 passed"}, nil},
		{"platform_android", []string{"--platform", "android", "--device", "sim", "test", ios}, false, 1, []string{"0 passed, 1 failed"}, nil},
		{"platform_unknown", []string{"-p", "tvos", "test", pass}, false, 2, []string{`-p "tvos" is no platform`}, nil},
		// --device and --udid, global and after test.
		{"device_global", []string{"--device", "sim:ios", "test", ios}, false, 0, []string{"1 passed"}, nil},
		{"udid_global", []string{"--udid", "sim:ios", "test", ios}, false, 0, []string{"1 passed"}, nil},
		{"udid_after", []string{"test", ios, "--udid", "sim:ios"}, false, 0, []string{"1 passed"}, nil},
		{"device_mixed_kinds", []string{"--device", "sim,emulator-5554", "test", pass}, false, 2, []string{"mixes sim and android devices"}, nil},
		// A comma list names the devices of the shards.
		{"device_list_shards", []string{"--device", "sim:ios,sim:ios", "test", "--shard-split", "2", pass, ios}, false, 0, []string{"2 passed, 0 failed", "[shard 2]"}, nil},
		{"device_list_short", []string{"--device", "sim,sim", "test", "--shard-split", "3", pass, fail, ios}, false, 2, []string{"--device lists 2 devices; --shard-split 3 needs 3"}, nil},
		{"device_list_unsharded", []string{"--device", "sim,sim", "test", pass}, false, 0, []string{"warning: --device lists 2 devices; without --shard-split or --shard-all the run uses the first, sim"}, nil},
		// --host/--port mean nothing to sim: accepted with a warning.
		{"host_port_sim", []string{"--host", "10.0.2.2", "--port", "5037", "test", pass}, false, 0, []string{"warning: --host and --port reach an adb server, which --device sim does not use; ignored", "1 passed"}, nil},
		{"port_zero", []string{"test", "--port", "0", "--device", "android", pass}, false, 2, []string{"--port 0 is not a port"}, nil},
		// --verbose prints every step of shards running at once.
		{"verbose_shards", []string{"--verbose", "test", "--shard-split", "2", pass, fail}, false, 1, []string{"✓ Assert that \"Shop\" is visible", "1 passed, 1 failed"}, nil},
		// Maestro's words before a sharded run (TestCommand.handleSessions).
		{"shard_split_lines", []string{"test", "--shard-split", "3", pass, fail}, false, 1, []string{"warning: Requested 3 shards, but it cannot be higher than the number of flows (2). Will use 2 shards instead.", "Will split 2 flows across 2 shards (1 flows per shard)"}, nil},
		{"shard_split_approx", []string{"test", "--shard-split", "2", pass, fail, ios}, false, 1, []string{"Will split 3 flows across 2 shards (approx. 2 flows per shard)"}, []string{"Requested"}},
		{"shard_all_lines", []string{"test", "--shard-all", "2", pass}, false, 0, []string{"Will run 2 shards, with all 1 flows in each shard", "2 passed"}, nil},
		{"quiet_shards", []string{"test", "--shard-split", "2", pass, fail}, false, 1, []string{"1 passed, 1 failed"}, []string{"✓ Assert that \"Shop\" is visible"}},
		// --no-color/--no-ansi end colours on a terminal; --color/--ansi
		// (their negated forms in picocli) force them.
		{"tty_colours", []string{"test", pass}, true, 0, []string{"\033["}, nil},
		{"no_color_global", []string{"--no-color", "test", pass}, true, 0, []string{"1 passed"}, []string{"\033["}},
		{"no_ansi_after", []string{"test", pass, "--no-ansi"}, true, 0, []string{"1 passed"}, []string{"\033["}},
		{"ansi_forced", []string{"--ansi", "test", pass}, false, 0, []string{"\033["}, nil},
		// -v/--version.
		{"version_short", []string{"-v"}, false, 0, []string{"flow "}, nil},
		{"version_long", []string{"--version"}, false, 0, []string{"flow "}, nil},
		// A global option a command has no use for: a warning, never a refusal.
		{"verbose_version", []string{"--verbose", "version"}, false, 0, []string{"warning: --verbose means nothing to flow version; ignored"}, nil},
		// -s/--shards: Maestro's deprecated --shard-split, with its warning.
		{"shards_short", []string{"test", "-s", "2", pass, fail}, false, 1, []string{"warning: --shards option is deprecated and will be removed in the next Maestro version. Use --shard-split or --shard-all instead.", "[shard 2]", "1 passed, 1 failed"}, nil},
		{"shards_long", []string{"test", pass, fail, "--shards=2"}, false, 1, []string{"--shards option is deprecated", "[shard 2]"}, nil},
		// --format noop: Maestro's default, no report even with --output.
		{"format_noop", []string{"test", "--format", "noop", pass}, false, 0, []string{"1 passed"}, []string{"report:"}},
		{"format_NOOP_output", []string{"test", "--format", "NOOP", "--output", filepath.Join(ws, "none.xml"), pass}, false, 0, []string{"--output " + filepath.Join(ws, "none.xml") + " is ignored"}, []string{"report:"}},
		{"format_unknown", []string{"test", "--format", "pdf", pass}, false, 2, []string{`unknown report format "pdf"`}, nil},
		// --headless: the web device's; sim warns.
		{"headless_sim", []string{"test", "--headless", pass}, false, 0, []string{"warning: --headless applies to the web device, not --device sim; ignored", "1 passed"}, nil},
		// --test-suite-name, --format junit, --output.
		{"suite_name", []string{"test", "--format", "junit", "--output", filepath.Join(ws, "suite.xml"), "--test-suite-name", "Nightly", pass}, false, 0, []string{"report: " + filepath.Join(ws, "suite.xml")}, nil},
		// --config, --include-tags, --exclude-tags.
		{"workspace", []string{"test", ws}, false, 1, []string{"1 passed, 1 failed"}, nil},
		{"config", []string{"test", "--config", filepath.Join(ws, "passing.yaml"), ws}, false, 0, []string{"1 passed, 0 failed"}, nil},
		{"include_tags", []string{"test", ws, "--include-tags", "smoke"}, false, 0, []string{"1 passed, 0 failed"}, nil},
		{"config_missing_file", []string{"test", "--config", filepath.Join(ws, "nope.yaml"), pass}, false, 2, []string{"config file " + filepath.Join(ws, "nope.yaml") + " does not exist"}, nil},
		{"exclude_tags", []string{"test", "--exclude-tags=smoke", ws}, false, 1, []string{"0 passed, 1 failed"}, nil},
		// -c/--continuous refuses what Maestro's refuses.
		{"continuous_two_flows", []string{"test", "-c", pass, fail}, false, 2, []string{"--continuous runs one flow file; 2 paths were given"}, nil},
		{"continuous_report", []string{"test", "--continuous", "--format", "junit", pass}, false, 2, []string{"--continuous runs one flow file; it writes no report"}, nil},
		{"continuous_folder", []string{"test", "-c", ws}, false, 2, []string{"is a folder"}, nil},
		// Everything at once, globals first, test options around the path.
		{"combined", []string{"--udid", "sim:ios,sim:ios", "-p", "ios", "--no-ansi", "--verbose", "test", "--shard-all", "2",
			"--format", "junit", "--output", filepath.Join(ws, "all.xml"), ios, "--test-suite-name", "All", "--headless", "-e", "X=1"}, true, 0,
			[]string{"warning: --headless applies to the web device", "2 passed, 0 failed", "[shard 2]"}, []string{"\033["}},
	}
	t.Run("lines", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				var out, errb bytes.Buffer
				env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, IsTTY: tc.tty}
				code := run(context.Background(), env, append([]string{"flow"}, tc.args...))
				r := result{code: code, stdout: out.String(), stderr: errb.String()}
				if code != tc.code {
					t.Fatalf("exit %d, want %d\n%s", code, tc.code, r)
				}
				all := r.stdout + r.stderr
				for _, w := range tc.want {
					if !strings.Contains(all, w) {
						t.Errorf("output lacks %q\n%s", w, r)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(all, w) {
						t.Errorf("output has %q\n%s", w, r)
					}
				}
			})
		}
	})
	if _, err := os.Stat(filepath.Join(ws, "none.xml")); err == nil {
		t.Error("--format noop wrote the --output file")
	}
	data, err := os.ReadFile(filepath.Join(ws, "suite.xml"))
	if err != nil || !strings.Contains(string(data), `name="Nightly"`) {
		t.Errorf("--test-suite-name: %v\n%s", err, data)
	}
	data, err = os.ReadFile(filepath.Join(ws, "all.xml"))
	if err != nil || !strings.Contains(string(data), `name="All"`) || strings.Count(string(data), "<testcase ") != 2 {
		t.Errorf("combined: --shard-all 2 over one flow is two test cases in one report named All: %v\n%s", err, data)
	}
}

// TestMaestroDeviceIDs: a Maestro device ID (App.kt: "Device ID to run
// on explicitly, can be a comma separated list") becomes flow's device
// name: -p says the platform, else a UDID's shape says iOS, anything else
// is an adb serial, and "chromium" (Maestro's web device) is web.
func TestMaestroDeviceIDs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		device   string
		set      bool
		platform string
		want     string
		list     []string
		warn     bool
	}{
		{"sim", false, "", "sim", nil, false},
		{"sim", false, "android", "android", nil, false},
		{"sim", false, "IOS", "ios", nil, false},
		{"sim", false, "web", "web", nil, false},
		{"sim", true, "android", "sim:android", nil, false},
		{"emulator-5554", true, "", "android:emulator-5554", nil, false},
		{"192.168.1.20:5555", true, "", "android:192.168.1.20:5555", nil, false},
		{"8A3B1C2D-0E4F-4A5B-9C6D-7E8F9A0B1C2D", true, "", "ios:8A3B1C2D-0E4F-4A5B-9C6D-7E8F9A0B1C2D", nil, false},
		{"00008030-001A2B3C4D5E6F70", true, "", "ios:00008030-001A2B3C4D5E6F70", nil, false},
		{"R58M123ABC", true, "ios", "ios:R58M123ABC", nil, false},
		{"chromium", true, "", "web", nil, false},
		{"emulator-5554, emulator-5556", true, "", "android:emulator-5554", []string{"android:emulator-5554", "android:emulator-5556"}, false},
		{"android:a", true, "ios", "android:a", nil, true},
		{"simulator", true, "", "simulator", nil, false}, // no serial: flow's unknown-device error
		{"pixel", true, "android", "android:pixel", nil, false},
	}
	for _, c := range cases {
		got, err := chooseDevice(c.device, c.set, c.platform)
		if err != nil || got.device != c.want || strings.Join(got.list, ",") != strings.Join(c.list, ",") || (len(got.warnings) > 0) != c.warn {
			t.Errorf("--device %q (set %v) -p %q: got %+v, %v; want %s %v warn=%v", c.device, c.set, c.platform, got, err, c.want, c.list, c.warn)
		}
	}
}

// TestCheckTakesTestSelection: flow check selects the flows flow test
// would run: --config's flows, --include-tags and --exclude-tags, and
// checks those only; -p before the command is its --platform.
func TestCheckTakesTestSelection(t *testing.T) {
	t.Parallel()
	ws := maestroWorkspace(t)
	cases := []struct {
		args  []string
		flows []string
	}{
		{[]string{"check", "--json", ws}, []string{"fail.yaml", "pass.yaml"}},
		{[]string{"check", "--json", "--config", filepath.Join(ws, "passing.yaml"), ws}, []string{"pass.yaml"}},
		{[]string{"check", "--json", ws, "--include-tags", "smoke"}, []string{"pass.yaml"}},
		{[]string{"check", "--json", "--exclude-tags=smoke", ws}, []string{"fail.yaml"}},
		{[]string{"-p", "ios", "check", "--json", "--include-tags", "slow,smoke", ws}, []string{"fail.yaml", "pass.yaml"}},
	}
	for _, c := range cases {
		r := runFlow(t, "", c.args...)
		var doc struct {
			Flows []string
			Files int
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &doc) != nil {
			t.Fatalf("flow %v:\n%s", c.args, r)
		}
		var got []string
		for _, f := range doc.Flows {
			got = append(got, filepath.Base(f))
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(c.flows, ",") || doc.Files != len(c.flows) {
			t.Errorf("flow %v: selected %v, checked %d files; want %v checked\n%s", c.args, got, doc.Files, c.flows, r)
		}
	}
	if r := runFlow(t, "", "check", "--config", filepath.Join(ws, "nope.yaml"), filepath.Join(ws, "pass.yaml")); r.code != 2 || !strings.Contains(r.stderr, "does not exist") {
		t.Errorf("a --config file that is not there is refused, also with a flow file:\n%s", r)
	}
	if r := runFlow(t, "", "check", "--include-tags", "nothing", ws); r.code != 2 || !strings.Contains(r.stdout+r.stderr, "no flows left after the tag filter") {
		t.Errorf("a tag no flow has leaves nothing to check, as flow test says:\n%s", r)
	}
}

// TestIOSListedShards: --udid A,B with -p ios and --shard-split 2 runs the
// shards on the simulators listed, each booted; a listed simulator that
// is not booted is exit 3 naming it, even when another one is booted.
func TestIOSListedShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flows on a wall clock")
	}
	env, dir := fakeMac(t)
	environ := env.Environ
	booted := "2"
	env.Environ = func() []string { return append(environ(), "FLOW_FAKE_XCRUN_BOOTED="+booted) }
	flows := []string{"../../flows/demo/02-login.yaml", "../../flows/demo/03-browse.yaml"}
	call := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		e := env
		e.Stdout, e.Stderr = &out, &errb
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		code := run(ctx, e, append(append([]string{"flow"}, args...), flows...))
		return code, out.String() + errb.String()
	}
	if code, out := call("-p", "ios", "--udid", "FAKE-UDID-2,FAKE-UDID-1", "test", "--shard-split", "2"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	if !strings.Contains(string(log), "-destination id=FAKE-UDID-1") || !strings.Contains(string(log), "-destination id=FAKE-UDID-2") {
		t.Fatalf("each shard starts a runner on the simulator listed for it:\n%s", log)
	}
	booted = "1"
	if code, out := call("test", "--device", "ios:FAKE-UDID-1,ios:FAKE-UDID-2", "--shard-split", "2"); code != 3 || !strings.Contains(out, `iOS simulator "FAKE-UDID-2" is not booted`) {
		t.Fatalf("want exit 3 naming the simulator that is not booted, got %d\n%s", code, out)
	}
}
