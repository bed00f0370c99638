package convert

import (
	"errors"
	"reflect"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// An .ad line becomes the Maestro items a flow file appends: one per
// command the line normalizes to, on the header's app, for the Maestro
// version given; a line with a command Maestro cannot express yields no
// item at all and every problem, coded and with a hint.
func TestToMaestroSteps(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line, app string
		v         canonical.MaestroVersion
		want      []string
	}{
		{`press text="Log in"`, "com.example.shop", canonical.Maestro139, []string{"- tapOn: Log in"}},
		// The versions differ in whether a tap retries by default.
		{`press text="Log in"`, "com.example.shop", canonical.MaestroCurrent, []string{"- tapOn:\n    text: Log in\n    retryTapIfNoChange: true"}},
		{`fill id=email "ada@example.com"`, "com.example.shop", canonical.Maestro139,
			[]string{"- tapOn:\n    id: email", "- inputText: ada@example.com"}},
		{"back", "com.example.shop", canonical.MaestroCurrent, []string{"- back"}},
		// The header's app is left out; another app is named.
		{"open com.example.shop --relaunch", "com.example.shop", canonical.MaestroCurrent, []string{"- launchApp"}},
		{"open com.example.other --relaunch", "com.example.shop", canonical.MaestroCurrent, []string{"- launchApp: com.example.other"}},
	} {
		f, err := loadScript("line.ad", []byte(c.line+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		got, err := ToMaestroSteps(f.Commands, c.app, c.v)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q (%v)\nwant %q", c.line, got, err, c.want)
		}
	}
	f, err := loadScript("line.ad", []byte("press text=\"Log in\"\nscroll down\nswipe 540 1800 540 900\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ToMaestroSteps(f.Commands, "a", canonical.MaestroCurrent)
	var ce *ConvertError
	if got != nil || !errors.As(err, &ce) || len(ce.Problems) != 2 {
		t.Fatalf("scroll and swipe have no Maestro form: %q %v", got, err)
	}
	for _, p := range ce.Problems {
		if p.Code != canonical.CodeUnsupportedOperation || p.Hint == "" {
			t.Errorf("problem %v: want UNSUPPORTED_OPERATION with a hint", p)
		}
	}
}
