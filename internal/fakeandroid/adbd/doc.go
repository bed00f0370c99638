// Package adbd is a fake Android debug bridge daemon: the device end of
// adb's transport protocol, served on TCP so that the real adb server
// accepts it with `adb connect HOST:PORT`, as it accepts an emulator or a
// phone over Wi-Fi. Services are answered by a Handler (shell, exec:,
// forwarded sockets) and by an in-memory file system (sync: push, pull,
// stat, list).
//
// It follows AOSP's adb protocol.txt and SERVICES.TXT and what
// shared/docs/android-transport.md measured against Debian's adb 29.0.6:
// CNXN without AUTH, a banner with no trailing NUL (adb 29 drops the last
// feature otherwise), outgoing WRTE no larger than the maxdata both sides
// announced (a larger one makes the server drop the device), and one WRTE
// in flight per stream.
//
// It is test tooling under internal/: product code never imports it.
package adbd
