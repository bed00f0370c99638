package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	helperapk "github.com/flow-runner/flow/helper-apk"
)

func androidCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "android",
		Usage: "Android tooling: build flow's helper APK",
		Subcommands: []*cli.Command{{
			Name:  "helper",
			Usage: "the instrumentation helper flow installs on Android devices",
			Subcommands: []*cli.Command{{
				Name:  "build",
				Usage: "build the helper with the Android SDK of ANDROID_HOME (or ANDROID_SDK_ROOT) and print the APK's path",
				Description: `Compiles the helper sources this flow binary embeds with the SDK's own javac target,
   d8, aapt2, zipalign and apksigner (a debug key is made once per cache) and caches the APK by a
   hash of its sources and tools: a second build prints the cached path. flow test --device
   android needs none of this: it installs the helper APK flow embeds (helper-apk/dist). Pass the
   printed path to --android-helper or FLOW_ANDROID_HELPER to install your own build instead.`,
				Action: func(c *cli.Context) error {
					if err := noArgs(c, "flow android helper build"); err != nil {
						return err
					}
					getenv := env.Getenv
					if getenv == nil {
						getenv = func(string) string { return "" }
					}
					sdk := helperapk.SDKFromEnv(getenv)
					if sdk == "" {
						return helperapk.Missing("")
					}
					apk, err := helperapk.Build(c.Context, helperapk.BuildConfig{SDK: sdk, JDK: getenv("JAVA_HOME"), Log: env.Stderr})
					if err != nil {
						return err
					}
					fmt.Fprintln(env.Stdout, apk)
					return nil
				},
			}},
		}},
	}
}
