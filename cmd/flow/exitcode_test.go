package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestUnknownCommandsAreInvalid: a command, subcommand or flag flow does
// not have is invalid input (exit 2, INVALID_ARGS) with a did-you-mean
// hint when one is close, in every command group; never urfave's
// "No help topic" as INTERNAL (exit 3).
func TestUnknownCommandsAreInvalid(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string // in stderr
		hint string // "" when no suggestion is expected
	}{
		{[]string{"xyz"}, `flow has no command "xyz"`, ""},
		{[]string{"tset", "flows"}, `flow has no command "tset"`, "did you mean flow test?"},
		{[]string{"chek"}, `flow has no command "chek"`, "did you mean flow check?"},
		{[]string{"convet"}, `flow has no command "convet"`, "did you mean flow convert?"},
		{[]string{"sim", "xyz"}, `flow sim has no command "xyz"`, ""},
		{[]string{"sim", "rest"}, `flow sim has no command "rest"`, "did you mean flow sim reset?"},
		{[]string{"sim", "reset", "now"}, `flow sim reset takes no arguments, got "now"`, ""},
		{[]string{"sim", "state", "x"}, `flow sim state takes no arguments`, ""},
		{[]string{"help", "tets"}, `flow has no command "tets"`, "did you mean flow test?"},
		{[]string{"version", "x"}, `flow version takes no arguments`, ""},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus", ""},
		{[]string{"test", "--formt", "junit", "flows"}, "flag provided but not defined: -formt", "did you mean --format?"},
		{[]string{"check", "--platfrom", "ios", "flows"}, "flag provided but not defined: -platfrom", "did you mean --platform?"},
		{[]string{"sim", "reset", "--force"}, "flag provided but not defined: -force", ""},
		{[]string{"gesture", "xyz"}, "INVALID_ARGS", ""},
		{[]string{"press", "--bogus"}, "press does not accept --bogus", ""},
		{[]string{"scroll", "sideways"}, `unknown scroll direction "sideways"`, ""},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, "_"), func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", tc.args...)
			if r.code != 2 {
				t.Fatalf("want exit 2:\n%s", r)
			}
			if !strings.Contains(r.stderr, "INVALID_ARGS: ") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("want INVALID_ARGS and %q:\n%s", tc.want, r)
			}
			if tc.hint != "" && !strings.Contains(r.stderr, tc.hint) {
				t.Errorf("want the hint %q:\n%s", tc.hint, r)
			}
			if strings.Contains(r.stderr, "No help topic") || strings.Contains(r.stderr, "INTERNAL") {
				t.Errorf("urfave's internal error leaked:\n%s", r)
			}
		})
	}
	// --json keeps the contracts §2 shape.
	r := runFlow(t, "", "check", "--json", "--jsn", "flows")
	var doc struct {
		Error struct{ Code, Hint string }
	}
	if r.code != 2 || json.Unmarshal([]byte(r.stderr), &doc) != nil || doc.Error.Code != "INVALID_ARGS" {
		t.Errorf("want a JSON INVALID_ARGS error:\n%s", r)
	}
}

// TestHelpStillWorks: the group actions that refuse unknown commands
// still print help for no command, help and help COMMAND.
func TestHelpStillWorks(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"help"}, {"--help"}, {"sim"}, {"help", "test"}, {"sim", "--help"}} {
		r := runFlow(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "USAGE:") {
			t.Errorf("flow %s: want help and exit 0:\n%s", strings.Join(args, " "), r)
		}
	}
	if r := runFlow(t, "", "help", "test"); !strings.Contains(r.stdout, "flow test - run flows") {
		t.Errorf("flow help test must show test's help:\n%s", r)
	}
}

// TestVersion: flow --version and flow version print flow's version and
// the Go version this binary was built with; --json gives the fields.
func TestVersion(t *testing.T) {
	t.Parallel()
	want := "flow (devel) " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		r := runFlow(t, "", args...)
		if r.code != 0 || r.stdout != want {
			t.Errorf("flow %s: want %q:\n%s", args[0], want, r)
		}
	}
	r := runFlow(t, "", "version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != 0 || v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("flow version --json: %v\n%s", err, r)
	}
}

// TestReadVersion: the commit, its time and the modified flag come from
// the build info's vcs settings; the main module's version is used when
// go install stamped one.
func TestReadVersion(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "07cd9741a5fed691245083b91cf41f765ede6da4"},
			{Key: "vcs.time", Value: "2026-05-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := readVersion(info, true).String()
	want := "flow v1.4.0 (commit 07cd9741a5fe, modified, 2026-05-01T10:00:00Z) go1.99.1 " + runtime.GOOS + "/" + runtime.GOARCH
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	info.Settings[2].Value = "false"
	if got := readVersion(info, true); got.Modified || strings.Contains(got.String(), "modified") {
		t.Errorf("a clean tree is not modified: %q", got.String())
	}
	if got := readVersion(nil, false); got.Version != "(devel)" || got.Go != runtime.Version() {
		t.Errorf("without build info: %+v", got)
	}
}
