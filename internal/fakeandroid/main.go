// Command fakeandroid serves a fake Android phone (internal/fakeandroid/phone,
// backed by exec/sim) that the real adb server accepts with
// `adb connect HOST:PORT`, for demos and manual tests of flow's Android
// device without a phone:
//
//	go run ./internal/fakeandroid --listen 127.0.0.1:7555 [--app APP.yaml ...] [--events FILE]
//	adb connect 127.0.0.1:7555
//	flow test --device android:127.0.0.1:7555 flows/demo
//
// It prints "ready 127.0.0.1:PORT" once it accepts connections and runs
// until interrupted. --events writes what the apps observed, in sim's
// event-log format. The phone accepts any file as the helper APK (flow
// installs the one it embeds unless --android-helper names another): it
// cannot run one, it plays the helper itself, and it logs the size and
// sha256 of each APK it receives on stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
	"github.com/flow-runner/flow/internal/fakedevice"
)

func main() { fakedevice.Main("fakeandroid", run) }

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("fakeandroid", flag.ContinueOnError)
	flags := fakedevice.Register(fl, "address to accept adb connections on")
	setup, err := fakedevice.Parse(fl, flags, args)
	defer setup.Close()
	if err != nil {
		return err
	}
	fs := adbd.NewMemFS()
	p := phone.New(phone.Options{Apps: setup.Apps, Events: setup.Events, Files: fs, Log: os.Stderr})
	defer p.Close()
	l, err := flags.Listen(stdout)
	if err != nil {
		return err
	}
	err = adbd.Serve(ctx, l, p, adbd.Options{Props: p.Props(), FS: fs})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
