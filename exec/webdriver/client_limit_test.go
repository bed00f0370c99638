package webdriver_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/webdriver"
)

// endless is an endpoint that opens a session and then answers path with
// a JSON string that never ends; sent counts the bytes it wrote.
func endless(t *testing.T, path string, sent *atomic.Int64) *webdriver.Client {
	t.Helper()
	chunk := []byte(strings.Repeat("A", 64<<10))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/session" {
			fmt.Fprint(w, `{"value":{"sessionId":"s1","capabilities":{}}}`)
			return
		}
		if !strings.HasSuffix(r.URL.Path, path) {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"value":"`)
		for r.Context().Err() == nil {
			n, err := w.Write(chunk)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	c := webdriver.NewClient(srv.URL, webdriver.ClientOptions{Timeout: 30 * time.Second, Retries: -1})
	if _, err := c.NewSession(context.Background(), map[string]any{}, 0); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEndlessReplyIsCapped: a reply that never ends is read up to a cap
// and fails DEVICE_UNAVAILABLE naming the endpoint, the command and the
// cap; the client stops reading there (what the server managed to send is
// bounded by the cap plus socket buffers). Ordinary replies have a 16 MB
// cap, screenshots 64 MB.
func TestEndlessReplyIsCapped(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		call       func(context.Context, *webdriver.Client) error
		limit      int64
	}{
		{"hierarchy", "/execute/sync", func(ctx context.Context, c *webdriver.Client) error {
			var s string
			return c.Execute(ctx, "return 1", nil, true, &s)
		}, 16 << 20},
		{"screenshot", "/screenshot", func(ctx context.Context, c *webdriver.Client) error {
			_, err := c.Screenshot(ctx)
			return err
		}, 64 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent atomic.Int64
			c := endless(t, tc.path, &sent)
			err := tc.call(context.Background(), c)
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Reason() != "WEBDRIVER_REPLY_TOO_LARGE" {
				t.Fatalf("want DEVICE_UNAVAILABLE WEBDRIVER_REPLY_TOO_LARGE, got %v", err)
			}
			mb := strconv.FormatInt(tc.limit>>20, 10) + " MB"
			for _, want := range []string{c.Endpoint(), tc.path, mb} {
				if !strings.Contains(ce.Message, want) {
					t.Errorf("message lacks %q: %s", want, ce.Message)
				}
			}
			if ce.Details["limitBytes"] != tc.limit {
				t.Errorf("details.limitBytes = %v, want %d", ce.Details["limitBytes"], tc.limit)
			}
			// Give the handler a moment to see the closed connection.
			time.Sleep(100 * time.Millisecond)
			if got := sent.Load(); got > tc.limit+16<<20 {
				t.Errorf("the server sent %d bytes: the client kept reading past the %d cap", got, tc.limit)
			}
		})
	}
}

// TestDeclaredTooLargeReplyIsRefusedUnread: a Content-Length over the cap
// fails before the body is read.
func TestDeclaredTooLargeReplyIsRefusedUnread(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(17<<20))
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, `{"value":{"ready":true}}`) // far less than declared
	}))
	defer srv.Close()
	c := webdriver.NewClient(srv.URL, webdriver.ClientOptions{Retries: -1})
	_, _, err := c.Status(context.Background())
	if ce, ok := canonical.AsError(err); !ok || ce.Reason() != "WEBDRIVER_REPLY_TOO_LARGE" {
		t.Fatalf("want WEBDRIVER_REPLY_TOO_LARGE, got %v", err)
	}
}

// TestLargeScreenshotFits: a 4K-sized screenshot (20 MB of PNG, over the
// ordinary cap) still reads whole.
func TestLargeScreenshotFits(t *testing.T) {
	png := make([]byte, 20<<20)
	copy(png, "\x89PNG\r\n\x1a\n")
	b64 := base64.StdEncoding.EncodeToString(png)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/session" {
			fmt.Fprint(w, `{"value":{"sessionId":"s1","capabilities":{}}}`)
			return
		}
		fmt.Fprint(w, `{"value":"`+b64+`"}`)
	}))
	defer srv.Close()
	c := webdriver.NewClient(srv.URL, webdriver.ClientOptions{Retries: -1})
	if _, err := c.NewSession(context.Background(), map[string]any{}, 0); err != nil {
		t.Fatal(err)
	}
	got, err := c.Screenshot(context.Background())
	if err != nil || len(got) != len(png) {
		t.Fatalf("screenshot of %d bytes: got %d, %v", len(png), len(got), err)
	}
}
