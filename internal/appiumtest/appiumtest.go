// Package appiumtest starts a real Appium 3 server (npm appium@3.8.0)
// with Appium's fake driver (@appium/fake-driver@6.2.4), pinned with their
// whole tree in npm/package-lock.json, for the tests of exec/appium and
// cmd/flow. The fake driver serves the app file a session names as its
// page source, records every POST /actions under the log type "actions",
// and implements no `mobile:` extension: the tests see the exact actions
// flow sent and how flow meets a driver without an extension.
//
// FLOW_APPIUM_DIR names the folder `npm ci` installed them into (it is
// also APPIUM_HOME, where Appium finds the driver). Tests skip without
// it, and fail instead under FLOW_REQUIRE_APPIUM=1, which .ci/run sets.
package appiumtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Require is the variable that turns a missing Appium into a failure.
const Require = "FLOW_REQUIRE_APPIUM"

// Server is a running Appium server of the test process's own.
type Server struct {
	// URL is the server's base URL (Appium 3 serves at /).
	URL string
	cmd *exec.Cmd
	log *bytes.Buffer
	mu  sync.Mutex
}

// Find returns the Appium folder, or why there is none.
func Find() (string, error) {
	dir := os.Getenv("FLOW_APPIUM_DIR")
	if dir == "" {
		return "", fmt.Errorf("FLOW_APPIUM_DIR is not set: install the test server with `npm ci` in a copy of internal/appiumtest/npm and point FLOW_APPIUM_DIR at it, as .ci/run does")
	}
	for _, f := range []string{"node_modules/appium/index.js", "node_modules/@appium/fake-driver/package.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return "", fmt.Errorf("FLOW_APPIUM_DIR=%s has no %s: run npm ci there with internal/appiumtest/npm's package files", dir, f)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node is not on PATH")
	}
	return dir, nil
}

// Skip skips the test for a missing Appium, or fails it under
// FLOW_REQUIRE_APPIUM=1.
func Skip(t testing.TB, err error) {
	t.Helper()
	if os.Getenv(Require) == "1" {
		t.Fatalf("%v (%s=1)", err, Require)
	}
	t.Skip(err)
}

// Start starts a server on a free loopback port and waits until it
// answers /status ready (at most a minute). Stop ends it.
func Start(ctx context.Context) (*Server, error) {
	dir, err := Find()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://127.0.0.1:" + strconv.Itoa(port), log: &bytes.Buffer{}}
	s.cmd = exec.Command("node", filepath.Join(dir, "node_modules/appium/index.js"), "server",
		"--address", "127.0.0.1", "--port", strconv.Itoa(port), "--log-level", "warn", "--log-no-colors")
	s.cmd.Env = append(os.Environ(), "APPIUM_HOME="+dir)
	s.cmd.Stdout, s.cmd.Stderr = (*lockedWriter)(s), (*lockedWriter)(s)
	s.cmd.SysProcAttr = procAttr()
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting Appium: %w", err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if ready(ctx, s.URL) {
			return s, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.Stop()
			return nil, fmt.Errorf("Appium did not become ready at %s within a minute:\n%s", s.URL, s.Log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lockedWriter collects the server's output for failure messages.
type lockedWriter Server

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log.Write(p)
}

// Log is what the server printed (warnings and errors).
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// Stop ends the server and its children.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		kill(s.cmd)
		_ = s.cmd.Wait()
	}
}

func ready(ctx context.Context, base string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/status", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var v struct {
		Value struct {
			Ready bool `json:"ready"`
		} `json:"value"`
	}
	return json.NewDecoder(resp.Body).Decode(&v) == nil && v.Value.Ready
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Shared starts one server for a test binary on first use: Appium takes
// a few seconds to start, and sessions on one server do not share state.
// TestMain calls Stop on what it returns at the end.
type Shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Get is the shared server, started on the first call.
func (sh *Shared) Get(t testing.TB) *Server {
	t.Helper()
	sh.once.Do(func() {
		if _, err := Find(); err != nil {
			sh.err = err
			return
		}
		sh.srv, sh.err = Start(context.Background())
	})
	if sh.err != nil {
		if sh.srv == nil {
			if _, ferr := Find(); ferr != nil {
				Skip(t, ferr)
			}
		}
		t.Fatal(sh.err)
	}
	return sh.srv
}

// Stop ends the shared server, if one started.
func (sh *Shared) Stop() {
	if sh.srv != nil {
		sh.srv.Stop()
	}
}
