package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreadablePageSourceIsADeviceFailure: an Appium session whose page
// source is not XML (a proxy's error page, a truncated document) fails
// the flow with DEVICE_UNAVAILABLE and exit 3, even under optional: —
// not COMMAND_FAILED (exit 1, excused as a warning). The endpoint is a
// minimal W3C server: a session, then the broken source for every read.
func TestUnreadablePageSourceIsADeviceFailure(t *testing.T) {
	t.Parallel()
	for name, source := range map[string]string{
		"not xml":   "upstream connect error or disconnect/reset before headers",
		"truncated": `<?xml version="1.0"?><hierarchy rotation="0"><android.widget.FrameLayout bounds="[0,0][1080,2400]">`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var value any
				switch {
				case r.Method == http.MethodPost && r.URL.Path == "/session":
					value = map[string]any{"sessionId": "s1", "capabilities": map[string]any{"platformName": "Android",
						"appium:automationName": "UiAutomator2", "appium:deviceName": "emulator-5554"}}
				case strings.HasSuffix(r.URL.Path, "/source"):
					value = source
				case strings.HasSuffix(r.URL.Path, "/window/rect"):
					value = map[string]any{"x": 0, "y": 0, "width": 1080, "height": 2400}
				}
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(map[string]any{"value": value})
			}))
			t.Cleanup(srv.Close)
			dir := writeTree(t, map[string]string{
				"caps.json": `{"platformName": "Android", "appium:automationName": "UiAutomator2"}`,
				"a.yaml":    "appId: com.example.shop\n---\n- assertVisible:\n    text: Log in\n    optional: true\n",
				"b.yaml":    "appId: com.example.shop\n---\n- tapOn: Log in\n",
			})
			report := filepath.Join(dir, "report.json")
			r := runFlowWithin(t, "test", "--device", "appium", "--webdriver-url", srv.URL, "--capabilities", filepath.Join(dir, "caps.json"),
				"--format", "json", "--output", report, filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"))
			if r.code != 3 || !strings.Contains(r.stdout+r.stderr, "DEVICE_UNAVAILABLE") || strings.Contains(r.stdout, "warned") {
				t.Fatalf("want exit 3 with DEVICE_UNAVAILABLE, not excused by optional:\n%s", r)
			}
			if _, err := os.Stat(report); err != nil {
				t.Fatalf("the report was lost: %v\n%s", err, r)
			}
		})
	}
}
