package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
)

// TestCommand builds and starts the command as a user would, waits for
// its ready line, and reaches the phone through a real adb server.
func TestCommand(t *testing.T) {
	adbtest.RequireADB(t)
	bin := filepath.Join(t.TempDir(), "fakeandroid")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	events := filepath.Join(t.TempDir(), "events.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--listen", "127.0.0.1:0", "--events", events)
	stdout, _ := cmd.StdoutPipe()
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if err != nil || !ok {
		t.Fatalf("want a ready line, got %q %v", line, err)
	}
	d := adbtest.Connect(t, addr)
	out, err := d.ADBCommand(ctx, "shell", "wm", "size").Output()
	if err != nil || !strings.HasPrefix(string(out), "Physical size: ") {
		t.Fatalf("wm size: %q %v", out, err)
	}
	out, err = d.ADBCommand(ctx, "shell", "am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", "shop://cart").CombinedOutput()
	if err != nil {
		t.Fatalf("am start: %v\n%s", err, out)
	}
	if _, err := d.ADBCommand(ctx, "shell", "input", "tap", "1", "2").Output(); err == nil {
		t.Fatal("input must fail on the fake: flow never uses it")
	}

	// adb install streams the APK (cmd package install -S SIZE); the
	// phone's log names the size and sha256 of the bytes it received.
	apk := filepath.Join(t.TempDir(), "some.apk")
	data := []byte("an APK's bytes, as the phone must receive them")
	if err := os.WriteFile(apk, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := d.ADBCommand(ctx, "install", apk).CombinedOutput(); err != nil || !strings.Contains(string(out), "Success") {
		t.Fatalf("adb install: %v\n%s", err, out)
	}
	sum := sha256.Sum256(data)
	logged, _ := os.ReadFile(stderr.Name())
	if want := fmt.Sprintf("installed dev.flow.helper: %d bytes, sha256 %x\n", len(data), sum); !strings.Contains(string(logged), want) {
		t.Fatalf("the install log does not say %q:\n%s", want, logged)
	}
}
