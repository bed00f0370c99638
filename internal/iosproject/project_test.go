package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

const runnerDir = "../../ios-runner"

// The committed project is what the generator makes of today's sources:
// a source added without rerunning it fails here, on Linux, before a Mac
// ever tries to build.
func TestProjectIsGenerated(t *testing.T) {
	want, err := Generate(os.DirFS(runnerDir))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range want {
		have, err := os.ReadFile(filepath.Join(runnerDir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("%v: run go run ./internal/iosproject", err)
		}
		if !bytes.Equal(have, data) {
			t.Errorf("ios-runner/%s is stale: run go run ./internal/iosproject and commit it", name)
		}
	}
}

// The acceptance: every Swift and Objective-C file under
// ios-runner/ is in a build phase, and every build-phase file exists.
func TestEverySourceIsBuilt(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(runnerDir, "FlowRunner.xcodeproj", "project.pbxproj"))
	if err != nil {
		t.Fatal(err)
	}
	root := os.DirFS(runnerDir)
	problems, err := Check(data, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	// The check must have had something to check: the runner's own parts.
	for _, f := range []string{"FlowRunnerUITests/FlowRunnerTests.swift", "FlowRunnerUITests/EventBridge.m",
		"FlowRunnerHost/FlowRunnerHostApp.swift"} {
		if _, err := os.Stat(filepath.Join(runnerDir, filepath.FromSlash(f))); err != nil {
			t.Errorf("ios-runner/%s: %v", f, err)
		}
	}
}

func sources(extra map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{
		"FlowRunnerHost/FlowRunnerHostApp.swift":                       {Data: []byte("import SwiftUI\n")},
		"FlowRunnerUITests/FlowRunnerTests.swift":                      {Data: []byte("import XCTest\n")},
		"FlowRunnerUITests/EventBridge.h":                              {Data: []byte("@import Foundation;\n")},
		"FlowRunnerUITests/EventBridge.m":                              {Data: []byte("#import \"EventBridge.h\"\n")},
		"FlowRunnerUITests/FlowRunnerUITests-Bridging-Header.h":        {Data: []byte("#import \"EventBridge.h\"\n")},
		"FlowRunnerCore/Package.swift":                                 {Data: []byte("// swift-tools-version:5.9\n")},
		"FlowRunnerCore/Sources/FlowRunnerCore/Protocol.swift":         {Data: []byte("import Foundation\n")},
		"FlowRunnerCore/Tests/FlowRunnerCoreTests/ProtocolTests.swift": {Data: []byte("import XCTest\n")},
		"testdata/wire/session.jsonl":                                  {Data: []byte("{}\n")},
	}
	for k, v := range extra {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

func generated(t *testing.T, fsys fstest.MapFS) []byte {
	t.Helper()
	files, err := Generate(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return files["FlowRunner.xcodeproj/project.pbxproj"]
}

// The check passes a project generated for the same files and fails one
// that is missing a source or names a file that is gone, whichever way it
// went wrong.
func TestCheckFindsWhatIsWrong(t *testing.T) {
	base := sources(nil)
	proj := generated(t, base)
	if problems, err := Check(proj, base); err != nil || len(problems) != 0 {
		t.Fatalf("a generated project fails its own sources: %v %v", problems, err)
	}

	added := sources(map[string]string{"FlowRunnerUITests/Stray.swift": "let x = 1\n", "FlowRunnerUITests/Lonely.h": "int y;\n"})
	problems, err := Check(proj, added)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(problems, "\n")
	for _, want := range []string{"FlowRunnerUITests/Stray.swift is in no target's Sources build phase",
		"FlowRunnerUITests/Lonely.h is included by nothing that is built"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in:\n%s", want, joined)
		}
	}

	gone := sources(nil)
	delete(gone, "FlowRunnerUITests/EventBridge.m")
	delete(gone, "FlowRunnerUITests/FlowRunnerUITests-Bridging-Header.h")
	problems, err = Check(proj, gone)
	if err != nil {
		t.Fatal(err)
	}
	joined = strings.Join(problems, "\n")
	for _, want := range []string{"a build phase compiles FlowRunnerUITests/EventBridge.m, which does not exist",
		"SWIFT_OBJC_BRIDGING_HEADER names FlowRunnerUITests/FlowRunnerUITests-Bridging-Header.h, which does not exist",
		"FlowRunnerUITests/EventBridge.h is included by nothing that is built"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in:\n%s", want, joined)
		}
	}

	// M2: a fixed bundle id (as the project had before) is one only the
	// first team to sign it can use.
	fixed := strings.Replace(string(proj), `"$(FLOW_BUNDLE_ID_PREFIX).UITests"`, "dev.flow.runner.UITests", 1)
	problems, err = Check([]byte(fixed), base)
	if err != nil || !strings.Contains(strings.Join(problems, "\n"), `target FlowRunnerUITests (Debug): PRODUCT_BUNDLE_IDENTIFIER "dev.flow.runner.UITests" does not start with $(FLOW_BUNDLE_ID_PREFIX).`) {
		t.Errorf("a fixed bundle id passes the check: %v %v", problems, err)
	}

	if _, err := Check([]byte("{ objects = ( ;"), base); err == nil {
		t.Error("a broken property list is accepted")
	}
}

// The core compiles into the UI test (the runner needs it) and into the
// logic tests; the tests compile into nothing else; the host app gets only
// its own file. Read back from the generated file, not from the table.
func TestTargetsCompileWhatTheyShould(t *testing.T) {
	proj := string(generated(t, sources(nil)))
	for _, c := range []struct {
		file  string
		count int
	}{
		{"Protocol.swift in Sources", 2},
		{"ProtocolTests.swift in Sources", 1},
		{"EventBridge.m in Sources", 1},
		{"FlowRunnerHostApp.swift in Sources", 1},
		{"Package.swift", 0},
	} {
		// Each build file appears twice: its definition and its phase entry.
		if got := strings.Count(proj, c.file) / 2; got != c.count && !(c.count == 0 && got == 0) {
			t.Errorf("%s: in %d build phases, want %d", c.file, got, c.count)
		}
	}
	if _, err := Generate(sources(map[string]string{"Elsewhere/Thing.swift": ""})); err == nil ||
		!strings.Contains(err.Error(), "ios-runner/Elsewhere/Thing.swift is in no target's folder") {
		t.Errorf("a source outside every target's folder: %v", err)
	}
}

// Regenerating is stable: the same sources give the same bytes, so a
// diff of the committed project shows only real changes.
func TestGenerateIsDeterministic(t *testing.T) {
	a, b := generated(t, sources(nil)), generated(t, sources(nil))
	if !bytes.Equal(a, b) {
		t.Fatal("two generations differ")
	}
}
