package maestro

import (
	"regexp"
	"sync"
)

// Compiled patterns. Package-level because compiling them per use dominated
// loading a large workspace; they are immutable after init.
var (
	yamlLineRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })
	yamlLinePrefixRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line \d+: `) })
	identRe          = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`) })
)
