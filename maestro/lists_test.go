package maestro

import (
	"slices"
	"testing"
)

// TestTapKeysAndLabel: the written-out list stays tapKeys plus label, so
// a tap's selector accepts the same keys whichever list a decoder uses.
func TestTapKeysAndLabel(t *testing.T) {
	t.Parallel()
	if got, want := tapKeysAndLabel(), append(tapKeys(), "label"); !slices.Equal(got, want) {
		t.Errorf("tapKeysAndLabel() = %v, want %v", got, want)
	}
}
