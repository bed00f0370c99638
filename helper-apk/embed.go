package helperapk

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

// embeddedAPK is the helper this flow binary ships and installs by
// default: dist/flow-helper.apk, built from src/ by cmd/builddist
// (BuildDist) and checked bit for bit by CI.
//
//go:embed dist/flow-helper.apk
var embeddedAPK []byte

// Embedded is the shipped helper APK. Callers must not modify it.
func Embedded() []byte { return embeddedAPK }

// EmbeddedSHA256 is the shipped helper's checksum, hex: what a device that
// has it installed serves back from `pm path`, and what
// dist/flow-helper.txt records.
func EmbeddedSHA256() string {
	sum := sha256.Sum256(embeddedAPK)
	return hex.EncodeToString(sum[:])
}

// Helper is the APK a run installs: a file (--android-helper,
// FLOW_ANDROID_HELPER) or the embedded one.
type Helper struct {
	// Path is the APK file; empty means the embedded helper.
	Path string
	// APK is the embedded helper's bytes when Path is empty.
	APK []byte
}

// String names the helper for messages.
func (h Helper) String() string {
	if h.Path != "" {
		return h.Path
	}
	sum := sha256.Sum256(h.APK)
	return "flow's embedded helper (sha256 " + hex.EncodeToString(sum[:8]) + "…)"
}
