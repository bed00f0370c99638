package webdriver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/webdriver"
)

// TestParseCapabilitiesQuotesNothing: a --capabilities file that is not a
// JSON object (a .env file, a key, a list of secrets) is refused at its
// line and column, saying what it is, without a byte of its content:
// encoding/json's own message quotes the offending character.
func TestParseCapabilitiesQuotesNothing(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]string{
		"Q=hunter2\n":          "it is not JSON",
		"-hunter2\n":           "it is not JSON",
		`["Qhunter2"]`:         "it is a JSON array, not an object",
		`{"a": Qhunter2}`:      "it is not JSON",
		"\"Qhunter2sklive\"\n": "it is a JSON string, not an object",
	} {
		_, err := webdriver.ParseCapabilities("caps.json", []byte(doc))
		ce, ok := canonical.AsError(err)
		if !ok || ce.Pos.Line == 0 || !strings.Contains(ce.Message, want) {
			t.Errorf("%q: want %q at a position, got %v", doc, want, err)
			continue
		}
		text, _ := json.Marshal(ce)
		if strings.Contains(string(text), "'Q'") || strings.Contains(string(text), "'-'") || strings.Contains(string(text), "hunter2") {
			t.Errorf("%q: the error quotes the file: %s", doc, text)
		}
	}
}
