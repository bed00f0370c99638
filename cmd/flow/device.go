package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// openDevice connects to the device --device names. sim runs on a virtual
// clock, so waits cost no wall time; real devices use the wall clock.
func openDevice(o testOptions, clock exec.Clock, events exec.EventLog) (exec.Device, error) {
	return openDeviceState(o, "", clock, events)
}

// openDeviceState is openDevice that restores sim from a saved state file
// when one exists (stateFile "" starts fresh).
func openDeviceState(o testOptions, stateFile string, clock exec.Clock, events exec.EventLog) (exec.Device, error) {
	switch {
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
		WithHint("this build runs flows on --device sim; Android, iOS and WebDriver devices arrive with their adapters")
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
