package canonical

import "regexp"

// Compiled patterns. Package-level because they sit on hot paths (every
// positional argument, every percentage point); immutable after init.
var (
	percentPointRe = regexp.MustCompile(`^\s*(-?\d+(?:\.\d+)?)\s*%\s*,\s*(-?\d+(?:\.\d+)?)\s*%\s*$`)
	decimalRe      = regexp.MustCompile(`^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$`)
	radixRe        = regexp.MustCompile(`^0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$`)
)
