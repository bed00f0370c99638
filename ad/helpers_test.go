package ad

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// parse parses src as "t.ad" with no options.
func parse(src string) (*Script, error) {
	return ParseScript("t.ad", []byte(src), ParseOptions{})
}

// mustParse fails the test on a parse error.
func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return s
}

// coded asserts err is a coded error with a position and a hint.
func coded(t *testing.T, err error) *canonical.Error {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok {
		t.Fatalf("want a *canonical.Error, got %v", err)
	}
	if ce.Pos.Line <= 0 {
		t.Errorf("error without a line: %v", ce)
	}
	if ce.Hint == "" {
		t.Errorf("error without a hint: %v", ce)
	}
	return ce
}

// errJSON is the contracts §2 form of an error, for snapshots.
func errJSON(t *testing.T, err error) json.RawMessage {
	t.Helper()
	data, jerr := json.Marshal(coded(t, err))
	if jerr != nil {
		t.Fatal(jerr)
	}
	return data
}

// sameActions compares what the codec carries (not positions).
func sameActions(a, b []Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Command != y.Command || x.RefLabel != y.RefLabel || !sameStrings(x.Positionals, y.Positionals) ||
			len(x.Flags) != len(y.Flags) || !sameJSON(x.Target, y.Target) || !sameJSON(x.Targets, y.Targets) {
			return false
		}
		for k, v := range x.Flags {
			if w, ok := y.Flags[k]; !ok || w != v {
				return false
			}
		}
	}
	return true
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// sameScripts compares two scripts' codec content.
func sameScripts(a, b *Script) bool {
	if len(a.Env) != len(b.Env) || len(a.Context.Fields) != len(b.Context.Fields) {
		return false
	}
	for i := range a.Env {
		if a.Env[i].Key != b.Env[i].Key || a.Env[i].Value != b.Env[i].Value {
			return false
		}
	}
	for i := range a.Context.Fields {
		if a.Context.Fields[i].Key != b.Context.Fields[i].Key || a.Context.Fields[i].Value != b.Context.Fields[i].Value {
			return false
		}
	}
	return sameActions(a.Actions, b.Actions)
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
