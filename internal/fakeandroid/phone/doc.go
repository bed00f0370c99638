// Package phone is a fake Android phone for tests and demos: an
// adbd.Handler (internal/fakeandroid/adbd) whose shell commands and
// instrumentation helper are backed by an exec/sim device, so that flow's
// Android transport can run whole flows through the real adb server with
// no phone. It is test tooling: product code never imports it.
//
// # Shell
//
// A shell stream's command line is read as Android's sh would read the
// subset adb clients send (quotes, ";", "&&", "||", sh -c) and each simple
// command goes to a table of the commands flow, Maestro and agent-device
// run (shared/docs/android-ios-design.md §A5): getprop, wm size, pm and cmd
// package (list, path, resolve-activity, install, uninstall, clear, grant,
// revoke), am (start, force-stop, kill, instrument, get-current-user),
// settings and cmd connectivity for airplane mode, appops, screenrecord and
// killall -INT screenrecord, screencap. A command the table lacks is "not
// found" (127); a known command with arguments it does not model fails with
// exit 255 and says so, rather than pretending.
//
// Every reply's format comes from a file in testdata/ that names its source
// on its first line. Most sources are AOSP shell commands read from the
// AOSP tree as the anchors' parsers consume them; none was captured on a
// device (there is none here), and files whose wording is from memory say
// so. A capture from a real device should replace them.
//
// `input` is answered with exit 1 and the marker
// "fakeandroid: input is forbidden (ADR 0013)", and recorded (Forbidden):
// flow must never shell out for input, and a test that makes it fails.
//
// # Helper
//
// Any install is the helper (flow installs nothing else; the fake cannot
// read an APK): the bytes are kept, served back at the path pm path names,
// and reported with the versionCode the test gives (Options). Each install
// is recorded with its size and sha256 (Installs, and a line on
// Options.Log), so a test can check that flow installed exactly the helper
// it embeds. `am
// instrument -w -e socket NAME dev.flow.helper/.FlowInstrumentation` opens
// localabstract:NAME for a flow-helper-v1 server (helper-apk/PROTOCOL.md)
// backed by sim, prints the ready block and keeps the stream open until the
// helper quits or is stopped. If the host closes that stream first, the
// helper keeps serving until quit or am force-stop dev.flow.helper. A
// second am instrument force-stops a running helper first, as AOSP's
// ActivityManagerService.startInstrumentation does, so two flow runs on
// one phone break each other unless flow's device lock keeps the second
// out; ln -s, readlink, rm and pidof are modelled for that lock.
//
// UiAutomation is one per phone and bound to the am process that started
// the helper (uiautomation.go): with Options.UiAutomationHeldBy (or
// HoldUiAutomation) another automation holds it and a helper start prints
// the helper's failed block (cause uiautomation-busy, AOSP
// UiAutomationManager.registerUiTestAutomationServiceLocked); KillAm ends
// the am processes, after which the helper answers every UiAutomation op
// DEVICE_UNAVAILABLE "UiAutomation disconnected" and ends its session (AOSP
// UiAutomationConnection).
//
// The helper validates touch payloads as the Java helper does and replays
// them on sim with their samples unchanged; stationary one-contact plans
// are taps or long presses by duration. Every touch payload is kept byte
// for byte (Touches) so tests can pin what flow sent.
//
// Platform behaviour the tests of issue 19 need (each with its AOSP source
// beside the code): WRITE_EXTERNAL_STORAGE is a runtime grant on API ≤ 28
// (install -g, pm grant; the media store refuses the helper without it);
// toasts (ShowToast) arrive as TYPE_NOTIFICATION_STATE_CHANGED and the
// helper shows Maestro's synthetic android.widget.Toast node for 3.5 s;
// SystemUI emits events while the app is still (Options.SystemUIEvery),
// which eventSeq counts and settle ignores; the first DOWN after a
// transition waits on API 30+ (Options.DownWaitAfterTransition) and the
// helper answers downWaitMs.
//
// Faults (Options.Faults) make the helper never ready, drop its connection
// after N requests, or installs fail.
package phone
