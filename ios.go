package flow

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/ios"
)

// openIOSShards opens one booted simulator per shard, each with its own
// runner, in parallel (a runner takes seconds to start).
func openIOSShards(ctx context.Context, o Target, n int) ([]exec.Device, error) {
	if n <= 1 {
		d, err := openIOS(ctx, o)
		if err != nil {
			return nil, err
		}
		return []exec.Device{d}, nil
	}
	if o.IOSRunnerURL != "" || (o.Device != "ios" && len(o.Devices) == 0) {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s %d needs %d iOS devices; %s names one", o.shardFlag(), n, n, iosOne(o)).
			WithHint(fmt.Sprintf("use --device ios %s %d to run on %d booted simulators", o.shardFlag(), n, n))
	}
	xcrun, err := FindXcrun(o)
	if err != nil {
		return nil, err
	}
	sims, err := ios.ListSimulators(ctx, xcrun, o.Env.Environment())
	if err != nil {
		return nil, err
	}
	var booted []string
	for _, s := range sims {
		if s.State == "Booted" {
			booted = append(booted, s.UDID)
		}
	}
	if len(o.Devices) > 0 {
		// --device listed them: those, in that order, each booted.
		listed, err := listedSimulators(o.Devices, n, booted)
		if err != nil {
			return nil, err
		}
		booted = listed
	}
	if len(booted) < n {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "%s %d needs %d booted iOS simulators; %d are booted", o.shardFlag(), n, n, len(booted)).
			WithHint(fmt.Sprintf("boot %d more (xcrun simctl boot UDID; flow devices lists them), or lower %s to %d", n-len(booted), o.shardFlag(), len(booted)))
	}
	session, err := iosSessionOf(o)
	if err != nil {
		return nil, err
	}
	given, build := simulatorRunner(o, xcrun)
	return openAll(ctx, n, func(i int) (exec.Device, error) {
		d, err := ios.OpenSimulator(ctx, ios.SimulatorConfig{UDID: booted[i], Xcrun: xcrun, XCTestRun: given, BuildRunner: build, Env: o.Env.Environment(),
			ReadyTimeout: session.ready, LockDir: session.lockDir})
		if err != nil {
			return nil, err // never a typed nil in the interface
		}
		return d, nil
	})
}

func iosOne(o Target) string {
	if o.IOSRunnerURL != "" {
		return "--ios-runner-url"
	}
	return "--device " + o.Device
}

// FindXcrun is xcrun on PATH, or the error that says iOS needs Xcode.
func FindXcrun(o Target) (string, error) {
	lookPath := o.Env.LookPath
	if lookPath == nil {
		lookPath = func(string) (string, error) { return "", errNoLookPath }
	}
	xcrun, err := lookPath("xcrun")
	if err != nil {
		return "", canonical.Errorf(canonical.CodeDeviceUnavailable, "device %q needs Xcode: xcrun is not on PATH", o.Device).
			WithHint("run flow on a Mac with Xcode (xcode-select --install), or attach to a runner started elsewhere with --ios-runner-url http://HOST:PORT")
	}
	return xcrun, nil
}

// IsIOSDevice reports whether a --device name is ios[:UDID].
func IsIOSDevice(device string) bool {
	return device == "ios" || strings.HasPrefix(device, "ios:")
}

// openIOS attaches to the runner --ios-runner-url names, or, on a Mac,
// opens the simulator --device ios[:UDID] names and starts the runner on
// it (FLOW_IOS_RUNNER_XCTESTRUN, or the runner flow builds once and
// caches), or the iPhone it names through go-ios.
func openIOS(ctx context.Context, o Target) (exec.Device, error) {
	udid, _ := strings.CutPrefix(o.Device, "ios:")
	if udid == "ios" {
		udid = ""
	}
	if o.IOSRunnerURL != "" {
		name := o.IOSRunnerURL
		if udid != "" {
			name = udid
		}
		return ios.Attach(ctx, ios.Config{URL: o.IOSRunnerURL, Name: name})
	}
	return openIOSDevice(ctx, o, udid)
}

// iosLink is the environment's link to real iPhones.
func iosLink(env Env) ios.PhoneLink {
	if env.IOSLink != nil {
		return env.IOSLink
	}
	return ios.GoIOS{}
}

