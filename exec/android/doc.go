// Package android lowers canonical gesture plans to the Android touch
// transport of agent-device §5: the android-touch-plan-v1 payload that the
// bundled automation helper validates and injects, and the MotionEvent
// schedule it injects that payload as.
//
// The helper injects exactly the samples it receives and never interpolates,
// while a canonical one-contact plan carries only its endpoint samples. [Lower]
// therefore densifies one-contact plans to ~16 ms linear samples and passes
// two-contact plans through unchanged. Its result, [TransportPlan], is a type
// distinct from planner.Plan whose fields only [Lower] can set, so an injection
// seam that takes a TransportPlan cannot be handed an undensified plan: skipping
// the lowering is a compile error rather than a silently sparse gesture on a
// device (ADR 0013).
//
// Lowering and scheduling are pure: no I/O, no clock, no randomness, no
// package state. [Device] (device.go, session.go, install.go) is the only
// code here that touches a device: adb through exec/android/adb for the
// package manager, activity manager and settings, and one persistent
// flow-helper-v1 session (helper.go, helper-apk/PROTOCOL.md) for every
// screen read and every touch. There is no shell mode: a device whose
// helper cannot be installed or started is not opened (ADR 0013).
//
// The helper's UiAutomation lives only as long as the `am instrument`
// process that started it: am owns the UiAutomationConnection, and
// system_server drops the automation when that process's binder token
// dies (AOSP UiAutomationConnection, UiAutomationManager). The helper
// process itself outlives am, but then sees no window and has every
// injection refused; it answers DEVICE_UNAVAILABLE "UiAutomation
// disconnected" (helper-apk/PROTOCOL.md) and finishes, and onHelper treats
// that as a dropped session: one restart per device, the request repeated
// on the new session (the helper did not act on it). So a session is one
// Device's lifetime; one-off device commands (`flow press …`) pay a
// session start each, and flow keeps the stream open for as long as the
// device is open.
//
// UiAutomation is one per device: when another automation holds it (a
// Maestro or Appium driver, `uiautomator dump`, Studio's Layout Inspector)
// the helper reports its failed status block instead of crashing, and
// opening the device is DEVICE_UNAVAILABLE naming the cause and how to stop
// the other automation.
//
// One flow process per device: `am instrument` force-stops a running
// helper, so a run takes the device's lock (lock.go, a symbolic link
// under /data/local/tmp naming the run) before it installs or starts
// anything, and a second run, or a one-off command, on a busy device is
// refused with DEVICE_UNAVAILABLE naming the first. Locks of runs that
// are gone are taken over.
//
// A link that stays open and stops answering (a wedged USB link, a frozen
// emulator) is found by link.go: while an operation is silent, the device
// is pinged, and one that does not answer within adb's 10 s is lost
// (DEVICE_UNAVAILABLE): the operation ends, the session is not restarted
// on it, and every later operation fails at once. Closing a session gets
// a few seconds of its own, whatever the caller's context.
//
// The helper's hierarchy dump is Maestro's UIAutomator format, read by
// exec/uiautomator (shared with the Appium device); [ParseHierarchy] only
// adds the helper's error hint.
//
// android may import canonical, planner, exec, exec/uiautomator and its own
// device library. It
// must never import the other adapters (ios, webdriver, sim), maestro or
// compat, and it must never regenerate geometry: it only resamples the
// trajectory the planner already decided.
package android
