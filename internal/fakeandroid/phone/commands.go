package phone

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/exec"
)

// run executes one simple command: the command table of
// shared/docs/android-ios-design.md §A5.
func (p *Phone) run(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch name := baseName(argv[0]); name {
	case "getprop":
		return p.getprop(argv[1:], stdout)
	case "wm":
		return p.wm(ctx, argv[1:], stdout, stderr)
	case "pm":
		return p.pm(ctx, argv[1:], stdin, stdout, stderr)
	case "cmd":
		return p.cmd(ctx, argv[1:], stdin, stdout, stderr)
	case "am":
		return p.am(ctx, argv[1:], stdout, stderr)
	case "settings":
		return p.settings(ctx, argv[1:], stdout, stderr)
	case "appops":
		if len(argv) > 2 && argv[1] == "set" {
			p.mu.Lock()
			p.appops = append(p.appops, append([]string(nil), argv[2:]...))
			p.mu.Unlock()
		}
		return 0
	case "screenrecord":
		return p.screenrecord(ctx, argv[1:], stderr)
	case "killall":
		return p.killall(argv[1:], stderr)
	case "screencap":
		return p.screencap(ctx, argv[1:], stdout, stderr)
	case "input":
		p.mu.Lock()
		p.forbidden = append(p.forbidden, strings.Join(argv, " "))
		p.mu.Unlock()
		fmt.Fprintln(stderr, reply("input-forbidden"))
		return 1
	case "echo":
		fmt.Fprintln(stdout, strings.Join(argv[1:], " "))
		return 0
	case "true":
		return 0
	case "false":
		return 1
	case "rm":
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				p.mu.Lock()
				_, link := p.links[a]
				delete(p.links, a)
				p.mu.Unlock()
				if !link {
					_ = p.files.Remove(a)
				}
			}
		}
		return 0
	case "ln":
		return p.ln(argv[1:], stderr)
	case "readlink":
		return p.readlink(argv[1:], stdout, stderr)
	case "pidof":
		return p.pidof(argv[1:], stdout)
	default:
		fmt.Fprintln(stderr, reply("sh-not-found", "cmd", argv[0]))
		return 127
	}
}

func (p *Phone) getprop(args []string, stdout io.Writer) int {
	if len(args) == 0 {
		names := make([]string, 0, len(p.props))
		for k := range p.props {
			names = append(names, k)
		}
		sort.Strings(names)
		var out []string
		for _, k := range names {
			out = append(out, reply("getprop-all", "name", k, "value", p.props[k]))
		}
		io.WriteString(stdout, lines(out))
		return 0
	}
	// An unset property prints an empty line, as getprop does.
	fmt.Fprint(stdout, lines([]string{reply("getprop", "value", p.props[args[0]])}))
	return 0
}

func (p *Phone) wm(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "size" {
		vp, err := p.dev.Viewport(ctx)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintln(stdout, reply("wm-size", "w", strconv.Itoa(int(vp.Width)), "h", strconv.Itoa(int(vp.Height))))
		return 0
	}
	return p.notModelled("wm", args, stderr)
}

// notModelled answers a known command with arguments the fake does not
// model. It fails loudly (exit 255, as a shell command with bad arguments
// does) rather than pretend, so a new client call is noticed.
func (p *Phone) notModelled(cmd string, args []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "fakeandroid: %s %s is not modelled by the fake phone\n", cmd, strings.Join(args, " "))
	return 255
}

// cmd is the `cmd SERVICE …` binder shell.
func (p *Phone) cmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return p.notModelled("cmd", args, stderr)
	}
	switch args[0] {
	case "package":
		return p.pm(ctx, args[1:], stdin, stdout, stderr)
	case "connectivity":
		if len(args) >= 2 && args[1] == "airplane-mode" {
			return p.airplane(ctx, args[2:], stdout, stderr)
		}
	}
	return p.notModelled("cmd", args, stderr)
}

