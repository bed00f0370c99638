package maestro

import (
	"regexp"
	"sync"
)

// Compiled patterns. Package-level because compiling them per use dominated
// loading a large workspace; they are immutable after init.
var (
	coordinateRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(-?\d+)\s*,\s*(-?\d+)\s*$`) })
	percentRe    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\s*%\s*,\s*(\d+(?:\.\d+)?)\s*%\s*$`)
	})
	yamlLineRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })
	yamlLinePrefixRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line \d+: `) })
	webAppRe         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^https?://`) })
	identRe          = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`) })
)
