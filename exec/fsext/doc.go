// Package fsext holds the file operations flow needs beyond the standard
// library's, for files that several flow processes share or that a reader
// must never see half-written:
//
//   - [Acquire] takes an exclusive OS lock on a folder (flock on unix,
//     LockFileEx on Windows) through a dedicated lock file, so the data
//     files beside it can be replaced by rename while the lock is held. The
//     lock belongs to the open file, so the OS drops it when its process
//     dies, however it dies; a waiter polls until a bound or until its
//     context is cancelled.
//   - [WriteFile] replaces a file atomically: a unique temporary file in
//     the same folder, written, synced and closed, then renamed over the
//     target, and the folder synced on unix. A crash at any point leaves
//     the old file or the new one, never a mix.
//     [AppendFile] and [Append] append the same way (old content and new
//     bytes go to the replacement) under an OS lock on a lock file beside
//     the target, so appenders in separate processes lose nothing; and
//     [Create] gives the replacement as a writer for output that streams,
//     such as an event log, committed when complete. The temporary and
//     lock files have short names, so a target name near the file
//     system's limit still works.
//   - [ReadFile] reads a file only when it is a regular file within a size
//     limit, checked before reading, so a path that names a FIFO, a device
//     or a folder fails at once instead of blocking or exhausting memory.
//
// Errors are *canonical.Error without hints: the caller knows what the file
// is for and how the user fixes it. fsext imports canonical only (and
// golang.org/x/sys for the OS locks); it reads no environment and prints
// nothing.
package fsext
