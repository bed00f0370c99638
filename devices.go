package flow

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/exec/webdriver"
)

// DeviceInfo is one device flow can be pointed at.
type DeviceInfo struct {
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

// Absence says why a kind of device is missing from the list.
type Absence struct {
	Platform string `json:"platform"`
	Reason   string `json:"reason"`
	Hint     string `json:"hint,omitempty"`
}

// DeviceList is what Devices found: the devices and, for each kind that
// is missing, why.
type DeviceList struct {
	Devices     []DeviceInfo `json:"devices"`
	Unavailable []Absence    `json:"unavailable,omitempty"`
}

// Devices gathers every device: adb's first, then sim's profiles and
// the web device. A missing adb is a note, not an error: sim and web still
// run.
func Devices(ctx context.Context, env Env) DeviceList {
	var out DeviceList
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
		DeviceInfo{Name: "sim", Platform: "sim", Model: "flow's simulated device (the app model's platform)", State: "ready"},
		DeviceInfo{Name: "sim:android", Platform: "sim", Model: "flow's simulated device, Android profile", State: "ready"},
		DeviceInfo{Name: "sim:ios", Platform: "sim", Model: "flow's simulated device, iOS profile", State: "ready"})
	web := DeviceInfo{Name: "web", Platform: "web", Model: "headless Chromium through chromedriver", State: "ready"}
	if _, _, err := webdriver.FindLocal("", ""); err != nil {
		ce := canonical.Coded(err)
		web.State, web.Hint = "unavailable: "+ce.Message, ce.Hint
	}
	out.Devices = append(out.Devices, web)
	return out
}

// androidLines lists the devices adb sees, with the API level of those
// online; why is set when adb cannot be asked.
func androidLines(ctx context.Context, env Env) ([]DeviceInfo, *Absence) {
	host, err := connectAndroid(ctx, env)
	if err != nil {
		ce := canonical.Coded(err)
		return nil, &Absence{Platform: "android", Reason: ce.Message, Hint: ce.Hint}
	}
	seen, err := host.Devices(ctx)
	if err != nil {
		ce := canonical.Coded(err)
		return nil, &Absence{Platform: "android", Reason: ce.Message, Hint: ce.Hint}
	}
	var out []DeviceInfo
	for _, d := range seen {
		l := DeviceInfo{Name: "android:" + d.Serial, Platform: "android", Model: d.Model, State: "online",
			Serial: d.Serial, ADBState: d.State}
		if d.State != adbOnline {
			l.State, l.Hint = d.State, stateHint(d.State)
		} else if api, err := host.APILevel(ctx, d.Serial); err == nil {
			l.APILevel = api
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, &Absence{Platform: "android", Reason: "adb at " + host.Addr() + " lists no devices",
			Hint: "start an emulator (emulator -avd NAME) or connect a phone with USB debugging on"}
	}
	return out, nil
}

// iosLines lists the simulators of this Mac (xcrun simctl) and the
// connected iPhones (usbmuxd); why is set when neither can be asked.
func iosLines(ctx context.Context, env Env) ([]DeviceInfo, *Absence) {
	var out []DeviceInfo
	var reasons []string
	lookPath := env.LookPath
	if lookPath == nil {
		lookPath = func(string) (string, error) { return "", errNoLookPath }
	}
	if xcrun, err := lookPath("xcrun"); err != nil {
		reasons = append(reasons, "xcrun is not on PATH (simulators need a Mac with Xcode)")
	} else if sims, err := ios.ListSimulators(ctx, xcrun, env.Environment()); err != nil {
		reasons = append(reasons, canonical.Coded(err).Message)
	} else {
		for _, s := range sims {
			l := DeviceInfo{Name: "ios:" + s.UDID, Platform: "ios", Model: s.Name + " (simulator)", State: "online", Serial: s.UDID}
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
			out = append(out, DeviceInfo{Name: "ios:" + p.UDID, Platform: "ios", Model: p.Name, APILevel: p.Version, State: "online", Serial: p.UDID})
		}
	}
	if len(out) == 0 && len(reasons) > 0 {
		return nil, &Absence{Platform: "ios", Reason: strings.Join(reasons, "; "),
			Hint: "on a Mac, boot a simulator; elsewhere connect an iPhone (usbmuxd), or attach to a runner with flow test --ios-runner-url http://HOST:PORT"}
	}
	return out, nil
}
