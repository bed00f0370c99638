package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// twoFakePhones serves two fake phones through one real adb server of
// the test's own, and returns flow's environment for it and a helper APK
// the phones accept.
func twoFakePhones(tb testing.TB) (first, second *adbtest.Device, getenv func(string) string, helper string) {
	tb.Helper()
	var phones []*phone.Phone
	var fss []*adbd.MemFS
	for range 2 {
		fs := adbd.NewMemFS()
		p := phone.New(phone.Options{Files: fs})
		tb.Cleanup(func() { p.Close() })
		phones, fss = append(phones, p), append(fss, fs)
	}
	first = adbtest.Start(tb, phones[0], adbd.Options{Props: phones[0].Props(), FS: fss[0]})
	second = first.Add(tb, phones[1], adbd.Options{Props: phones[1].Props(), FS: fss[1]})
	helper = filepath.Join(tb.TempDir(), "flow-helper.apk")
	os.WriteFile(helper, []byte("a helper the fake phones accept"), 0o644)
	return first, second, first.Getenv, helper
}

// runOnPhones runs flow test with args on the phones, failing tb unless
// it exits 0.
func runOnPhones(tb testing.TB, getenv func(string) string, args ...string) string {
	tb.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if code := run(ctx, env, append([]string{"flow", "test"}, args...)); code != 0 {
		tb.Fatalf("exit %d\n%s%s", code, &out, &errb)
	}
	return out.String()
}

// TestParallelOnTwoFakePhones: --parallel 2 on two fake phones behind
// the real adb server runs six flows of uneven length from one queue:
// every flow once, passed, in input order, on both phones; and
// --device android:A,android:B --parallel picks exactly those phones.
func TestParallelOnTwoFakePhones(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flows on a wall clock")
	}
	first, second, getenv, helper := twoFakePhones(t)
	files := unevenSuite(t, 2)
	for name, device := range map[string][]string{
		"count": {"--device", "android", "--parallel", "2"},
		"list":  {"--device", "android:" + first.Serial + ",android:" + second.Serial, "--parallel"},
	} {
		t.Run(name, func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.json")
			runOnPhones(t, getenv, append(append(append([]string{}, files...), device...), "--android-helper", helper, "--output", report)...)
			got := parallelReport(t, report)
			if len(got) != 6 {
				t.Fatalf("want six flows, got %q", got)
			}
			used := map[string]bool{}
			for i, line := range got {
				if !strings.HasPrefix(line, fmt.Sprintf("flow %d passed ", i+1)) {
					t.Errorf("flow %d: %q, want it passed in input order", i+1, line)
				}
				used[line[strings.LastIndex(line, " ")+1:]] = true
			}
			if len(used) != 2 {
				t.Errorf("want both phones used, got %q", got)
			}
		})
	}
}

// BenchmarkParallelVsShardSplit runs six flows of uneven length (the odd
// ones swipe four times, 300 ms each; the even ones only launch) on two
// fake phones behind the real adb server, with --parallel 2 and with
// --shard-split 2. Round robin gives one phone every long flow; the
// queue lets the other take flows while it swipes. docs/performance.md
// records the figures.
//
//	go test ./cmd/flow -run '^$' -bench ParallelVsShardSplit -benchtime 3x
func BenchmarkParallelVsShardSplit(b *testing.B) {
	_, _, getenv, helper := twoFakePhones(b)
	files := unevenSuite(b, 4)
	for _, mode := range []struct{ name, flag string }{{"parallel", "--parallel"}, {"shard-split", "--shard-split"}} {
		b.Run(mode.name, func(b *testing.B) {
			report := filepath.Join(b.TempDir(), "report.json")
			for b.Loop() {
				out := runOnPhones(b, getenv, append(append([]string{}, files...), "--device", "android", mode.flag, "2",
					"--android-helper", helper, "--output", report)...)
				if !strings.Contains(out, "6 passed, 0 failed") {
					b.Fatalf("want the six flows passed once each:\n%s", out)
				}
			}
		})
	}
}
