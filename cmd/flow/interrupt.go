package main

import (
	"context"
	"errors"
	"os"
	"syscall"

	"github.com/flow-runner/flow/canonical"
)

// exitInterrupted is the exit status of a command stopped before it
// finished when no signal says otherwise (a cancelled context in-process):
// 130, what a shell reports for a program Ctrl-C ended.
const exitInterrupted = 130

// stopSignal is the cause of the run context's cancellation when a signal
// stopped flow.
type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string { return signalName(s.sig) + " received" }

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT (Ctrl-C)"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interruptedExit is the exit status of an interrupted command: 128 plus
// the signal's number, as a shell reports a program the signal ended
// (130 for Ctrl-C, 143 for SIGTERM), so scripts and CI tell "stopped"
// from every verdict of contracts §1.
func interruptedExit(ctx context.Context) int {
	var s stopSignal
	if errors.As(context.Cause(ctx), &s) {
		if n, ok := s.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return exitInterrupted
}

// interruptedError is what flow prints when a command was stopped: which
// signal, and what happens to the work.
func interruptedError(ctx context.Context, what string) *canonical.Error {
	msg := what + " was interrupted"
	var s stopSignal
	if errors.As(context.Cause(ctx), &s) {
		msg = what + " was stopped by " + signalName(s.sig)
	}
	return canonical.NewError(canonical.CodeInterrupted, msg).Wrap(ctx.Err())
}
