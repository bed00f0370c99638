// Package fswatch waits for files to change. It polls: flows are a few
// small files, a poll every quarter second costs nothing, and polling sees
// every way an editor saves (in place, or a new file renamed over the
// old) on every OS and file system, network and container mounts included,
// where change notifications are missing or lost. `flow test --continuous`
// uses it; `flow studio` is meant to share it.
package fswatch
