package maestro_test

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

// TestUnrecognisedFileErrorsQuoteNothing: yaml.v3 repeats an undefined
// alias's name in its message. In a file that is not a flow (no header
// names an app: someone's credentials given by mistake) the error says
// what is wrong and where without the name; in a flow, the name and the
// hint that quotes it stay, as they help.
func TestUnrecognisedFileErrorsQuoteNothing(t *testing.T) {
	t.Parallel()
	load := func(text string) string {
		l := newLoader139(nil)
		_, err := l.LoadBytes("f.yaml", []byte(text))
		if err == nil {
			t.Fatalf("%q loaded", text)
		}
		out, _ := json.Marshal(l.Problems())
		return string(out)
	}
	for _, text := range []string{"password: *hunter2sklive\n", "- *hunter2sklive\n", "[a, *hunter2sklive]\n"} {
		got := load(text)
		if strings.Contains(got, "hunter2sklive") || !strings.Contains(got, "an alias (*name) refers to an anchor") ||
			!strings.Contains(got, `"line":1`) {
			t.Errorf("%q: want the problem at line 1 without the alias's name, got %s", text, got)
		}
	}
	if got := load("appId: com.example\n---\n- tapOn: *Login\n"); !strings.Contains(got, `\"*Login\" in quotes`) {
		t.Errorf("in a flow the hint names the alias: %s", got)
	}
	// A workspace config is any file --config names.
	_, err := newLoader139(fstest.MapFS{"config.yaml": {Data: []byte("flows: *hunter2sklive\n")}}).LoadConfig("config.yaml")
	if err == nil || strings.Contains(err.Error(), "hunter2sklive") || !strings.Contains(err.Error(), "config.yaml:1:") {
		t.Errorf("config: want the problem at line 1 without the alias's name, got %v", err)
	}
}
