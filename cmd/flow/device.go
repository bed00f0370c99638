package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/exec/webdriver"
)

// openDeviceState connects to the device --device names, restoring sim
// from a saved state file when one exists (stateFile "" starts fresh).
func openDeviceState(ctx context.Context, o testOptions, stateFile string, clock exec.Clock, events exec.EventLog) (exec.Device, error) {
	switch {
	case o.device == "web":
		return openWeb(ctx, o)
	case o.device == "sim" || strings.HasPrefix(o.device, "sim:"):
		platform, err := sim.PlatformFromID(o.device)
		if err != nil {
			return nil, err
		}
		var apps []*sim.App
		for _, file := range o.apps {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, canonical.Errorf(canonical.CodeInvalidArgs, "cannot read app model %s: %v", file, err).
					WithHint("--app takes a sim app model file (contracts §7)")
			}
			app, err := sim.LoadApp(file, data)
			if err != nil {
				return nil, err
			}
			apps = append(apps, app)
		}
		opts := sim.Options{Apps: apps, Platform: platform, Clock: clock, Events: events}
		if stateFile != "" {
			data, err := os.ReadFile(stateFile)
			if err == nil {
				dev, err := sim.Restore(data, opts)
				if err != nil {
					if ce, ok := canonical.AsError(err); ok {
						return nil, ce.WithHint("run flow sim reset (or delete " + stateFile + ") to start a fresh sim device")
					}
					return nil, err
				}
				return dev, nil
			}
		}
		return sim.New(opts), nil
	}
	return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "device %q is not available", o.device).
		WithHint("use --device sim (sim:android, sim:ios) or --device web (--webdriver-url for a remote endpoint); Android and iOS devices arrive with their adapters")
}

// openWeb starts a local headless Chromium, or connects to the remote
// endpoint, for one shard.
func openWeb(ctx context.Context, o testOptions) (exec.Device, error) {
	cfg := webdriver.Config{URL: o.webdriverURL}
	if o.capabilities != "" {
		caps, err := webdriver.ReadCapabilities(o.capabilities)
		if err != nil {
			return nil, err
		}
		cfg.Capabilities = caps
	}
	d, err := webdriver.Open(ctx, cfg)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return d, nil
}

// openShardDevices opens the web devices of every shard at once, since a
// browser session takes about a second to start; other devices are cheap
// and opened by the caller (nil entries).
func openShardDevices(ctx context.Context, o testOptions, n int) ([]exec.Device, error) {
	devs := make([]exec.Device, n)
	if o.device != "web" {
		return devs, nil
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			devs[i], errs[i] = openWeb(ctx, o)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err == nil {
			continue
		}
		for _, d := range devs {
			if c, ok := d.(exec.Closer); ok {
				_ = c.Close(context.WithoutCancel(ctx))
			}
		}
		return nil, err
	}
	return devs, nil
}

// clockFor is the run's clock: virtual on sim, the wall clock elsewhere.
func clockFor(device string) exec.Clock {
	if device == "sim" || strings.HasPrefix(device, "sim:") {
		return exec.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	}
	return exec.WallClock{}
}

// stateDir is where sim keeps its device state between invocations:
// FLOW_STATE_DIR, else .flow in the working folder, so every checkout (and
// every CI job) has its own device.
func stateDir(getenv func(string) string) string {
	if d := getenv("FLOW_STATE_DIR"); d != "" {
		return d
	}
	return ".flow"
}

func simStateFile(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "sim-state.json")
}

// saveSimState writes sim's state atomically after a run.
func saveSimState(dev exec.Device, file string) error {
	s, ok := dev.(*sim.Device)
	if !ok || file == "" {
		return nil
	}
	data, err := s.State()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "cannot save sim state: %v", err).
			WithHint("set FLOW_STATE_DIR to a writable folder")
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "cannot save sim state: %v", err).
			WithHint("set FLOW_STATE_DIR to a writable folder")
	}
	return os.Rename(tmp, file)
}
