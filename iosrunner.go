package flow

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/ios"
	iosrunner "github.com/flow-runner/flow/ios-runner"
)

// IOSRunnerBuildConfig builds with xcrun in flow's environment, logging to
// stderr; XDG_CACHE_HOME moves the cache as it moves the user's.
func IOSRunnerBuildConfig(env Env, xcrun string, iphone bool, team string) iosrunner.BuildConfig {
	cfg := iosrunner.BuildConfig{Xcrun: xcrun, IPhone: iphone, Team: team, Env: env.Environment(), Log: env.Stderr}
	if dir := env.Var("XDG_CACHE_HOME"); dir != "" {
		cfg.CacheDir = filepath.Join(dir, "flow", "ios-runner")
	}
	return cfg
}

// simulatorRunner is how a simulator gets its runner: the .xctestrun
// FLOW_IOS_RUNNER_XCTESTRUN names, or one build shared by every shard of
// the run.
func simulatorRunner(o Target, xcrun string) (string, func(context.Context) (string, error)) {
	if given := o.Env.Var("FLOW_IOS_RUNNER_XCTESTRUN"); given != "" {
		return given, nil
	}
	var once sync.Once
	var path string
	var err error
	return "", func(ctx context.Context) (string, error) {
		once.Do(func() {
			var b iosrunner.Built
			b, err = iosrunner.Build(ctx, IOSRunnerBuildConfig(o.Env, xcrun, false, ""))
			path = b.XCTestRun
		})
		return path, err
	}
}

// iphoneRunner is the runner flow installs on a phone: a prebuilt app
// (FLOW_IOS_RUNNER_APP), or a build signed by FLOW_IOS_TEAM. Without
// either flow starts what the phone has, which a user may have installed
// from Xcode.
func iphoneRunner(o Target) func(context.Context) (ios.RunnerApp, error) {
	getenv := o.Env.Var
	if app := getenv("FLOW_IOS_RUNNER_APP"); app != "" {
		return func(context.Context) (ios.RunnerApp, error) {
			id, v, err := iosrunner.AppInfo(app)
			return ios.RunnerApp{App: app, Version: v, BundleID: id}, err
		}
	}
	team := getenv("FLOW_IOS_TEAM")
	if team == "" {
		return nil
	}
	return func(ctx context.Context) (ios.RunnerApp, error) {
		xcrun, err := FindXcrun(o)
		if err != nil {
			return ios.RunnerApp{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "FLOW_IOS_TEAM asks flow to build the runner, and that needs Xcode: %v", err).
				WithHint("build it on a Mac (flow ios runner build --iphone --team TEAM) and pass the printed app with FLOW_IOS_RUNNER_APP")
		}
		b, err := iosrunner.Build(ctx, IOSRunnerBuildConfig(o.Env, xcrun, true, team))
		return ios.RunnerApp{App: filepath.Join(b.Products, iosrunner.RunnerApp), Version: b.Version, BundleID: b.IDs.Runner}, err
	}
}

// iosSession is what every simulator or iPhone session of a run shares:
// the lock folder (FLOW_IOS_LOCK_DIR, else the system's temporary
// folder: one session per device on this computer) and the runner's ready
// wait (MAESTRO_DRIVER_STARTUP_TIMEOUT in milliseconds, as Maestro reads
// it for its drivers; else 120 s, Maestro's bound for its XCTest driver).
type iosSession struct {
	lockDir string
	ready   time.Duration
	// runnerID is the id of a runner the user installed: made of
	// FLOW_IOS_TEAM when set.
	runnerID string
}

func iosSessionOf(o Target) (iosSession, error) {
	s := iosSession{lockDir: o.Env.Var("FLOW_IOS_LOCK_DIR"), runnerID: iosrunner.IDs(o.Env.Var("FLOW_IOS_TEAM")).Runner}
	if v := strings.TrimSpace(o.Env.Var("MAESTRO_DRIVER_STARTUP_TIMEOUT")); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 || ms > int64(24*time.Hour/time.Millisecond) {
			return s, canonical.Errorf(canonical.CodeInvalidArgs, "MAESTRO_DRIVER_STARTUP_TIMEOUT is %q, not a number of milliseconds", v).
				With("variable", "MAESTRO_DRIVER_STARTUP_TIMEOUT").
				WithHint("set it to the runner's start-up wait in milliseconds (for example 180000 for 3 minutes), or unset it for 120 s")
		}
		s.ready = time.Duration(ms) * time.Millisecond
	}
	return s, nil
}
