//go:build linux

package main

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flow-runner/flow/internal/peakrss"
	"github.com/flow-runner/flow/maestro"
)

// TestCheckMemoryIsBounded runs flow check, as its own process, on the
// worst .ad scripts (one line of millions of words, one long value, many
// lines) and Maestro flows (many commands) just under the file size limit,
// and on 10 MB ones, which the limit refuses, and checks each process's
// peak resident memory stays under 1 GB. docs/performance.md ("Loading")
// records the figures.
func TestCheckMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("checks about 60 MB of scripts in child processes")
	}
	if raceDetector {
		t.Skip("absolute memory bounds do not hold for a -race binary; the plain go test ./... run checks them")
	}
	under := maestro.MaxFileSize - 1024
	cases := map[string]string{
		"long-words.ad":  "type " + strings.Repeat("a ", under/2-4) + "\n",
		"long-quoted.ad": "type \"" + strings.Repeat("a", under-10) + "\"\n",
		"many-lines.ad":  strings.Repeat("click 100 200\n", under/14),
		"many-taps.yaml": func() string {
			var b strings.Builder
			b.WriteString("appId: com.example.app\n---\n")
			for i := 0; b.Len() < under-30; i++ {
				b.WriteString("- tapOn: \"B" + strconv.Itoa(i) + "\"\n")
			}
			return b.String()
		}(),
		"10MB.ad":   strings.Repeat("click 100 200\n", (10<<20)/14),
		"10MB.yaml": "appId: com.example.app\n---\n" + strings.Repeat("- back\n", (10<<20)/7),
	}
	dir := t.TempDir()
	for name, text := range cases {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := osexec.Command(os.Args[0], "check", filepath.Join(dir, name))
			cmd.Env = append(os.Environ(), asCLIEnv+"=1")
			peak := peakrss.Wrap(cmd, t.TempDir())
			out, err := cmd.CombinedOutput()
			code := cmd.ProcessState.ExitCode()
			refused := strings.Contains(name, "10MB")
			if (refused && (code != 2 || !strings.Contains(string(out), "; the limit is 5 MiB"))) || (!refused && err != nil) {
				t.Fatalf("exit %d:\n%.2000s", code, out)
			}
			rss, perr := peak.Bytes()
			if perr != nil {
				t.Fatal(perr)
			}
			t.Logf("%-15s peak RSS %4d MB: %.200s", name, rss>>20, strings.TrimSpace(lastLine(string(out))))
			if rss >= 1<<30 {
				t.Errorf("peak RSS %d MB, want under 1 GB", rss>>20)
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
