package flow

import (
	"context"
	"io"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/ios"
)

// Env is everything flow takes from its process: standard streams, the
// environment, the tools on PATH, the state folder. The zero value takes
// nothing: no environment variables, no programs, no saved state, so a
// test or an embedding program decides what flow may reach.
type Env struct {
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  func(string) string
	Environ func() []string
	// IsTTY says stdout is a terminal, where progress redraws in place.
	IsTTY bool
	// StateDir keeps sim's device state between invocations; empty keeps
	// none (tests run isolated).
	StateDir string
	// LookPath finds a program on PATH (adb, to start its server); nil
	// finds none, so a test never starts a program it did not mean to.
	LookPath func(string) (string, error)
	// ADB reaches the adb server; nil is the real one at
	// ANDROID_ADB_SERVER_PORT (tests give a fake to pin what flow does
	// with each answer).
	ADB func(ctx context.Context, env Env) (androidHost, error)
	// IOSLink reaches real iPhones; nil is go-ios over usbmuxd (tests give
	// a fake phone).
	IOSLink ios.PhoneLink
	// Args is the command line of this invocation (flow's own argv),
	// named in an Android device's lock so a second run on the device
	// can say which run holds it; nil names it "flow".
	Args []string
	// OnStep, when set, hears each step flow test finishes (flow mcp
	// sends them to the client as progress).
	OnStep func(flow string, step exec.StepResult, description string)
}

// Var is the environment variable name, or "" when Getenv is nil.
func (e Env) Var(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// Environment is the whole environment, KEY=VALUE, or nil when Environ is
// nil.
func (e Env) Environment() []string {
	if e.Environ == nil {
		return nil
	}
	return e.Environ()
}
