package main

import (
	"fmt"
	"math"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
)

// Maestro's global options (maestro-cli App.kt, DisableAnsiMixin.kt,
// 1.39.10) are typed before the command (`maestro -p android --device X
// test flows/`). flow accepts them there and after the command: the
// commands that use them (test, check) declare them too, and
// hoistGlobals moves them behind the command's name.

// globalFlags are Maestro's global options as flow's top level takes
// them; commands that give them a meaning declare their own.
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print flow's version, commit and Go version", DisableDefaultText: true},
		&cli.StringFlag{Name: "platform", Aliases: []string{"p"}, Usage: "android, ios or web (Maestro's -p; see flow test --help)"},
		&cli.StringFlag{Name: "device", Aliases: []string{"udid"}, Usage: "the device to run on (see flow test --help)"},
		&cli.StringFlag{Name: "host", Usage: "host of the adb server (see flow test --help)"},
		&cli.IntFlag{Name: "port", Usage: "port of the adb server (see flow test --help)"},
		&cli.BoolFlag{Name: "verbose", Usage: "more output (see flow test --help)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "no-color", Aliases: []string{"no-ansi"}, Usage: "no colours, no redrawn lines", DisableDefaultText: true},
		&cli.BoolFlag{Name: "color", Aliases: []string{"ansi"}, Usage: "colours and redrawn lines even when stdout is no terminal", DisableDefaultText: true},
	}
}

// outputFlags are the global options that only change how flow writes:
// every command that prints progress declares them.
func outputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "verbose", Usage: "print every step, also those of shards running at once (Maestro: verbose logging)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "no-color", Aliases: []string{"no-ansi"}, Usage: "plain output: no colours, no redrawn running step (also NO_COLOR, CI)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "color", Aliases: []string{"ansi"}, Usage: "colours and the redrawn running step even when stdout is no terminal", DisableDefaultText: true},
	}
}

// warnUnusedGlobals warns, one line each, about global options given to a
// command that has no use for them: accepted, as Maestro accepts them
// with every command, never refused.
func warnUnusedGlobals(c *cli.Context, env Env) error {
	if c.Args().Len() == 0 {
		return nil
	}
	cmd := c.App.Command(c.Args().First())
	if cmd == nil {
		return nil
	}
	for _, f := range c.App.Flags {
		name := f.Names()[0]
		if name == "version" || name == "help" || !c.IsSet(name) {
			continue
		}
		fmt.Fprintf(env.Stdout, "warning: --%s means nothing to flow %s; ignored\n", name, cmd.Name)
	}
	return nil
}

// hoistGlobals moves the global options typed before the command behind
// the command's name when the command declares them, so that `flow -p
// android test x` parses as `flow test -p android x`. Options the command
// does not declare stay in front, where the top level accepts them.
func hoistGlobals(app *cli.App, args []string) []string {
	value := takesValue(app.Flags)
	i := 1
	var globals [][]string
	for i < len(args) {
		name, ok := flagName(args[i])
		if !ok || args[i] == "--" {
			break
		}
		n := 1
		if value[name] && !strings.Contains(args[i], "=") && i+1 < len(args) {
			n = 2
		}
		globals = append(globals, args[i:i+n])
		i += n
	}
	if i >= len(args) || len(globals) == 0 {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	own := takesValue(cmd.Flags)
	out := []string{args[0]}
	var moved []string
	for _, g := range globals {
		name, _ := flagName(g[0])
		if _, ok := own[name]; ok {
			moved = append(moved, g...)
		} else {
			out = append(out, g...)
		}
	}
	out = append(out, args[i])
	out = append(out, moved...)
	return append(out, args[i+1:]...)
}

// takesValue maps every name of flags to whether it takes a value.
func takesValue(flags []cli.Flag) map[string]bool {
	m := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			m[n] = !isBool
		}
	}
	return m
}

