// Command fakeandroid serves a fake Android phone (internal/fakeandroid/phone,
// backed by exec/sim) that the real adb server accepts with
// `adb connect HOST:PORT`, for demos and manual tests of flow's Android
// device without a phone:
//
//	go run ./internal/fakeandroid --listen 127.0.0.1:7555 [--app APP.yaml ...] [--events FILE]
//	adb connect 127.0.0.1:7555
//	flow test --device android:127.0.0.1:7555 --android-helper ANY_FILE flows/demo
//
// It prints "ready 127.0.0.1:PORT" once it accepts connections and runs
// until interrupted. --events writes what the apps observed, in sim's
// event-log format. The phone accepts any file as the helper APK: it
// cannot run one, it plays the helper itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

type appFlags []string

func (a *appFlags) String() string     { return fmt.Sprint(*a) }
func (a *appFlags) Set(v string) error { *a = append(*a, v); return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeandroid:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("fakeandroid", flag.ContinueOnError)
	listen := fl.String("listen", "127.0.0.1:0", "address to accept adb connections on")
	events := fl.String("events", "", "write what the apps observed to this file (JSON lines)")
	var apps appFlags
	fl.Var(&apps, "app", "an app model (sim's YAML format); repeat for more; the demo shop is always installed")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	var models []*sim.App
	for _, f := range apps {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		a, err := sim.LoadApp(f, data)
		if err != nil {
			return err
		}
		models = append(models, a)
	}
	o := phone.Options{Apps: models}
	if *events != "" {
		f, err := os.Create(*events)
		if err != nil {
			return err
		}
		defer f.Close()
		o.Events = exec.NewJSONLog(f, exec.WallClock{})
	}
	fs := adbd.NewMemFS()
	o.Files = fs
	p := phone.New(o)
	defer p.Close()
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ready %s\n", l.Addr())
	err = adbd.Serve(ctx, l, p, adbd.Options{Props: p.Props(), FS: fs})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
