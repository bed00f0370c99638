package ios

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// A runner that answers every command ok and keeps what it was sent; it
// refuses an erase over its bound as the runner does (FlowRunnerCore
// Protocol.swift maxEraseCount, PROTOCOL.md "Bounds").
func boundedRunner(t *testing.T) (string, func() []map[string]any) {
	t.Helper()
	var mu sync.Mutex
	var sent []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		mu.Lock()
		sent = append(sent, body)
		mu.Unlock()
		id := body["commandId"]
		if body["command"] == "status" {
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "commandId": id, "data": map[string]any{"protocol": "flow-runner-v1", "version": "1.0", "uptimeMs": 1, "simulator": true}})
			return
		}
		if c, ok := body["count"].(float64); ok && (c < 0 || c > 500) {
			json.NewEncoder(w).Encode(map[string]any{"ok": false, "commandId": id, "error": map[string]any{"code": "INVALID_ARGS",
				"message": "erase: field \"count\" must be between 0 and 500 characters"}})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "commandId": id, "data": map[string]any{}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return append([]map[string]any(nil), sent...)
	}
}

// R14: a long eraseText goes as several requests within the runner's
// bound, instead of one the runner refuses (which the client would take
// for a broken runner, exit 3).
func TestEraseTextStaysWithinTheRunnersBound(t *testing.T) {
	url, sent := boundedRunner(t)
	ctx := context.Background()
	d, err := Attach(ctx, Config{URL: url, Name: "sim-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		count int
		want  []float64
	}{{1234, []float64{500, 500, 234}}, {500, []float64{500}}, {50, []float64{50}}, {0, []float64{0}}} {
		before := len(sent())
		if err := d.EraseText(ctx, c.count); err != nil {
			t.Fatalf("erase %d: %v", c.count, err)
		}
		var got []float64
		for _, b := range sent()[before:] {
			if b["command"] != "erase" {
				t.Fatalf("erase %d sent %v", c.count, b)
			}
			got = append(got, b["count"].(float64))
		}
		if len(got) != len(c.want) {
			t.Fatalf("erase %d sent counts %v, want %v", c.count, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("erase %d sent counts %v, want %v", c.count, got, c.want)
			}
		}
	}
}

// The runner types at 30 keys a second after a 0.5 s pause: a request's
// bound grows with what it types, so a long text is not taken for a hung
// runner.
func TestTypingTimeFollowsTheRunnersPace(t *testing.T) {
	if typingTime(0) != 0 {
		t.Errorf("typingTime(0) = %v", typingTime(0))
	}
	if got, want := typingTime(30), 1500*time.Millisecond; got != want {
		t.Errorf("typingTime(30) = %v, want %v", got, want)
	}
	if got := typingTime(maxErase); got+defaultCommandTimeout < 17*time.Second+defaultCommandTimeout || got > 18*time.Second {
		t.Errorf("typingTime(%d) = %v: one erase request should take about 17 s", maxErase, got)
	}
}
