package appium_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/appium"
)

// recorder is an endpoint that accepts every command of a UiAutomator2 or
// XCUITest session and records it; its page source is a fixture. It
// stands in for the drivers' `mobile:` extensions, which Appium's fake
// driver lacks: the snapshot pins what flow sends for each device command,
// and the names and argument keys in it are the drivers' own
// (appium-android-driver lib/execute-method-map.ts, which
// appium-uiautomator2-driver spreads into its own; appium-xcuitest-driver
// lib/execute-method-map.ts and docs/reference/execute-methods.md).
type recorder struct {
	mu    sync.Mutex
	lines []string
}

func newRecorder(t *testing.T, automation, source string) (*recorder, string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "source", source))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		path := r.URL.Path
		if i := strings.Index(path, "/s-1"); i >= 0 {
			path = "{id}" + path[i+4:]
		}
		var value any
		switch {
		case r.Method == http.MethodPost && path == "/session":
			value = map[string]any{"sessionId": "s-1", "capabilities": map[string]any{
				"platformName":   map[string]string{"UiAutomator2": "Android", "XCUITest": "iOS"}[automation],
				"automationName": automation, "deviceName": "Phone"}}
		case path == "{id}/source":
			value = string(src)
		case path == "{id}/element/active":
			value = map[string]string{"element-6066-11e4-a52e-4f735466cecf": "el-7"}
		case path == "{id}/appium/stop_recording_screen":
			value = "AAAA"
		}
		if path != "{id}/source" && path != "/session" {
			rec.mu.Lock()
			rec.lines = append(rec.lines, fmt.Sprintf("%s %s %s", r.Method, path, strings.TrimSpace(string(body))))
			rec.mu.Unlock()
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"value": value})
	}))
	t.Cleanup(srv.Close)
	return rec, srv.URL
}

func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := strings.Join(r.lines, "\n")
	r.lines = nil
	return out
}

// TestDeviceCommandsOnTheWire: each device command as the requests it
// sends, on both drivers.
func TestDeviceCommandsOnTheWire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ automation, source string }{
		{"UiAutomator2", "uiautomator2-login.xml"},
		{"XCUITest", "xcuitest-login.xml"},
	} {
		t.Run(tc.automation, func(t *testing.T) {
			rec, url := newRecorder(t, tc.automation, tc.source)
			ctx := context.Background()
			dev, err := appium.Open(ctx, appium.Config{URL: url, Capabilities: map[string]any{
				"platformName": "x", "appium:automationName": tc.automation}})
			if err != nil {
				t.Fatal(err)
			}
			d := dev.(*appium.Device)
			media := filepath.Join(t.TempDir(), "cat.png")
			_ = os.WriteFile(media, []byte("png"), 0o600)
			video := filepath.Join(t.TempDir(), "run.mp4")
			var out strings.Builder
			for _, step := range []struct {
				name string
				run  func() error
			}{
				{"launchApp", func() error { return d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true}) }},
				{"launchApp clearState, permissions, arguments", func() error {
					return d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true, ClearState: true,
						Permissions: map[string]string{"all": "deny", "camera": "allow", "location": "deny"},
						Arguments:   map[string]any{"mockServer": "on", "retries": 2}})
				}},
				{"launchApp stopApp false", func() error {
					return d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop"})
				}},
				{"stopApp", func() error { return d.StopApp(ctx, "com.example.shop", true) }},
				{"clearState", func() error { return d.ClearState(ctx, "com.example.shop") }},
				{"clearKeychain", func() error { return d.ClearKeychain(ctx) }},
				{"openLink", func() error { return d.OpenLink(ctx, "shop://cart", false) }},
				{"inputText", func() error { return d.InputText(ctx, "ada@example.com ✓") }},
				{"eraseText", func() error { return d.EraseText(ctx, 2) }},
				{"pressKey Enter", func() error { return d.PressKey(ctx, exec.Key{Name: "Enter", AndroidCode: 66}) }},
				{"pressKey Home", func() error { return d.PressKey(ctx, exec.Key{Name: "Home", AndroidCode: 3}) }},
				{"pressKey Volume Up", func() error { return d.PressKey(ctx, exec.Key{Name: "Volume Up", AndroidCode: 24}) }},
				{"back", func() error { return d.Back(ctx) }},
				{"hideKeyboard", func() error { return d.HideKeyboard(ctx) }},
				{"setLocation", func() error { return d.SetLocation(ctx, 52.52, 13.405) }},
				{"addMedia", func() error { return d.AddMedia(ctx, []string{media}) }},
				{"setAirplaneMode", func() error { return d.SetAirplaneMode(ctx, true) }},
				{"startRecording, stopRecording", func() error {
					if err := d.StartRecording(ctx, video); err != nil {
						return err
					}
					return d.StopRecording(ctx)
				}},
				{"tap", func() error { return d.Tap(ctx, canonical.Point{X: 10, Y: 20}) }},
				{"close", func() error { return d.Close(ctx) }},
			} {
				err := step.run()
				fmt.Fprintf(&out, "# %s\n", step.name)
				if ce, ok := canonical.AsError(err); ok {
					fmt.Fprintf(&out, "error %s: %s\n", ce.Code, ce.Message)
				} else if err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				if sent := rec.take(); sent != "" {
					out.WriteString(sent + "\n")
				}
			}
			snaps.MatchSnapshot(t, out.String())
		})
	}
}
