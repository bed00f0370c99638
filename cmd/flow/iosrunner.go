package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
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
					o := flowapi.Target{Env: env, Device: "ios"}
					xcrun, err := flowapi.FindXcrun(o)
					if err != nil {
						return err
					}
					team := c.String("team")
					if team == "" {
						team = env.Var("FLOW_IOS_TEAM")
					}
					b, err := iosrunner.Build(c.Context, flowapi.IOSRunnerBuildConfig(env, xcrun, c.Bool("iphone"), team))
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
