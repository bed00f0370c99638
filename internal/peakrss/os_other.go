//go:build !darwin

package peakrss

func isDarwin() bool { return false }