// openIOSDevice opens the simulator or iPhone udid names, or, without
// one, the one booted simulator or connected iPhone there is. Simulators
// are asked first (a Mac with Xcode); iPhones come from usbmuxd.
func openIOSDevice(ctx context.Context, o Target, udid string) (exec.Device, error) {
	session, err := iosSessionOf(o)
	if err != nil {
		return nil, err
	}
	xcrun, xerr := FindXcrun(o)
	var sims []ios.Simulator
	if xerr == nil {
		var err error
		if sims, err = ios.ListSimulators(ctx, xcrun, o.Env.Environment()); err != nil {
			return nil, err
		}
	}
	phones, perr := iosLink(o.Env).List(ctx)
	given, build := simulatorRunner(o, xcrun)
	simCfg := func(u string) ios.SimulatorConfig {
		return ios.SimulatorConfig{UDID: u, Xcrun: xcrun, XCTestRun: given, BuildRunner: build, Env: o.Env.Environment(),
			ReadyTimeout: session.ready, LockDir: session.lockDir}
	}
	phoneCfg := func(u string) ios.IPhoneConfig {
		return ios.IPhoneConfig{UDID: u, Link: iosLink(o.Env), Runner: iphoneRunner(o), RunnerBundleID: session.runnerID,
			ReadyTimeout: session.ready, LockDir: session.lockDir}
	}
	if udid != "" {
		for _, s := range sims {
			if s.UDID == udid {
				return ios.OpenSimulator(ctx, simCfg(udid))
			}
		}
		if perr != nil && xerr != nil {
			return nil, xerr
		}
		for _, p := range phones {
			if p.UDID == udid {
				return ios.OpenIPhone(ctx, phoneCfg(udid))
			}
		}
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "no iOS device %s: not a simulator of this Mac, nor a connected iPhone", udid).
			With("device", udid).WithHint("flow devices lists the simulators and iPhones flow sees; connect and trust an iPhone, or create the simulator in Xcode")
	}
	var booted []ios.Simulator
	for _, s := range sims {
		if s.State == "Booted" {
			booted = append(booted, s)
		}
	}
	switch {
	case len(booted)+len(phones) > 1:
		var names []string
		for _, s := range booted {
			names = append(names, s.UDID+" ("+s.Name+", simulator)")
		}
		for _, p := range phones {
			names = append(names, p.UDID+" ("+p.Name+")")
		}
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device ios matches %d devices: %s", len(names), strings.Join(names, ", ")).
			WithHint("name one: --device ios:UDID (flow devices lists them)")
	case len(booted) == 1:
		return ios.OpenSimulator(ctx, simCfg(booted[0].UDID))
	case len(phones) == 1:
		return ios.OpenIPhone(ctx, phoneCfg(phones[0].UDID))
	case xerr != nil && perr != nil:
		return nil, canonical.NewError(canonical.CodeDeviceUnavailable, "no iOS device: no Xcode for simulators, and no iPhone could be listed").
			WithHint("on a Mac, boot a simulator; elsewhere connect an iPhone (usbmuxd), or attach to a runner with --ios-runner-url http://HOST:PORT")
	case xerr != nil:
		return nil, canonical.NewError(canonical.CodeDeviceUnavailable, "no iPhone is connected, and there is no Xcode for simulators").
			WithHint("connect an iPhone by USB and trust this computer, or attach to a runner with --ios-runner-url http://HOST:PORT")
	}
	return ios.OpenSimulator(ctx, simCfg("")) // says that none is booted
}

// listedSimulators are the UDIDs of the first n listed devices
// (ios:UDID), each of which must be a booted simulator.
func listedSimulators(list []string, n int, booted []string) ([]string, error) {
	if len(list) < n {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device lists %d devices; %d shards need %d", len(list), n, n).
			WithHint(fmt.Sprintf("list %d devices", n))
	}
	out := make([]string, n)
	for i := range out {
		udid := strings.TrimPrefix(list[i], "ios:")
		if !slices.Contains(booted, udid) {
			return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "iOS simulator %q is not booted", udid).
				With("udid", udid).WithHint("boot it (xcrun simctl boot " + udid + "); flow devices lists the booted ones")
		}
		out[i] = udid
	}
	return out, nil
}
