package js

import (
	"context"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestDialectOfVersion: the current Maestro runs GraalJS unless the header
// says jsEngine: rhino (Maestro PR #2631, whose description lists
// ${parseInt(3)} resolving to 3 where Rhino gives 3.0); 1.39, and a flow
// whose version is unset, keep Rhino unless graaljs is asked for.
func TestDialectOfVersion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v        canonical.MaestroVersion
		jsEngine string
		force    bool
		want     Dialect
	}{
		{canonical.MaestroCurrent, "", false, GraalJS},
		{canonical.MaestroCurrent, "rhino", false, Rhino},
		{canonical.MaestroCurrent, "rhino", true, Rhino},
		{canonical.MaestroCurrent, "graaljs", false, GraalJS},
		{canonical.Maestro139, "", false, Rhino},
		{canonical.Maestro139, "", true, GraalJS},
		{canonical.Maestro139, "graaljs", false, GraalJS},
		{canonical.Maestro139, "rhino", false, Rhino},
		{"", "", false, Rhino},
	} {
		d := DialectOf(c.v, c.jsEngine, c.force)
		if d != c.want {
			t.Errorf("DialectOf(%q, %q, %v) = %s, want %s", c.v, c.jsEngine, c.force, d, c.want)
		}
		e := New(Options{Dialect: d})
		got, err := e.Interpolate(context.Background(), canonical.Text("${parseInt(3)}", canonical.Pos{}))
		if err != nil {
			t.Fatal(err)
		}
		want := map[Dialect]string{GraalJS: "3", Rhino: "3.0"}[c.want]
		if got != want {
			t.Errorf("%q %q: ${parseInt(3)} = %q, want %q", c.v, c.jsEngine, got, want)
		}
	}
}
