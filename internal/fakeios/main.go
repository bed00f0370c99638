// Command fakeios serves a fake flow iOS runner (internal/fakeios/runner,
// backed by exec/sim with the iOS profile) for demos and manual tests of
// flow's iOS device without a Mac:
//
//	go run ./internal/fakeios --listen 127.0.0.1:7001 [--app APP.yaml ...] [--events FILE] [--iphone]
//	    [--alert 'APPID|TITLE|MESSAGE|BUTTON,BUTTON' ...] [--keyboard-stays]
//	flow test --ios-runner-url http://127.0.0.1:7001 flows/demo/02-login.yaml
//
// It prints "ready 127.0.0.1:PORT" once it accepts connections and runs
// until interrupted. --iphone makes it report a real iPhone (two-finger
// gestures are then refused). --alert declares a SpringBoard alert (a
// permission prompt) the app raises on its first launch; --keyboard-stays
// makes hideKeyboard fail as on a screen that keeps its keyboard.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/flow-runner/flow/internal/fakedevice"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

func main() { fakedevice.Main("fakeios", run) }

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("fakeios", flag.ContinueOnError)
	flags := fakedevice.Register(fl, "address to serve flow-runner-v1 on")
	iphone := fl.Bool("iphone", false, "report a real iPhone instead of a simulator")
	stays := fl.Bool("keyboard-stays", false, "hideKeyboard leaves the keyboard up and fails, as the runner does on such a screen")
	var alerts []runner.Alert
	fl.Func("alert", "a SpringBoard alert an app raises on its first launch: 'APPID|TITLE|MESSAGE|BUTTON,BUTTON' (repeatable)", func(v string) error {
		parts := strings.Split(v, "|")
		if len(parts) != 4 || parts[0] == "" || parts[3] == "" {
			return fmt.Errorf("--alert %q: want APPID|TITLE|MESSAGE|BUTTON,BUTTON, for example 'com.example.shop|Allow Notifications?||Don’t Allow,Allow'", v)
		}
		alerts = append(alerts, runner.Alert{AppID: parts[0], Title: parts[1], Message: parts[2], Buttons: strings.Split(parts[3], ",")})
		return nil
	})
	setup, err := fakedevice.Parse(fl, flags, args)
	defer setup.Close()
	if err != nil {
		return err
	}
	r := runner.New(runner.Options{Simulator: !*iphone, Apps: setup.Apps, Events: setup.Events, Alerts: alerts, KeyboardStays: *stays})
	l, err := flags.Listen(stdout)
	if err != nil {
		return err
	}
	return r.Serve(ctx, l)
}
