package webdriver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestCredentialsNeverPrinted: user info in the endpoint URL is sent as
// basic authentication, and neither the user nor the key appears in
// Endpoint, in an error's message or details, even when the endpoint
// echoes them back (a provider that refuses credentials often quotes
// them), nor in the secrets a caller adds from capabilities.
func TestCredentialsNeverPrinted(t *testing.T) {
	t.Parallel()
	const user, key, capKey = "alice-ci", "s3cr3t-access-key", "cap-access-key-9"
	var gotUser, gotKey string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotUser, gotKey, _ = r.BasicAuth()
		w.WriteHeader(http.StatusInternalServerError)
		_ = json.NewEncoder(w).Encode(map[string]any{"value": map[string]string{"error": "session not created",
			"message": "[BROWSERSTACK_ALL_PARALLELS_IN_USE] user " + user + " with key " + key + " and " + capKey + " has no parallels left"}})
	}))
	defer srv.Close()
	endpoint := strings.Replace(srv.URL, "http://", "http://"+user+":"+key+"@", 1) + "/wd/hub"
	c := NewClient(endpoint, ClientOptions{})
	c.AddSecret(capKey)
	if strings.Contains(c.Endpoint(), user) || strings.Contains(c.Endpoint(), key) {
		t.Errorf("Endpoint shows credentials: %s", c.Endpoint())
	}
	_, err := c.NewSession(context.Background(), map[string]any{"platformName": "android"}, time.Second)
	if err == nil {
		t.Fatal("the session was refused, want an error")
	}
	if gotUser != user || gotKey != key {
		t.Errorf("basic auth %q:%q, want the URL's user info", gotUser, gotKey)
	}
	data, _ := json.Marshal(err)
	for _, s := range []string{user, key, capKey} {
		if strings.Contains(err.Error(), s) || strings.Contains(string(data), s) {
			t.Errorf("the error shows %q:\n%s\n%s", s, err, data)
		}
	}
	if !strings.Contains(err.Error(), "BROWSERSTACK_ALL_PARALLELS_IN_USE") {
		t.Errorf("the provider's message is lost: %v", err)
	}
	if got := Redact(endpoint); strings.Contains(got, user) || strings.Contains(got, key) || !strings.Contains(got, "***@127.0.0.1") {
		t.Errorf("Redact(%q) = %q", endpoint, got)
	}
}

// TestNewSessionRepeatedOnlyWhenNothingWasSent: a refused connection
// (nothing reached the endpoint) repeats POST /session; a connection that
// reached the endpoint and broke does not, since a session (a billed
// device) may have started.
func TestNewSessionRepeatedOnlyWhenNothingWasSent(t *testing.T) {
	t.Parallel()
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		_ = conn.Close() // the request arrived; the answer never does
	}))
	defer srv.Close()
	c := NewClient(srv.URL, ClientOptions{Backoff: time.Millisecond})
	if _, err := c.NewSession(context.Background(), map[string]any{"platformName": "android"}, time.Second); err == nil {
		t.Fatal("want an error")
	}
	if hits != 1 {
		t.Errorf("POST /session reached the endpoint %d times; a session that may have started must not be requested again", hits)
	}
	// A closed port: every attempt is refused before anything is sent.
	addr := srv.Listener.Addr().String()
	srv.Close()
	c = NewClient("http://"+addr, ClientOptions{Backoff: time.Millisecond})
	start := time.Now()
	_, err := c.NewSession(context.Background(), map[string]any{"platformName": "android"}, time.Second)
	if err == nil || c.RoundTrips() != 0 {
		t.Fatalf("err %v, %d requests written", err, c.RoundTrips())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a refused endpoint took %s to give up", d)
	}
}

// TestSplitCapabilitiesNested: flow's own keys are kept back wherever a
// capabilities file puts them, W3C's full form included.
func TestSplitCapabilitiesNested(t *testing.T) {
	t.Parallel()
	var in map[string]any
	_ = json.Unmarshal([]byte(`{"capabilities":{"alwaysMatch":{"platformName":"android","flow:multiTouch":true},
		"firstMatch":[{"appium:deviceName":"a","flow:calibrate":false}]}}`), &in)
	send, own := SplitCapabilities(in)
	data, _ := json.Marshal(send)
	if strings.Contains(string(data), "flow:") || !strings.Contains(string(data), "platformName") || !strings.Contains(string(data), "appium:deviceName") {
		t.Errorf("sent %s", data)
	}
	if own[CapMultiTouch] != true || own[CapCalibrate] != false {
		t.Errorf("own %v", own)
	}
}

// TestCapabilitiesSyntaxErrorPosition: a broken capabilities file is
// reported at the offending character.
func TestCapabilitiesSyntaxErrorPosition(t *testing.T) {
	t.Parallel()
	_, err := ParseCapabilities("caps.json", []byte("{\"platformName\": \"android\",\n \"appium:app\": }\n"))
	ce, ok := canonical.AsError(err)
	if !ok || ce.Pos.File != "caps.json" || ce.Pos.Line != 2 || ce.Pos.Col != 16 || ce.Hint == "" {
		t.Errorf("got %v at %+v", err, ce.Pos)
	}
}
