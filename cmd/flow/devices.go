package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/exec/webdriver"
)

func devicesCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "devices",
		Usage: "list every device flow can run on: Android devices adb sees, sim, web",
		Description: `Prints one line per device: the name to pass to --device, its platform, model, Android
   API level and state. Android devices come from the adb server (ANDROID_ADB_SERVER_PORT, default
   5037; flow starts it with adb start-server when it is not running and adb is on PATH); only
   those in state online can run flows, the others say what to do. When adb is missing or no
   server answers, sim and web are still listed and a note says why Android is absent: that is
   not an error. --json prints {"devices":[...],"unavailable":[...]}.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON", DisableDefaultText: true}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c, "flow devices"); err != nil {
				return err
			}
			list := listDevices(c.Context, env)
			if c.Bool("json") {
				b, _ := json.Marshal(list)
				fmt.Fprintln(env.Stdout, string(b))
				return nil
			}
			printDevices(env, list)
			return nil
		},
	}
}

// deviceLine is one device flow can be pointed at.
type deviceLine struct {
	Name     string `json:"name"`
	Platform string `json:"platform"`
	Model    string `json:"model"`
	// APILevel is an Android device's ro.build.version.sdk, when it can
	// be read (the device is online).
	APILevel string `json:"apiLevel,omitempty"`
	State    string `json:"state"`
	// Serial and ADBState are adb's own words for an Android device.
	Serial   string `json:"serial,omitempty"`
	ADBState string `json:"adbState,omitempty"`
	// Hint says how to make a device that is not ready usable.
	Hint string `json:"hint,omitempty"`
}

// absence says why a kind of device is missing from the list.
type absence struct {
	Platform string `json:"platform"`
	Reason   string `json:"reason"`
	Hint     string `json:"hint,omitempty"`
}

type deviceList struct {
	Devices     []deviceLine `json:"devices"`
	Unavailable []absence    `json:"unavailable,omitempty"`
}

// listDevices gathers every device: adb's first, then sim's profiles and
// the web device. A missing adb is a note, not an error: sim and web still
// run.
func listDevices(ctx context.Context, env Env) deviceList {
	var out deviceList
	android, why := androidLines(ctx, env)
	out.Devices = append(out.Devices, android...)
	if why != nil {
		out.Unavailable = append(out.Unavailable, *why)
	}
	iosDevs, why := iosLines(ctx, env)
	out.Devices = append(out.Devices, iosDevs...)
	if why != nil {
		out.Unavailable = append(out.Unavailable, *why)
	}
	out.Devices = append(out.Devices,
		deviceLine{Name: "sim", Platform: "sim", Model: "flow's simulated device (the app model's platform)", State: "ready"},
		deviceLine{Name: "sim:android", Platform: "sim", Model: "flow's simulated device, Android profile", State: "ready"},
		deviceLine{Name: "sim:ios", Platform: "sim", Model: "flow's simulated device, iOS profile", State: "ready"})
	web := deviceLine{Name: "web", Platform: "web", Model: "headless Chromium through chromedriver", State: "ready"}
	if _, _, err := webdriver.FindLocal("", ""); err != nil {
		ce := canonical.Coded(err)
		web.State, web.Hint = "unavailable: "+ce.Message, ce.Hint
	}
	out.Devices = append(out.Devices, web)
	return out
}

// androidLines lists the devices adb sees, with the API level of those
// online; why is set when adb cannot be asked.
func androidLines(ctx context.Context, env Env) ([]deviceLine, *absence) {
	host, err := connectAndroid(ctx, env)
	if err != nil {
		ce := canonical.Coded(err)
		return nil, &absence{Platform: "android", Reason: ce.Message, Hint: ce.Hint}
	}
	seen, err := host.Devices(ctx)
	if err != nil {
		ce := canonical.Coded(err)
		return nil, &absence{Platform: "android", Reason: ce.Message, Hint: ce.Hint}
	}
	var out []deviceLine
	for _, d := range seen {
		l := deviceLine{Name: "android:" + d.Serial, Platform: "android", Model: d.Model, State: "online",
			Serial: d.Serial, ADBState: d.State}
		if d.State != adbOnline {
			l.State, l.Hint = d.State, stateHint(d.State)
		} else if api, err := host.APILevel(ctx, d.Serial); err == nil {
			l.APILevel = api
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, &absence{Platform: "android", Reason: "adb at " + host.Addr() + " lists no devices",
			Hint: "start an emulator (emulator -avd NAME) or connect a phone with USB debugging on"}
	}
	return out, nil
}

// iosLines lists the simulators of this Mac (xcrun simctl) and the
// connected iPhones (usbmuxd); why is set when neither can be asked.
func iosLines(ctx context.Context, env Env) ([]deviceLine, *absence) {
	var out []deviceLine
	var reasons []string
	lookPath := env.LookPath
	if lookPath == nil {
		lookPath = func(string) (string, error) { return "", errNoLookPath }
	}
	if xcrun, err := lookPath("xcrun"); err != nil {
		reasons = append(reasons, "xcrun is not on PATH (simulators need a Mac with Xcode)")
	} else if sims, err := ios.ListSimulators(ctx, xcrun, environ(env)); err != nil {
		reasons = append(reasons, canonical.Coded(err).Message)
	} else {
		for _, s := range sims {
			l := deviceLine{Name: "ios:" + s.UDID, Platform: "ios", Model: s.Name + " (simulator)", State: "online", Serial: s.UDID}
			if s.State != "Booted" {
				l.State = strings.ToLower(s.State)
				l.Hint = "flow boots it when a run names it: --device ios:" + s.UDID
			}
			out = append(out, l)
		}
	}
	if phones, err := iosLink(env).List(ctx); err != nil {
		reasons = append(reasons, canonical.Coded(err).Message)
	} else {
		for _, p := range phones {
			out = append(out, deviceLine{Name: "ios:" + p.UDID, Platform: "ios", Model: p.Name, APILevel: p.Version, State: "online", Serial: p.UDID})
		}
	}
	if len(out) == 0 && len(reasons) > 0 {
		return nil, &absence{Platform: "ios", Reason: strings.Join(reasons, "; "),
			Hint: "on a Mac, boot a simulator; elsewhere connect an iPhone (usbmuxd), or attach to a runner with flow test --ios-runner-url http://HOST:PORT"}
	}
	return out, nil
}

func printDevices(env Env, list deviceList) {
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tPLATFORM\tMODEL\tAPI\tSTATE")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, d := range list.Devices {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", printable(d.Name), d.Platform, printable(dash(d.Model)), dash(d.APILevel), printable(d.State))
	}
	_ = w.Flush()
	for _, d := range list.Devices {
		if d.Hint != "" {
			fmt.Fprintf(env.Stdout, "%s: %s\n", printable(d.Name), d.Hint)
		}
	}
	for _, a := range list.Unavailable {
		fmt.Fprintf(env.Stdout, "no %s devices listed: %s\n", a.Platform, printable(a.Reason))
		if a.Hint != "" {
			fmt.Fprintf(env.Stdout, "  %s\n", a.Hint)
		}
	}
}
