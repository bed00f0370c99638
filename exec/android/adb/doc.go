// Package adb talks to the adb server (the host side of Android's debug
// bridge) over its smart-socket protocol: device discovery, shell v2 with
// exit codes and separate stderr, binary-safe exec:, long-running shell
// streams (am instrument), forwards to localabstract: sockets, streamed
// installs, and file push and pull.
//
// gadb (github.com/electricbubble/gadb, pinned v0.1.0) does the sync
// protocol for Push and Pull. Everything else is ours, for reasons gadb
// cannot meet: its shell is v1 (no exit code, stderr merged), it has no
// exec:, no streams, no context (only a global read timeout), forwards
// only tcp: to tcp:, and its device list drops lines with fewer than four
// fields, which is how the server lists an offline device — one we must
// name in the error, not lose.
//
// The wire is the one AOSP documents in adb's SERVICES.TXT and
// protocol.txt, and that shared/docs/android-transport.md measured against
// Debian's adb 29.0.6: a request is "%04x" + text; the reply is OKAY, or
// FAIL + "%04x" + message. Every failure here is a *canonical.Error with
// code DEVICE_UNAVAILABLE naming the serial and the server, with a hint
// (INTERRUPTED when the context ended the request).
//
// Every read has a deadline on silence, never on a whole transfer: 5 s
// for the server's own replies, 10 s for a device's answer to the open of
// a service, 2 minutes between two packets of a command's output or a
// transfer, 5 minutes for an install's verdict. A long-running stream
// (StartShell) has none after its open: its holder bounds its waits.
package adb
