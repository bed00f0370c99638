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
// package state. Device transport (adb, the helper session) will live in its
// own files and is the only code here allowed to touch a device.
//
// android may import canonical, planner, exec and its own device library. It
// must never import the other adapters (ios, webdriver, sim), maestro or
// compat, and it must never regenerate geometry: it only resamples the
// trajectory the planner already decided.
package android
