// Package helperapk holds flow's Android helper: the Java sources of the
// dev.flow.helper instrumentation; the APK flow ships, built from them by
// real Android tools (BuildDist, `go run ./helper-apk/cmd/builddist`:
// javac against Robolectric's android-all, AOSP's dx, Debian's aapt,
// zipalign and apksigner), committed in dist/ and embedded (Embedded),
// which a run installs unless given another (Locate); the build with the
// user's own Android SDK that `flow android helper build` runs (Build); the
// flow-helper-v1 wire transcripts every party replays (testdata/wire,
// PROTOCOL.md); and the Go tests that compile the whole helper against
// stubs/, unit-test its pure Java on the JVM and check the shipped APK with
// apksigner, aapt and dexdump.
package helperapk
