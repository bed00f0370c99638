package maestro

import "regexp"

// Compiled patterns. Package-level because compiling them per use dominated
// loading a large workspace; they are immutable after init.
var (
	coordinateRe     = regexp.MustCompile(`^\s*(-?\d+)\s*,\s*(-?\d+)\s*$`)
	percentRe        = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\s*%\s*,\s*(\d+(?:\.\d+)?)\s*%\s*$`)
	yamlLineRe       = regexp.MustCompile(`line (\d+)`)
	yamlLinePrefixRe = regexp.MustCompile(`^line \d+: `)
	webAppRe         = regexp.MustCompile(`^https?://`)
	identRe          = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)
)
