package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/ios"
	iosrunner "github.com/flow-runner/flow/ios-runner"
)

func iosCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "ios",
		Usage: "iOS tooling: build flow's XCTest runner",
		Subcommands: []*cli.Command{{
			Name:  "runner",
			Usage: "the XCTest runner flow starts on simulators and iPhones",
			Subcommands: []*cli.Command{{
				Name:  "build",
				Usage: "build the runner with this Mac's Xcode and print its .xctestrun",
				Description: `Runs xcodebuild build-for-testing on the runner sources this flow binary embeds and
   caches the result by a hash of those sources (and of --team): a second build prints the cached
   path at once. flow test --device ios does this by itself on first use. With --iphone the
   runner is built for real devices and signed with your development team (Xcode's automatic
   signing); flow installs it on a phone when FLOW_IOS_TEAM names the same team.`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "iphone", Usage: "build for real iPhones (needs --team)"},
					&cli.StringFlag{Name: "team", Usage: "the Apple development team that signs an iPhone build (default: FLOW_IOS_TEAM)"},
				},
				Action: func(c *cli.Context) error {
					if err := noArgs(c, "flow ios runner build"); err != nil {
						return err
					}
					o := testOptions{sys: env, device: "ios"}
					xcrun, err := findXcrun(o)
					if err != nil {
						return err
					}
					team := c.String("team")
					if team == "" {
						team = getenvOf(env)("FLOW_IOS_TEAM")
					}
					b, err := iosrunner.Build(c.Context, runnerBuildConfig(env, xcrun, c.Bool("iphone"), team))
					if err != nil {
						return err
					}
					fmt.Fprintln(env.Stdout, b.XCTestRun)
					if c.Bool("iphone") {
						fmt.Fprintln(env.Stdout, filepath.Join(b.Products, iosrunner.RunnerApp))
					}
					return nil
				},
			}},
		}},
	}
}

// runnerBuildConfig builds with xcrun in flow's environment, logging to
// stderr; XDG_CACHE_HOME moves the cache as it moves the user's.
func runnerBuildConfig(env Env, xcrun string, iphone bool, team string) iosrunner.BuildConfig {
	cfg := iosrunner.BuildConfig{Xcrun: xcrun, IPhone: iphone, Team: team, Env: environ(env), Log: env.Stderr}
	if dir := getenvOf(env)("XDG_CACHE_HOME"); dir != "" {
		cfg.CacheDir = filepath.Join(dir, "flow", "ios-runner")
	}
	return cfg
}

// simulatorRunner is how a simulator gets its runner: the .xctestrun
// FLOW_IOS_RUNNER_XCTESTRUN names, or one build shared by every shard of
// the run.
func simulatorRunner(o testOptions, xcrun string) (string, func(context.Context) (string, error)) {
	if given := getenvOf(o.sys)("FLOW_IOS_RUNNER_XCTESTRUN"); given != "" {
		return given, nil
	}
	var once sync.Once
	var path string
	var err error
	return "", func(ctx context.Context) (string, error) {
		once.Do(func() {
			var b iosrunner.Built
			b, err = iosrunner.Build(ctx, runnerBuildConfig(o.sys, xcrun, false, ""))
			path = b.XCTestRun
		})
		return path, err
	}
}

// iphoneRunner is the runner flow installs on a phone: a prebuilt app
// (FLOW_IOS_RUNNER_APP), or a build signed by FLOW_IOS_TEAM. Without
// either flow starts what the phone has, which a user may have installed
// from Xcode.
func iphoneRunner(o testOptions) func(context.Context) (ios.RunnerApp, error) {
	getenv := getenvOf(o.sys)
	if app := getenv("FLOW_IOS_RUNNER_APP"); app != "" {
		return func(context.Context) (ios.RunnerApp, error) {
			v, err := iosrunner.AppVersion(app)
			return ios.RunnerApp{App: app, Version: v}, err
		}
	}
	team := getenv("FLOW_IOS_TEAM")
	if team == "" {
		return nil
	}
	return func(ctx context.Context) (ios.RunnerApp, error) {
		xcrun, err := findXcrun(o)
		if err != nil {
			return ios.RunnerApp{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "FLOW_IOS_TEAM asks flow to build the runner, and that needs Xcode: %v", err).
				WithHint("build it on a Mac (flow ios runner build --iphone --team TEAM) and pass the printed app with FLOW_IOS_RUNNER_APP")
		}
		b, err := iosrunner.Build(ctx, runnerBuildConfig(o.sys, xcrun, true, team))
		return ios.RunnerApp{App: filepath.Join(b.Products, iosrunner.RunnerApp), Version: b.Version}, err
	}
}
