package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lostReport reads a JSON report's flows as "name status code".
func lostReport(t *testing.T, file string) []string {
	t.Helper()
	var rep struct {
		Flows []struct {
			Name, Status string
			Error        *struct{ Code, Message string }
		}
	}
	data, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(data, &rep) != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	var out []string
	for _, f := range rep.Flows {
		code := ""
		if f.Error != nil {
			code = f.Error.Code
		}
		out = append(out, strings.TrimSpace(f.Name+" "+f.Status+" "+code))
	}
	return out
}

// TestLostWebDeviceExits3: a WebDriver endpoint whose session goes away in
// the middle of a run (the browser crashed, the Grid dropped the session)
// ends the flow with DEVICE_UNAVAILABLE and the run with exit 3, not 1;
// the flow after it is not run on the dead device but skipped with the
// reason.
func TestLostWebDeviceExits3(t *testing.T) {
	t.Parallel()
	// The session opens, then the browser is gone: every command of it
	// fails as chromedriver answers when the browser died. Flow a needs no
	// device; flow b is the first to meet the loss.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/session":
			fmt.Fprint(w, `{"value":{"sessionId":"s1","capabilities":{"browserName":"chrome"}}}`)
		case r.Method == http.MethodDelete:
			fmt.Fprint(w, `{"value":null}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"value":{"error":"invalid session id","message":"invalid session id: session deleted as the browser has closed the connection"}}`)
		}
	}))
	defer srv.Close()
	head := "url: http://127.0.0.1:1/\n---\n"
	dir := writeFiles(t, map[string]string{
		"a.yaml": head + "- evalScript: ${1 + 1}\n",
		"b.yaml": head + "- assertVisible:\n    text: Welcome\n    optional: true\n",
		"c.yaml": head + "- evalScript: ${2}\n",
	})
	out := filepath.Join(t.TempDir(), "report.json")
	r := runFlow(t, "", "test", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml"),
		"--webdriver-url", srv.URL, "--format", "json", "--output", out)
	if r.code != 3 {
		t.Fatalf("want exit 3:\n%s", r)
	}
	if !strings.Contains(r.stdout, "b.yaml:3:3: DEVICE_UNAVAILABLE: ") || !strings.Contains(r.stdout, "session is gone") {
		t.Errorf("want the device error at the command:\n%s", r)
	}
	got := strings.Join(lostReport(t, out), "; ")
	if got != "a passed; b failed DEVICE_UNAVAILABLE; c skipped DEVICE_UNAVAILABLE" {
		t.Errorf("report: %s", got)
	}
}