// terminal decides whether progress colours and redraws: --no-color
// (--no-ansi) turns that off and --color (--ansi) on, as Maestro's
// negatable option does; without either, a terminal that is not CI and
// has no NO_COLOR.
func terminal(c *cli.Context, env Env) bool {
	switch {
	case c.Bool("no-color"):
		return false
	case c.Bool("color"):
		return true
	}
	return env.IsTTY && env.Getenv("CI") == "" && env.Getenv("NO_COLOR") == ""
}

// iosUDID() matches the identifiers Apple gives simulators (a UUID) and
// iPhones (8-16 hex digits since the iPhone XS, 40 before).
var iosUDID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{8}-[0-9a-f]{16}|[0-9a-f]{40})$`)
})

// isFlowDevice reports whether name is one of flow's --device names
// rather than a Maestro device ID (a serial, a UDID).
func isFlowDevice(name string) bool {
	return flowapi.IsSimDevice(name) || flowapi.IsAndroidDevice(name) || flowapi.IsIOSDevice(name) ||
		name == "web" || name == "appium"
}

// deviceChoice is what --device and -p select: the device, and with a
// comma list the devices of a sharded run, in order.
type deviceChoice struct {
	device   string
	list     []string
	warnings []string
}

// chooseDevice reads --device (or --udid) and -p/--platform as Maestro
// means them (App.kt: a device ID, or a comma list of them; a platform
// to pick a device of) in flow's terms. A Maestro ID becomes
// android:SERIAL or ios:UDID: with -p that says which, without it a UDID's
// shape says iOS and anything else with a digit is an adb serial
// ("chromium", Maestro's web device ID, is web). Without --device, -p picks flow's device of that
// platform; with --device sim it picks the simulated platform.
func chooseDevice(device string, deviceSet bool, platform string) (deviceChoice, error) {
	platform = strings.ToLower(strings.TrimSpace(platform))
	switch platform {
	case "", "android", "ios", "web":
	default:
		return deviceChoice{}, canonical.Errorf(canonical.CodeInvalidArgs, "-p %q is no platform", platform).
			WithHint("write -p android, -p ios or -p web")
	}
	var ch deviceChoice
	if !deviceSet {
		if platform == "" {
			ch.device = device
			return ch, nil
		}
		ch.device = platform
		return ch, nil
	}
	var ids []string
	for _, id := range strings.Split(device, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return ch, canonical.NewError(canonical.CodeInvalidArgs, "--device is empty").
			WithHint("name a device (flow devices lists them), or drop --device for sim")
	}
	kind := ""
	for _, id := range ids {
		name := fromMaestroID(id, platform)
		if platform != "" && !onPlatform(name, platform) {
			ch.warnings = append(ch.warnings, fmt.Sprintf("-p %s does not match --device %s; the device given is used", platform, id))
		}
		k := deviceKind(name)
		if kind != "" && k != kind {
			return ch, canonical.Errorf(canonical.CodeInvalidArgs, "--device %s mixes %s and %s devices", device, kind, k).
				WithHint("list devices of one kind, e.g. --device emulator-5554,emulator-5556")
		}
		kind = k
		ch.list = append(ch.list, name)
	}
	ch.device = ch.list[0]
	if len(ch.list) == 1 {
		ch.list = nil
	}
	return ch, nil
}

// fromMaestroID is id as a flow device name.
func fromMaestroID(id, platform string) string {
	switch {
	case id == "chromium":
		return "web"
	case isFlowDevice(id):
		if id == "sim" && (platform == "android" || platform == "ios") {
			return "sim:" + platform
		}
		return id
	case platform == "android":
		return "android:" + id
	case platform == "ios":
		return "ios:" + id
	case iosUDID().MatchString(id):
		return "ios:" + id
	case !strings.ContainsAny(id, "0123456789"):
		// Serials and UDIDs have digits (emulator-5554, R58M1234,
		// HOST:PORT); a word without any is a mistyped flow device name
		// (--device simulator), which flow refuses with a did-you-mean.
		return id
	}
	return "android:" + id
}

func deviceKind(name string) string {
	switch {
	case flowapi.IsSimDevice(name):
		return "sim"
	case flowapi.IsAndroidDevice(name):
		return "android"
	case flowapi.IsIOSDevice(name):
		return "ios"
	}
	return name
}

// onPlatform reports whether a flow device is of the platform -p names.
func onPlatform(name, platform string) bool {
	switch {
	case name == "sim":
		return platform != "web"
	case flowapi.IsSimDevice(name):
		return name == "sim:"+platform
	case flowapi.IsAndroidDevice(name):
		return platform == "android"
	case flowapi.IsIOSDevice(name):
		return platform == "ios"
	case name == "web":
		return platform == "web"
	}
	return platform != "web" // appium: a native phone
}

// adbServer is --host and --port as the adb server's socket, written as
// ADB_SERVER_SOCKET (tcp:HOST:PORT) so that the devices find the server
// as adb would (AOSP adb/client/commandline.cpp: -H/-P win over the
// environment); "" when neither is given. A missing half is adb's
// default: 127.0.0.1, 5037.
func adbServer(c *cli.Context) (string, error) {
	if !c.IsSet("host") && !c.IsSet("port") {
		return "", nil
	}
	host, port := strings.TrimSpace(c.String("host")), c.Int("port")
	if host == "" {
		host = "127.0.0.1"
	}
	if !c.IsSet("port") {
		port = 5037
	}
	if port < 1 || port > 65535 {
		return "", canonical.Errorf(canonical.CodeInvalidArgs, "--port %d is not a port", port).
			WithHint("give the adb server's port, 1 to 65535 (adb's default is 5037)")
	}
	return "tcp:" + net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// withEnv is env with name set to value for the devices flow opens.
func withEnv(env Env, name, value string) Env {
	get, environ := env.Getenv, env.Environ
	env.Getenv = func(k string) string {
		if k == name {
			return value
		}
		if get == nil {
			return ""
		}
		return get(k)
	}
	env.Environ = func() []string {
		var out []string
		if environ != nil {
			for _, kv := range environ() {
				if !strings.HasPrefix(kv, name+"=") {
					out = append(out, kv)
				}
			}
		}
		return append(out, name+"="+value)
	}
	return env
}

// configExists refuses a --config file that is not there before anything
// runs, whatever the paths are: Maestro checks it first too ("The config
// file ... does not exist.", TestCommand.call), where flow's workspace
// reading would skip it for a single flow file.
func configExists(path string) error {
	if path == "" {
		return nil
	}
	if info, err := os.Stat(path); err != nil || info.IsDir() {
		return canonical.Errorf(canonical.CodeInvalidArgs, "config file %s does not exist", path).
			WithHint("check the --config path; without --config, config.yaml in the first folder given is read")
	}
	return nil
}

// shardLines are what Maestro says before a sharded run
// (TestCommand.handleSessions): the shards cut down to the flows, with a
// warning, and how the flows are spread.
func shardLines(o testOptions, flows, shards int) []string {
	var out []string
	if !o.shardAll && o.shards > flows {
		out = append(out, fmt.Sprintf("warning: Requested %d shards, but it cannot be higher than the number of flows (%d). Will use %d shards instead.", o.shards, flows, shards))
	}
	if o.shardAll {
		return append(out, fmt.Sprintf("Will run %d shards, with all %d flows in each shard", shards, flows))
	}
	approx := ""
	if flows%shards != 0 {
		approx = "approx. "
	}
	// Kotlin's roundToInt rounds halves up, as math.Round does for
	// positive numbers.
	per := int(math.Round(float64(flows) / float64(shards)))
	return append(out, fmt.Sprintf("Will split %d flows across %d shards (%s%d flows per shard)", flows, shards, approx, per))
}
