// Command fakeios serves a fake flow iOS runner (internal/fakeios/runner,
// backed by exec/sim with the iOS profile) for demos and manual tests of
// flow's iOS device without a Mac:
//
//	go run ./internal/fakeios --listen 127.0.0.1:7001 [--app APP.yaml ...] [--events FILE] [--iphone]
//	flow test --ios-runner-url http://127.0.0.1:7001 flows/demo/02-login.yaml
//
// It prints "ready 127.0.0.1:PORT" once it accepts connections and runs
// until interrupted. --iphone makes it report a real iPhone (two-finger
// gestures are then refused).
package main

import (
	"context"
	"flag"
	"io"

	"github.com/flow-runner/flow/internal/fakedevice"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

func main() { fakedevice.Main("fakeios", run) }

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("fakeios", flag.ContinueOnError)
	flags := fakedevice.Register(fl, "address to serve flow-runner-v1 on")
	iphone := fl.Bool("iphone", false, "report a real iPhone instead of a simulator")
	setup, err := fakedevice.Parse(fl, flags, args)
	defer setup.Close()
	if err != nil {
		return err
	}
	r := runner.New(runner.Options{Simulator: !*iphone, Apps: setup.Apps, Events: setup.Events})
	l, err := flags.Listen(stdout)
	if err != nil {
		return err
	}
	return r.Serve(ctx, l)
}
