package convert

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestToMaestroForKeepsTheRetry: an .ad press taps again when nothing
// changed; the Maestro flow written for it keeps that under the version it
// is written for, writing retryTapIfNoChange only where that version's
// default differs (1.39 retries, the current Maestro does not since 1.41,
// Maestro PR #2489).
func TestToMaestroForKeepsTheRetry(t *testing.T) {
	t.Parallel()
	f, err := loadScript("s.ad", []byte("open com.example.shop --relaunch\npress \"text=\\\"Buy\\\"\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	press, ok := f.Commands[len(f.Commands)-1].(*canonical.Tap)
	if !ok || !press.RetryIfNoChange {
		t.Fatalf("an .ad press is a retried tap, got %#v", f.Commands[len(f.Commands)-1])
	}
	for _, c := range []struct {
		v         canonical.MaestroVersion
		retry     bool
		want, not string
	}{
		{canonical.MaestroCurrent, true, "retryTapIfNoChange: true", ""},
		{canonical.MaestroCurrent, false, "", "retryTapIfNoChange"},
		{canonical.Maestro139, true, "", "retryTapIfNoChange"},
		{canonical.Maestro139, false, "retryTapIfNoChange: false", ""},
	} {
		press.RetryIfNoChange = c.retry
		out, err := ToMaestroFor(f, "", c.v)
		if err != nil {
			t.Fatal(err)
		}
		if c.want != "" && !strings.Contains(string(out), c.want) {
			t.Errorf("%s, retry %v: no %q in\n%s", c.v, c.retry, c.want, out)
		}
		if c.not != "" && strings.Contains(string(out), c.not) {
			t.Errorf("%s, retry %v: %q in\n%s", c.v, c.retry, c.not, out)
		}
	}
}
