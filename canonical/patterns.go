package canonical

import (
	"regexp"
	"sync"
)

// Compiled patterns. Package-level because they sit on hot paths (every
// positional argument, every percentage point); compiled on first use, not
// at start-up, so a command that never parses a coordinate does not pay
// for them (issue 23: nothing initialized before it is needed).
var (
	decimalRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$`) })
	radixRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$`) })
	// kotlinDoubleRe() is the screen Kotlin's String.toDoubleOrNull applies
	// before java.lang.Double.parseDouble: the grammar of Double.valueOf's
	// documentation (kotlin-stdlib StringNumberConversionsJVM.kt,
	// ScreenFloatValueRegEx), ASCII digits only, no underscores.
	kotlinDoubleRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[\x00-\x20]*[+-]?(?:NaN|Infinity|(?:(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?` +
			`|\.[0-9]+(?:[eE][+-]?[0-9]+)?` +
			`|(?:0[xX][0-9a-fA-F]+\.?|0[xX][0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?))[\x00-\x20]*$`)
	})
)
