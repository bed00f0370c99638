// Package helperapk holds flow's Android helper: the Java sources of the
// dev.flow.helper instrumentation (embedded, so the flow binary can build
// the APK with the user's Android SDK), the flow-helper-v1 wire transcripts
// every party replays (testdata/wire, PROTOCOL.md), and the Go tests that
// compile and unit-test the Java on the JVM.
package helperapk
