package flow

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppiumFiles: --app-file goes into the capabilities object Appium
// reads (the top level, or W3C's capabilities.alwaysMatch), the first as
// appium:app and the rest as appium:otherApps (a JSON array in a string,
// as UiAutomator2 and XCUITest parse it), paths made absolute and URLs
// kept; a platformName that contradicts a file is INVALID_ARGS. The
// capabilities given are not changed.
func TestAppiumFiles(t *testing.T) {
	t.Parallel()
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	for _, tc := range []struct {
		name, caps string
		files      []string
		want       string // the capabilities after, as JSON; "" for an error
		err        string
	}{
		{"flat", `{"platformName":"Android","appium:app":"old.apk"}`, []string{"a.apk"},
			`{"appium:app":"` + abs("a.apk") + `","platformName":"Android"}`, ""},
		{"w3c", `{"capabilities":{"alwaysMatch":{"platformName":"iOS"}}}`, []string{"A.app", "https://x/B.ipa"},
			`{"capabilities":{"alwaysMatch":{"appium:app":"` + abs("A.app") + `","appium:otherApps":"[\"https://x/B.ipa\"]","platformName":"iOS"}}}`, ""},
		{"ios app for android", `{"platformName":"Android"}`, []string{"A.app"}, "", "is an iOS app"},
		{"apk for ios", `{"alwaysMatch":{"platformName":"iOS"}}`, []string{"a.apk"}, "", "is an Android app"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var caps map[string]any
			if err := json.Unmarshal([]byte(tc.caps), &caps); err != nil {
				t.Fatal(err)
			}
			got, err := appiumFiles(caps, tc.files)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want an error saying %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(got)
			if string(data) != tc.want {
				t.Fatalf("got  %s\nwant %s", data, tc.want)
			}
			after, _ := json.Marshal(caps)
			if string(after) != normalized(t, tc.caps) {
				t.Fatalf("the given capabilities changed: %s", after)
			}
		})
	}
}

func normalized(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(v)
	return string(data)
}
