// Package helperapk holds flow's Android helper: the Java sources of the
// dev.flow.helper instrumentation, embedded so the flow binary can build
// the APK with the user's own Android SDK (Build, Locate), the
// flow-helper-v1 wire transcripts every party replays (testdata/wire,
// PROTOCOL.md), and the Go tests that compile the whole helper against
// stubs/ and unit-test its pure Java on the JVM. No APK is committed.
package helperapk
