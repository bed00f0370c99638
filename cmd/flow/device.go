package main

import (
	"os"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// openDevice connects to the device --device names. sim runs on a virtual
// clock, so waits cost no wall time; real devices use the wall clock.
func openDevice(o testOptions, clock exec.Clock, events exec.EventLog) (exec.Device, error) {
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
		return sim.New(sim.Options{Apps: apps, Platform: platform, Clock: clock, Events: events}), nil
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
