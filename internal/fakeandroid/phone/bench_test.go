package phone

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/exec/android/adb"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
)

// The Android benchmarks run flow's device over the real adb server and
// the fake phone, on a virtual clock so a tap's 50 ms hold and sim's own
// costs take no time: they measure flow's side of the wire (client,
// adb server, forward, fake helper, sim), not a phone. Each reports p50
// and p99 of one operation.
//
//	go test -run '^$' -bench Android -benchtime 200x ./internal/fakeandroid/phone

func benchDevice(b *testing.B) (*android.Device, *adbtest.Device, android.Config) {
	b.Helper()
	fs := adbd.NewMemFS()
	p := New(Options{Files: fs, Clock: exec.NewVirtualClock(time.Unix(1_700_000_000, 0))})
	b.Cleanup(func() { p.Close() })
	d := adbtest.Start(b, p, adbd.Options{Props: p.Props(), FS: fs})
	apk := filepath.Join(b.TempDir(), "helper.apk")
	os.WriteFile(apk, []byte("helper"), 0o644)
	cfg := android.Config{Serial: d.Serial, ADB: adb.New(d.ServerAddr()), HelperAPK: apk, Installs: &android.InstallCache{}}
	dev, err := android.Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { dev.Close(context.Background()) })
	if err := dev.LaunchApp(context.Background(), exec.LaunchOptions{AppID: "com.example.shop", StopApp: true}); err != nil {
		b.Fatal(err)
	}
	return dev, d, cfg
}

// measure runs op b.N times and reports its p50 and p99.
func measure(b *testing.B, op func() error) {
	b.Helper()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	q := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

func BenchmarkAndroidHierarchy(b *testing.B) {
	dev, _, _ := benchDevice(b)
	measure(b, func() error { _, err := dev.Hierarchy(context.Background()); return err })
}

func BenchmarkAndroidTap(b *testing.B) {
	dev, _, _ := benchDevice(b)
	// The search field: tapping it changes nothing but focus.
	measure(b, func() error { return dev.Tap(context.Background(), canonical.Point{X: 540, Y: 320}) })
}

func BenchmarkAndroidSettledRead(b *testing.B) {
	dev, _, _ := benchDevice(b)
	measure(b, func() error { _, err := dev.ReadSettled(context.Background(), time.Second); return err })
}

// BenchmarkAndroidOpen opens the device again and again: the install
// check (version code, pm path, pull and checksum; the cache is per
// process, so each open here gets a fresh one) and a session start
// (instrument, ready block, forward, hello), then closes it.
func BenchmarkAndroidOpen(b *testing.B) {
	dev, _, cfg := benchDevice(b)
	dev.Close(context.Background())
	measure(b, func() error {
		cfg.Installs = &android.InstallCache{}
		d, err := android.Open(context.Background(), cfg)
		if err != nil {
			return err
		}
		return d.Close(context.Background())
	})
}
