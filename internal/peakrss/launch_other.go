//go:build !unix

package peakrss

// Launch is a no-op where Wrap is not offered.
func Launch() (code int, ok bool) { return 0, false }
