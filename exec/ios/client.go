package ios

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// RunnerProtocol names the wire the runner speaks (ios-runner/PROTOCOL.md).
const RunnerProtocol = "flow-runner-v1"

// maxAnswer bounds a runner answer: a screenshot of the largest iPad as
// base64, with room to spare.
const maxAnswer = 64 << 20

// defaultCommandTimeout bounds a command other than a gesture (whose
// bound is its duration plus slack).
const defaultCommandTimeout = 30 * time.Second

// client sends flow-runner-v1 commands to one runner.
type client struct {
	url    string // base URL, without /command
	name   string // the device, for messages
	http   *http.Client
	mu     sync.Mutex
	nextID int
	// lost is the failure of the request the runner did not answer (no
	// answer in time, a connection refused or broken): the runner is gone
	// or wedged, and every later command fails with it at once instead of
	// waiting out its own timeout.
	lost *canonical.Error
}

func newClient(baseURL, name string) *client {
	return &client{url: strings.TrimRight(baseURL, "/"), name: name,
		http: &http.Client{Transport: &http.Transport{DisableKeepAlives: true, MaxResponseHeaderBytes: 64 << 10}}}
}

// runnerAnswer is the envelope of every answer.
type runnerAnswer struct {
	OK        *bool           `json:"ok"`
	CommandID int             `json:"commandId"`
	Data      json.RawMessage `json:"data"`
	Error     *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Hint    string `json:"hint"`
	} `json:"error"`
}

// call sends one command with its fields and decodes data into out.
func (c *client) call(ctx context.Context, command string, fields map[string]any, timeout time.Duration, out any) error {
	c.mu.Lock()
	lost := c.lost
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	if lost != nil {
		return canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner of %s stopped answering; flow sent it no %s", c.name, command).
			Wrap(lost).With("device", c.name).With("command", command).With("reason", lost.Details["reason"]).WithHint(lost.Hint)
	}
	body := map[string]any{"command": command, "commandId": id}
	for k, v := range fields {
		body[k] = v
	}
	data, err := json.Marshal(body)
	if err != nil {
		return canonical.Errorf(canonical.CodeInternal, "cannot encode the runner command %s: %v", command, err).Wrap(err)
	}
	if timeout <= 0 {
		timeout = defaultCommandTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, c.url+"/command", bytes.NewReader(data))
	if err != nil {
		return c.broken(command, fmt.Errorf("bad runner URL %q: %w", c.url, err))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Close = true
	resp, err := c.http.Do(req)
	if err != nil {
		return c.unanswered(ctx, cctx, command, timeout, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return c.unanswered(ctx, cctx, command, timeout, err)
	}
	if len(raw) > maxAnswer {
		return c.broken(command, fmt.Errorf("an answer over %d bytes", maxAnswer))
	}
	if resp.StatusCode != http.StatusOK {
		return c.broken(command, fmt.Errorf("HTTP %d: %s", resp.StatusCode, clip(raw, 200)))
	}
	var ans runnerAnswer
	if err := json.Unmarshal(raw, &ans); err != nil || ans.OK == nil {
		return c.broken(command, fmt.Errorf("an answer that is not flow-runner-v1: %s", clip(raw, 200)))
	}
	if ans.CommandID != id {
		return c.broken(command, fmt.Errorf("the runner answered command %d, not %d", ans.CommandID, id))
	}
	if !*ans.OK {
		if ans.Error == nil {
			return c.broken(command, fmt.Errorf("a failure without an error: %s", clip(raw, 200)))
		}
		code := canonical.Code(ans.Error.Code)
		if code == canonical.CodeInvalidArgs {
			// flow checks every request before sending it (a flow's bad
			// input fails there, exit 2); a runner that still calls one
			// invalid speaks another protocol than this flow: the device
			// is broken for this flow, not the flow's input.
			return canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner of %s refused flow's %s request as invalid: %s", c.name, command, ans.Error.Message).
				With("device", c.name).With("command", command).With("reason", "RUNNER_REFUSED_REQUEST").With("runnerCode", ans.Error.Code).
				WithHint("the runner was built from another version of flow; rebuild it from this one (flow ios runner build) and start it again")
		}
		switch code {
		case canonical.CodeInvalidArgs, canonical.CodeCommandFailed, canonical.CodeUnsupportedOperation, canonical.CodeTimeout,
			canonical.CodeElementNotFound, canonical.CodeDeviceUnavailable, canonical.CodeInternal:
		default:
			code = canonical.CodeInternal
		}
		e := canonical.NewError(code, ans.Error.Message).With("device", c.name).With("command", command)
		if ans.Error.Hint != "" {
			e = e.WithHint(ans.Error.Hint)
		}
		return e
	}
	if out != nil && len(ans.Data) > 0 {
		if err := json.Unmarshal(ans.Data, out); err != nil {
			return c.broken(command, fmt.Errorf("the %s answer does not fit the protocol: %v", command, err))
		}
	}
	return nil
}

// unanswered is the error of a request the runner did not answer: the
// run's own interruption, or a lost device. A runner that does not answer
// in time is lost as surely as one whose connection broke, whatever the
// command (the runner answers every command it can run, failures
// included, well within its bound), so it is DEVICE_UNAVAILABLE, which
// optional: does not excuse; no later command is sent to it.
func (c *client) unanswered(ctx, cctx context.Context, command string, timeout time.Duration, cause error) error {
	if ctx.Err() != nil {
		return canonical.Interrupted(ctx.Err()).With("device", c.name)
	}
	var e *canonical.Error
	if errors.Is(cctx.Err(), context.DeadlineExceeded) {
		e = canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner of %s did not answer %s within %v", c.name, command, timeout).
			Wrap(cause).With("device", c.name).With("command", command).With("reason", "RUNNER_TIMEOUT").
			WithHint("the runner, the device or the link to it hangs (a wedged XCTest, a frozen simulator, an iPhone that went away); flow stops using it: check the device and the runner's log (xcodebuild's output), then run again")
	} else {
		e = c.broken(command, cause).With("reason", "RUNNER_UNREACHABLE")
	}
	c.mu.Lock()
	if c.lost == nil {
		c.lost = e
	}
	c.mu.Unlock()
	return e
}

// badAnswer is an answer in the protocol's shape whose values no device
// has (a frame of 1e308 points): the runner is broken, and planning or
// tapping with such numbers would only fail later as the flow's fault.
func (c *client) badAnswer(command string, cause error) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner of %s answered %s with %v", c.name, command, cause).
		Wrap(cause).With("device", c.name).With("command", command).With("reason", "RUNNER_BAD_ANSWER").
		WithHint("the runner is broken or not flow's; rebuild it from this flow (flow ios runner build), start it again and look at its log (xcodebuild's output)")
}

func (c *client) broken(command string, cause error) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner of %s failed during %s: %v", c.name, command, cause).
		Wrap(cause).With("device", c.name).With("command", command).
		WithHint("the runner stopped or the connection broke; check the device and the runner's log (xcodebuild's output), then run again")
}

func clip(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
