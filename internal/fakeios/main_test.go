package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCommand builds and starts the command as a user would, waits for
// its ready line and asks the runner its status.
func TestCommand(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fakeios")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--listen", "127.0.0.1:0", "--iphone", "--alert", "com.example.shop|Allow “Shop” to use your location?||Don’t Allow,Allow Once")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if err != nil || !ok {
		t.Fatalf("want a ready line, got %q %v", line, err)
	}
	resp, err := http.Post("http://"+addr+"/command", "application/json", bytes.NewReader([]byte(`{"command":"status","commandId":1}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var ans struct {
		OK   bool
		Data struct {
			Protocol  string
			Simulator bool
		}
	}
	if json.Unmarshal(body, &ans) != nil || !ans.OK || ans.Data.Protocol != "flow-runner-v1" || ans.Data.Simulator {
		t.Fatalf("status of an --iphone runner: %s", body)
	}
	// --alert: the shop's first launch raises the declared alert, which
	// the hierarchy then carries.
	for i, req := range []string{`{"command":"launch","commandId":2,"appId":"com.example.shop","arguments":{},"stop":true}`,
		`{"command":"hierarchy","commandId":3,"appIds":["com.example.shop"],"maxDepth":60}`} {
		resp, err := http.Post("http://"+addr+"/command", "application/json", bytes.NewReader([]byte(req)))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if i == 1 && (!bytes.Contains(body, []byte(`"type":"alert"`)) || !bytes.Contains(body, []byte(`"label":"Allow Once"`))) {
			t.Fatalf("the declared alert is not in the hierarchy: %s", body)
		}
	}
}
