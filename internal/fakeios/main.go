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
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

type appFlags []string

func (a *appFlags) String() string     { return fmt.Sprint(*a) }
func (a *appFlags) Set(v string) error { *a = append(*a, v); return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeios:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("fakeios", flag.ContinueOnError)
	listen := fl.String("listen", "127.0.0.1:0", "address to serve flow-runner-v1 on")
	events := fl.String("events", "", "write what the apps observed to this file (JSON lines)")
	iphone := fl.Bool("iphone", false, "report a real iPhone instead of a simulator")
	var apps appFlags
	fl.Var(&apps, "app", "an app model (sim's YAML format); repeat for more; the demo shop is always installed")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	o := runner.Options{Simulator: !*iphone}
	for _, f := range apps {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		a, err := sim.LoadApp(f, data)
		if err != nil {
			return err
		}
		o.Apps = append(o.Apps, a)
	}
	if *events != "" {
		f, err := os.Create(*events)
		if err != nil {
			return err
		}
		defer f.Close()
		o.Events = exec.NewJSONLog(f, exec.WallClock{})
	}
	r := runner.New(o)
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ready %s\n", l.Addr())
	return r.Serve(ctx, l)
}
