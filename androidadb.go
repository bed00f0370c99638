package flow

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/exec/android/adb"
)

// realADB is the adb server at ANDROID_ADB_SERVER_PORT (else 5037).
type realADB struct {
	c        *adb.Client
	installs *android.InstallCache
}

// dialADB reaches the real adb server, starting it when nothing listens on its port and
// adb is on PATH, as Maestro does.
func dialADB(ctx context.Context, env Env) (androidHost, error) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	addr, err := adb.ServerAddr(getenv)
	if err != nil {
		return nil, err
	}
	c := adb.New(addr)
	lookPath := env.LookPath
	if lookPath == nil {
		lookPath = func(string) (string, error) { return "", errNoLookPath }
	}
	if err := c.EnsureServer(ctx, lookPath); err != nil {
		return nil, err
	}
	return &realADB{c: c, installs: &android.InstallCache{}}, nil
}

type noLookPath struct{}

func (noLookPath) Error() string { return "looking programs up on PATH is off" }

var errNoLookPath error = noLookPath{}

func (h *realADB) Addr() string { return h.c.Addr() }

func (h *realADB) Devices(ctx context.Context) ([]adbDevice, error) {
	entries, err := h.c.Devices(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]adbDevice, len(entries))
	for i, e := range entries {
		out[i] = adbDevice{Serial: e.Serial, State: e.State, Model: strings.ReplaceAll(e.Model, "_", " ")}
	}
	return out, nil
}

func (h *realADB) APILevel(ctx context.Context, serial string) (string, error) {
	res, err := h.c.Shell(ctx, serial, "getprop", "ro.build.version.sdk")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(res.Stdout)), nil
}

func (h *realADB) Open(ctx context.Context, o androidOpen) (exec.Device, error) {
	d, err := android.Open(ctx, android.Config{Serial: o.Serial, ADB: h.c, HelperAPK: o.Helper.Path, HelperData: o.Helper.APK, Installs: h.installs,
		Command: o.Command, ReadyTimeout: o.ReadyTimeout, Warn: o.Warn})
	if err != nil {
		return nil, err
	}
	return d, nil
}
