package flow

import "github.com/flow-runner/flow/exec"

// Target names the device to open and how to reach it.
type Target struct {
	// Device is sim (also sim:android, sim:ios), web, android[:SERIAL],
	// ios[:UDID] or appium (a native Appium session at WebDriverURL);
	// `flow devices` lists the ones it can find.
	Device string
	// Devices, when set, is the run's device list (--device a,b,c), in
	// order, one per shard or parallel worker (shard i runs on Devices[i],
	// instead of the i-th device found); Device is then its first entry,
	// and every entry is of the same kind.
	Devices []string
	// Apps are app model files sim installs beside the demo shop.
	Apps []string
	// AppFiles are apps (--app-file: .apk, .app, .ipa, or a sim app
	// model) installed on every device of the run before the first flow.
	AppFiles []string
	// AndroidHelper is a helper APK to install instead of the one flow
	// embeds (else FLOW_ANDROID_HELPER, else the embedded one).
	AndroidHelper string
	// WebDriverURL and Capabilities send the web device to a remote
	// endpoint, or name the Appium session (a file of capabilities that
	// describe a native app makes the session native on web too);
	// IOSRunnerURL attaches to a running iOS runner.
	WebDriverURL, Capabilities, IOSRunnerURL string
	// ShardFlag names the flag that asked for several devices, in
	// messages ("--shard-split" when empty).
	ShardFlag string
	// Shards is the number of shards the flag asked for, which may be
	// more than the run uses: never more shards than flows.
	Shards int
	// Env is where devices find their tools; the zero value is this
	// process's.
	Env Env
}

func (t Target) shardFlag() string {
	if t.ShardFlag == "" {
		return "--shard-split"
	}
	return t.ShardFlag
}

// SessionOptions open a device session.
type SessionOptions struct {
	Target
	// Record appends every passed action to this .ad script, as
	// `flow … --record` does.
	Record string
	// Events appends the device event log (contracts §8) to this file.
	Events string
	// Vars are flow variables for ${…} in actions, as -e KEY=VALUE.
	Vars []exec.Var
}
