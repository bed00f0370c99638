//go:build !unix

package android

// processAliveOS cannot tell here; the lock then falls back to the
// device's view (the helper process and the lock's age).
func processAliveOS(pid int) (alive, known bool) { return false, false }
