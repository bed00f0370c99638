// Package peakrss measures the peak resident memory of a command a test
// starts, and only that command's.
//
// The obvious measure, the ru_maxrss wait4 reports for the child, is wrong
// on Linux when the parent is big: Go starts children with
// clone(CLONE_VM|CLONE_VFORK), and exec records the high-water mark of the
// memory it replaces (fs/exec.c, exec_mmap: setmax_mm_hiwater_rss), which
// is the parent's. A test binary that has grown to 260 MB so reports
// 260 MB for a child that never passed 35 MB. Here the test binary first
// re-executes itself as a small launcher; the launcher starts the command,
// whose ru_maxrss then holds the launcher's few megabytes at most, and
// writes it to a file the test reads.
package peakrss