func (p *Phone) airplane(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		on, err := p.dev.AirplaneMode(ctx)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		state := "disabled"
		if on {
			state = "enabled"
		}
		fmt.Fprintln(stdout, reply("airplane-mode", "state", state))
		return 0
	}
	switch args[0] {
	case "enable", "disable":
		if err := p.dev.SetAirplaneMode(ctx, args[0] == "enable"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	return p.notModelled("cmd connectivity airplane-mode", args, stderr)
}

func (p *Phone) settings(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 3 && args[0] == "get" && args[1] == "global" && args[2] == "airplane_mode_on" {
		on, err := p.dev.AirplaneMode(ctx)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		v := "0"
		if on {
			v = "1"
		}
		fmt.Fprintln(stdout, reply("settings-get", "value", v))
		return 0
	}
	if len(args) == 4 && args[0] == "put" && args[1] == "global" && args[2] == "airplane_mode_on" {
		if err := p.dev.SetAirplaneMode(ctx, args[3] == "1"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	// Settings.System.ACCELEROMETER_ROTATION and USER_ROTATION (AOSP
	// Settings.java; USER_ROTATION holds Surface.ROTATION_0.._270 as 0..3):
	// the phone has no accelerometer, so auto-rotate is accepted and
	// ignored, and a fixed rotation turns the device.
	if len(args) == 4 && args[0] == "put" && args[1] == "system" && args[2] == "accelerometer_rotation" && (args[3] == "0" || args[3] == "1") {
		return 0
	}
	if len(args) == 4 && args[0] == "put" && args[1] == "system" && args[2] == "user_rotation" {
		o, ok := map[string]string{"0": "PORTRAIT", "1": "LANDSCAPE_LEFT", "2": "UPSIDE_DOWN", "3": "LANDSCAPE_RIGHT"}[args[3]]
		if !ok {
			return p.notModelled("settings", args, stderr)
		}
		if err := p.dev.SetOrientation(ctx, o); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	return p.notModelled("settings", args, stderr)
}

// am is the activity manager: starting activities and links, stopping
// apps, and the helper's instrumentation.
func (p *Phone) am(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return p.notModelled("am", args, stderr)
	}
	switch args[0] {
	case "start", "start-activity":
		return p.amStart(ctx, args[1:], stdout, stderr)
	case "force-stop", "kill":
		pkg := lastPositional(args[1:], "--user")
		if pkg == "" {
			return p.notModelled("am", args, stderr)
		}
		if pkg == HelperPackage {
			p.stopHelper()
			return 0
		}
		if err := p.dev.StopApp(ctx, pkg, args[0] == "kill"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		p.bump()
		return 0
	case "instrument":
		return p.instrument(ctx, args[1:], stdout, stderr)
	case "get-current-user":
		fmt.Fprintln(stdout, reply("am-get-current-user", "user", "0"))
		return 0
	}
	return p.notModelled("am", args, stderr)
}

// intent is what am start's arguments describe.
type intent struct {
	action, category, data, pkg, component string
	wait, stopFirst                        bool
	extras                                 map[string]any
}

// String is the part of Intent.toString that am prints.
func (in intent) String() string {
	var parts []string
	if in.action != "" {
		parts = append(parts, "act="+in.action)
	}
	if in.category != "" {
		parts = append(parts, "cat=["+in.category+"]")
	}
	if in.data != "" {
		parts = append(parts, "dat="+in.data)
	}
	if in.pkg != "" {
		parts = append(parts, "pkg="+in.pkg)
	}
	if in.component != "" {
		parts = append(parts, "cmp="+in.component)
	}
	if len(in.extras) > 0 {
		parts = append(parts, "(has extras)")
	}
	return strings.Join(parts, " ")
}

// parseIntent reads am start's options (AOSP Intent.parseCommandArgs for
// the ones flow and the anchors send).
func parseIntent(args []string) (intent, error) {
	in := intent{extras: map[string]any{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("option %s needs an argument", a)
			}
			i++
			return args[i], nil
		}
		var err error
		switch a {
		case "-W":
			in.wait = true
		case "-S":
			in.stopFirst = true
		case "-a":
			in.action, err = next()
		case "-c":
			in.category, err = next()
		case "-d":
			in.data, err = next()
		case "-n":
			in.component, err = next()
		case "-p":
			in.pkg, err = next()
		case "-f", "--user":
			_, err = next()
		case "--es", "--ez", "--ei", "--el", "--ef", "--ed":
			var k, v string
			if k, err = next(); err == nil {
				v, err = next()
			}
			if err == nil {
				in.extras[k], err = extraValue(a, v)
			}
		default:
			if strings.HasPrefix(a, "-") {
				return in, fmt.Errorf("unknown option: %s", a)
			}
			// A bare argument is a URI or a component, as am reads it.
			if strings.Contains(a, "/") && !strings.Contains(a, ":") {
				in.component = a
			} else {
				in.data = a
			}
		}
		if err != nil {
			return in, err
		}
	}
	return in, nil
}

func extraValue(flag, v string) (any, error) {
	switch flag {
	case "--ez":
		return strconv.ParseBool(v)
	case "--ei", "--el":
		return strconv.ParseInt(v, 10, 64)
	case "--ef", "--ed":
		return strconv.ParseFloat(v, 64)
	}
	return v, nil
}

func (p *Phone) amStart(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	in, err := parseIntent(args)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 255
	}
	if in.component != "" {
		return p.startComponent(ctx, in, stdout, stderr)
	}
	if in.data != "" {
		// A browser package asks for the link outside the app; sim has no
		// browser, so it resolves nowhere, which is what a phone without
		// that browser says.
		browser := in.pkg == "com.android.chrome" || in.pkg == "org.mozilla.firefox"
		owner := p.linkApp(in.data)
		if err := p.dev.OpenLink(ctx, in.data, browser); err != nil {
			fmt.Fprintln(stderr, reply("am-start-unresolved", "intent", in.String()))
			return 255
		}
		p.setFront(owner)
		p.bump()
		p.transitioned()
		return p.started(in, in.component, stdout)
	}
	fmt.Fprintln(stderr, reply("am-start-unresolved", "intent", in.String()))
	return 255
}

func (p *Phone) startComponent(ctx context.Context, in intent, stdout, stderr io.Writer) int {
	pkg, act, _ := strings.Cut(in.component, "/")
	if !p.isApp(pkg) || (act != mainActivity && act != pkg+mainActivity) {
		fmt.Fprintln(stderr, reply("am-start-missing", "component", in.component))
		return 255
	}
	if in.stopFirst {
		if err := p.dev.StopApp(ctx, pkg, false); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	opts := exec.LaunchOptions{AppID: pkg}
	if len(in.extras) > 0 {
		opts.Arguments = in.extras
	}
	if err := p.dev.LaunchApp(ctx, opts); err != nil {
		fmt.Fprintln(stderr, reply("am-start-missing", "component", in.component))
		return 255
	}
	p.setFront(pkg)
	p.bump()
	p.transitioned()
	return p.started(in, in.component, stdout)
}

func (p *Phone) started(in intent, component string, stdout io.Writer) int {
	if !in.wait {
		fmt.Fprintln(stdout, reply("am-start", "intent", in.String()))
		return 0
	}
	if component == "" {
		component = in.data
	}
	fmt.Fprintln(stdout, reply("am-start-wait", "intent", in.String(), "launchState", "COLD",
		"component", component, "totalMs", "100", "waitMs", "100"))
	return 0
}

// mainActivity is the launcher activity of every sim app: sim models
// screens, not activities, so one name stands for the app.
const mainActivity = ".Main"

// lastPositional is the last argument that is neither a flag nor the value
// of one of valued.
func lastPositional(args []string, valued ...string) string {
	last := ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case contains(valued, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			last = a
		}
	}
	return last
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// apps are the sim app ids, in install order.
func (p *Phone) isApp(pkg string) bool {
	_, ok, err := p.dev.AppViewport(context.Background(), pkg)
	return err == nil && ok
}

func (p *Phone) screencap(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	png, err := p.dev.Screenshot(ctx)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if file := lastPositional(args); file != "" {
		if err := p.files.WriteFile(file, png); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	_, _ = stdout.Write(png)
	return 0
}

// recording is a running screenrecord.
type recording struct {
	path string
	stop chan struct{}
}

// screenrecord runs until killall -INT screenrecord or until the host
// closes the stream, as the real one does, then leaves a file to pull.
func (p *Phone) screenrecord(ctx context.Context, args []string, stderr io.Writer) int {
	path := lastPositional(args, "--bit-rate", "--time-limit", "--size", "--bugreport-size")
	if path == "" {
		return p.notModelled("screenrecord", args, stderr)
	}
	rec := &recording{path: path, stop: make(chan struct{})}
	p.mu.Lock()
	p.recording = rec
	p.mu.Unlock()
	select {
	case <-rec.stop:
	case <-ctx.Done():
	}
	p.mu.Lock()
	if p.recording == rec {
		p.recording = nil
	}
	p.mu.Unlock()
	// The file's bytes are the fake's own: sim draws no video. The MP4
	// "ftyp" box marks it as what a pull would fetch.
	_ = p.files.WriteFile(path, []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"))
	return 0
}

func (p *Phone) killall(args []string, stderr io.Writer) int {
	name := lastPositional(args)
	p.mu.Lock()
	rec := p.recording
	if name == "screenrecord" && rec != nil {
		p.recording = nil
	}
	p.mu.Unlock()
	if name != "screenrecord" || rec == nil {
		fmt.Fprintln(stderr, reply("killall-none", "name", name))
		return 1
	}
	close(rec.stop)
	return 0
}
