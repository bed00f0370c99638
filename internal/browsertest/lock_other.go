//go:build !unix

package browsertest

import "os"

// Without flock the tests run unserialized; their timing figures are then
// less reliable on a small machine.
func lockFile(*os.File) error   { return nil }
func unlockFile(*os.File) error { return nil }
