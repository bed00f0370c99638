package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The runner refuses a plan with exec/ios's messages (PROTOCOL.md:
// "refusal = INVALID_ARGS with that message"), and flow shows that text
// to users whichever side refused. The Swift tests compare messages on a
// Mac; this holds the sources to it on every machine.
func TestSwiftCarriesEveryRefusalMessage(t *testing.T) {
	lower, err := os.ReadFile("../../exec/ios/lower.go")
	if err != nil {
		t.Fatal(err)
	}
	msgs := regexp.MustCompile(`runnerRefusal\("([^"]+)"`).FindAllStringSubmatch(string(lower), -1)
	if len(msgs) < 10 {
		t.Fatalf("found %d refusal messages in exec/ios/lower.go; the pattern no longer matches it", len(msgs))
	}
	files, _ := filepath.Glob(filepath.Join(runnerDir, "FlowRunnerCore", "Sources", "FlowRunnerCore", "*.swift"))
	var swift strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		swift.Write(data)
	}
	for _, m := range msgs {
		if !strings.Contains(swift.String(), `"`+m[1]+`"`) {
			t.Errorf("no Swift source of FlowRunnerCore says %q", m[1])
		}
	}
}
