// Package fakedevice is what the fake devices' commands share
// (go run ./internal/fakeandroid, go run ./internal/fakeios): the
// --listen, --app and --events flags, the ready line, and main's signal
// handling. Test and demo code only; flow never imports it.
package fakedevice

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"flag"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// Main runs a fake device's command until Ctrl-C or SIGTERM; an error
// exits 2 with the command's name.
func Main(name string, run func(ctx context.Context, args []string, stdout io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(2)
	}
}

type appFlags []string

func (a *appFlags) String() string     { return fmt.Sprint(*a) }
func (a *appFlags) Set(v string) error { *a = append(*a, v); return nil }

// Flags are the options every fake device takes.
type Flags struct {
	listen *string
	events *string
	apps   appFlags
}

// Register adds --listen (described by listenUsage), --events and --app
// to fl.
func Register(fl *flag.FlagSet, listenUsage string) *Flags {
	f := &Flags{
		listen: fl.String("listen", "127.0.0.1:0", listenUsage),
		events: fl.String("events", "", "write what the apps observed to this file (JSON lines)"),
	}
	fl.Var(&f.apps, "app", "an app model (sim's YAML format); repeat for more; the demo shop is always installed")
	return f
}

// Setup is what the flags asked for: the app models and the event log
// (nil when --events is not given). Close closes the log's file.
type Setup struct {
	Apps   []*sim.App
	Events exec.EventLog
	Close  func() error
}

// Parse parses args, refusing positional arguments, and loads the apps
// and opens the event log.
func Parse(fl *flag.FlagSet, f *Flags, args []string) (Setup, error) {
	s := Setup{Close: func() error { return nil }}
	if err := fl.Parse(args); err != nil {
		return s, err
	}
	if fl.NArg() > 0 {
		return s, fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	for _, file := range f.apps {
		data, err := os.ReadFile(file)
		if err != nil {
			return s, err
		}
		a, err := sim.LoadApp(file, data)
		if err != nil {
			return s, err
		}
		s.Apps = append(s.Apps, a)
	}
	if *f.events != "" {
		file, err := os.Create(*f.events)
		if err != nil {
			return s, err
		}
		s.Events, s.Close = exec.NewJSONLog(file, exec.WallClock{}), file.Close
	}
	return s, nil
}

// Listen listens on --listen and prints the ready line tests and demos
// wait for: "ready HOST:PORT".
func (f *Flags) Listen(stdout io.Writer) (net.Listener, error) {
	l, err := net.Listen("tcp", *f.listen)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "ready %s\n", l.Addr())
	return l, nil
}
