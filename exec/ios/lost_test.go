package ios

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// scriptedRunner answers status as a simulator runner and every other
// command with answer(command); answer returning nil leaves the request
// unanswered until the client gives up. It counts the commands received
// after status.
type scriptedRunner struct {
	mu       sync.Mutex
	received []string
	answer   func(command string) map[string]any
}

func (s *scriptedRunner) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Command   string `json:"command"`
		CommandID int    `json:"commandId"`
	}
	json.NewDecoder(r.Body).Decode(&b)
	if b.Command == "status" {
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "commandId": b.CommandID, "data": map[string]any{"protocol": RunnerProtocol, "simulator": true}})
		return
	}
	s.mu.Lock()
	s.received = append(s.received, b.Command)
	s.mu.Unlock()
	ans := s.answer(b.Command)
	if ans == nil {
		<-r.Context().Done()
		return
	}
	ans["commandId"] = b.CommandID
	json.NewEncoder(w).Encode(ans)
}

func (s *scriptedRunner) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.received)
}

func attachScripted(t *testing.T, answer func(command string) map[string]any) (*Device, *scriptedRunner, *httptest.Server) {
	t.Helper()
	s := &scriptedRunner{answer: answer}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	d, err := Attach(context.Background(), Config{URL: srv.URL, Name: "sim-1"})
	if err != nil {
		t.Fatal(err)
	}
	return d, s, srv
}

// TestRunnerThatStopsAnsweringIsLost: a command the runner does not answer
// in time is DEVICE_UNAVAILABLE (which optional: does not excuse), never
// TIMEOUT; so is a connection refused once the session runs. From then on
// the runner is lost: every later command fails at once with the same
// cause and nothing more is sent to it, so a flow's failure artifacts,
// hooks and cleanup do not each wait out a timeout.
func TestRunnerThatStopsAnsweringIsLost(t *testing.T) {
	ok := map[string]any{"ok": true, "data": map[string]any{"x": 0, "y": 0, "w": 390, "h": 844}}
	t.Run("no answer", func(t *testing.T) {
		d, s, _ := attachScripted(t, func(command string) map[string]any {
			if command == "hierarchy" {
				return nil
			}
			return ok
		})
		if _, err := d.Viewport(context.Background()); err != nil {
			t.Fatal(err)
		}
		err := d.c.call(context.Background(), "hierarchy", nil, 300*time.Millisecond, nil)
		ce, isCoded := canonical.AsError(err)
		if !isCoded || ce.Code != canonical.CodeDeviceUnavailable || ce.Details["reason"] != "RUNNER_TIMEOUT" || ce.Hint == "" {
			t.Fatalf("want DEVICE_UNAVAILABLE (RUNNER_TIMEOUT) with a hint, got %v", err)
		}
		sent := s.count()
		start := time.Now()
		_, err = d.Viewport(context.Background())
		if canonical.CodeOf(err) != canonical.CodeDeviceUnavailable || !errors.Is(err, ce) {
			t.Fatalf("a command after the loss must fail with it: %v", err)
		}
		if err := d.Tap(context.Background(), canonical.Point{X: 1, Y: 1}); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
			t.Fatalf("tap after the loss: %v", err)
		}
		if s.count() != sent || time.Since(start) > 5*time.Second {
			t.Fatalf("flow sent %d more commands to a lost runner (in %s)", s.count()-sent, time.Since(start))
		}
	})
	t.Run("refused", func(t *testing.T) {
		d, s, srv := attachScripted(t, func(string) map[string]any { return ok })
		srv.Close()
		_, err := d.Viewport(context.Background())
		if ce, isCoded := canonical.AsError(err); !isCoded || ce.Code != canonical.CodeDeviceUnavailable || ce.Hint == "" {
			t.Fatalf("want DEVICE_UNAVAILABLE with a hint: %v", err)
		}
		if _, err := d.Hierarchy(context.Background()); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable || s.count() != 0 {
			t.Fatalf("after the loss: %v, %d sent", err, s.count())
		}
	})
	t.Run("interrupted is not lost", func(t *testing.T) {
		hang := true
		var mu sync.Mutex
		d, s, _ := attachScripted(t, func(string) map[string]any {
			mu.Lock()
			defer mu.Unlock()
			if hang {
				hang = false
				return nil
			}
			return ok
		})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		if _, err := d.Viewport(ctx); canonical.CodeOf(err) != canonical.CodeInterrupted {
			t.Fatalf("Ctrl-C during a command: want INTERRUPTED, got %v", err)
		}
		if _, err := d.Viewport(context.Background()); err != nil || s.count() != 2 {
			t.Fatalf("an interrupted command does not lose the runner: %v (%d sent)", err, s.count())
		}
	})
}

// TestRunnerBrokenAnswersAreDeviceFailures: answers in the protocol's
// shape that no working runner gives are the device's failure
// (DEVICE_UNAVAILABLE, exit 3), not the flow's: a refusal coded
// INVALID_ARGS (flow checked the request before sending it), and frames
// or viewports with numbers no screen has, which used to reach the
// runtime and fail a tap or a gesture as invalid input or a miss.
func TestRunnerBrokenAnswersAreDeviceFailures(t *testing.T) {
	elem := func(f map[string]any) map[string]any {
		return map[string]any{"type": "application", "frame": map[string]any{"x": 0, "y": 0, "w": 390, "h": 844},
			"children": []any{map[string]any{"type": "button", "title": "Log in", "frame": f}}}
	}
	for name, tc := range map[string]struct {
		answer map[string]any
		call   func(d *Device) error
	}{
		"INVALID_ARGS refusal": {map[string]any{"ok": false, "error": map[string]any{"code": "INVALID_ARGS", "message": `tap: missing required field "x"`}},
			func(d *Device) error { return d.Tap(context.Background(), canonical.Point{X: 10, Y: 10}) }},
		"huge element frame": {map[string]any{"ok": true, "data": map[string]any{"root": elem(map[string]any{"x": 1e308, "y": 10, "w": 100, "h": 40})}},
			func(d *Device) error { _, err := d.Hierarchy(context.Background()); return err }},
		"huge settled frame": {map[string]any{"ok": true, "data": map[string]any{"still": true, "version": "v", "root": elem(map[string]any{"x": 10, "y": 10, "w": 1e308, "h": -1e300})}},
			func(d *Device) error { _, err := d.ReadSettled(context.Background(), time.Second); return err }},
		"huge viewport": {map[string]any{"ok": true, "data": map[string]any{"x": 0, "y": 0, "w": 1e308, "h": 844}},
			func(d *Device) error { _, err := d.Viewport(context.Background()); return err }},
		"negative viewport": {map[string]any{"ok": true, "data": map[string]any{"x": -1e20, "y": 0, "w": 390, "h": 844}},
			func(d *Device) error { _, err := d.Viewport(context.Background()); return err }},
	} {
		t.Run(name, func(t *testing.T) {
			d, _, _ := attachScripted(t, func(string) map[string]any {
				b, _ := json.Marshal(tc.answer)
				var fresh map[string]any
				json.Unmarshal(b, &fresh)
				return fresh
			})
			err := tc.call(d)
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Hint == "" || ce.Details["device"] != "sim-1" {
				t.Fatalf("want DEVICE_UNAVAILABLE naming the device, with a hint; got %v", err)
			}
		})
	}
}
