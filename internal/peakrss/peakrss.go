//go:build unix

package peakrss

import (
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// fileEnv names the file the launcher writes the peak to; its presence
// makes a test binary a launcher.
const fileEnv = "FLOW_TEST_PEAKRSS_FILE"

// Probe reads the peak of one wrapped command after it has ended.
type Probe struct{ file string }

// Wrap makes cmd report its own peak. cmd must start a test binary whose
// TestMain calls Launch first (directly or through a shell that execs it);
// cmd.Env is taken from the process when unset.
func Wrap(cmd *osexec.Cmd, dir string) *Probe {
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	p := &Probe{file: filepath.Join(dir, fmt.Sprintf("peakrss-%p", cmd))}
	cmd.Env = append(cmd.Env, fileEnv+"="+p.file)
	return p
}

// Bytes is the command's peak resident memory.
func (p *Probe) Bytes() (int64, error) {
	b, err := os.ReadFile(p.file)
	if err != nil {
		return 0, fmt.Errorf("the launcher wrote no peak (does TestMain call peakrss.Launch?): %w", err)
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// Launch runs this process's own command line as a child when the process
// was started by a wrapped command, forwarding SIGINT and SIGTERM to it,
// and returns its exit status with ok set; TestMain then exits with it.
// Otherwise it returns ok false at once.
func Launch() (code int, ok bool) {
	file := os.Getenv(fileEnv)
	if file == "" {
		return 0, false
	}
	cmd := osexec.Command(os.Args[0], os.Args[1:]...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, fileEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss launcher:", err)
		return 125, true
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	signal.Stop(sigs)
	var exit *osexec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "peakrss launcher:", err)
		return 125, true
	}
	if ru, isRU := cmd.ProcessState.SysUsage().(*syscall.Rusage); isRU {
		// ru_maxrss is in KiB on Linux, bytes on macOS.
		peak := int64(ru.Maxrss)
		if !isDarwin() {
			peak <<= 10
		}
		if werr := os.WriteFile(file, []byte(strconv.FormatInt(peak, 10)), 0o644); werr != nil {
			fmt.Fprintln(os.Stderr, "peakrss launcher:", werr)
			return 125, true
		}
	}
	if ws, isWS := cmd.ProcessState.Sys().(syscall.WaitStatus); isWS && ws.Signaled() {
		return 128 + int(ws.Signal()), true
	}
	return cmd.ProcessState.ExitCode(), true
}
