// Package sim is flow's built-in simulated touchscreen (--device sim): app
// models described in YAML (contracts §7), recognizers for taps, long
// presses, pans, flings, pinches and rotations, and a virtual clock so
// waits cost no wall time. It is a real adapter, used for the README demo
// and end-to-end tests, and it ships the demo shop app (apps/shop.yaml),
// in Android's 1080x2400 pixels, or in an iPhone's 390x844 points on a
// device with the iOS profile (sim:ios, the fake iOS runner), as that
// platform reports positions; app models given by the caller keep the
// units they are written in.
//
// # What it models
//
// An App has screens of elements. The device keeps, per installed app, a
// back stack (goto pushes, back pops, back on the first screen leaves the
// app), the focused field and whether the keyboard is up, and each
// element's state: text, checked, visibility, scroll offset, zoom scale and
// rotation. UI state lives as long as the app's process: stopApp (or
// backing out of the first screen) makes the next launch start from the
// model, except elements marked persist: true, which only clearState
// resets. appearAfterMs counts on the device clock from when the element's
// screen was pushed.
//
// The hierarchy, hit testing, gestures and the screenshot all read one
// layout: children of a scroll container are moved by its offset, and
// those wholly outside it, hidden ones and not-yet-appeared ones are left
// out; partly visible ones keep their full bounds.
//
// # Touch
//
// A tap goes to the deepest element under the point that handles it
// (onTap, an editable field, a checkable element), else the deepest
// element; disabled elements take it and do nothing. Presses shorter than
// 500 ms are taps. One-contact plans scroll the container under their
// first point along its axis by the finger's travel, then by the release
// velocity times 499 ms (UIKit's normal deceleration), clamped to the
// content; see scroll.go for the constants and how each execution profile
// moves the finger. Two-contact plans scale and rotate the zoomable
// element under their first centroid, or pan where there is none. Plans
// with a sample off the screen are refused with INVALID_ARGS.
//
// # Events
//
// The runtime records every action; sim records only what the app observed
// right after it ("observed" lines of contracts §8: tap, longPress, focus,
// text, submit, toggle, show, hide, navigate, exit, scroll, pinch,
// rotate). Each action also costs a little virtual time (tapCostMs and
// friends in device.go) and a gesture its planned duration.
//
// # Saved state
//
// A device lives in memory only; sim reads and writes no files. To keep
// one across processes, so that separate flow commands act on one device
// as on a real phone, the caller saves [Device.State] after a call and
// rebuilds the device with [Restore] before the next. The snapshot is
// versioned JSON with sorted keys ([StateVersion]): the app models (the
// demo app by name, --app models by their YAML source, so later calls need
// no --app), the app in front, back stacks with their entry times and
// focus, the keyboard, element state that differs from the model, the
// clock's time (a restored virtual clock is moved up to it, so
// appearAfterMs keeps counting) and device settings. Resetting is
// discarding the snapshot: the next device is a fresh New one. A snapshot
// from another version, or a damaged one, is INVALID_ARGS with that hint.
//
// # Recording
//
// StartAnimation and StopAnimation record the screen as an animated GIF
// (exec.Animation): a frame at the start, then one at the end of every
// call that left the screen different, including reads during which the
// clock let an element appear, each stamped with the device clock. The
// runtime writes the file (startRecording writes <path>.gif).
//
// sim imports canonical, planner and exec, plus yaml.v3 and
// golang.org/x/image for the screenshot font; never another adapter. It
// reads no files, no environment and no wall clock of its own.
package sim
