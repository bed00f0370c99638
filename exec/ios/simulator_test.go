package ios

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

func TestPickSimulator(t *testing.T) {
	booted := Simulator{UDID: "A", Name: "iPhone 15", State: "Booted"}
	off := Simulator{UDID: "B", Name: "iPhone SE", State: "Shutdown"}
	other := Simulator{UDID: "C", Name: "iPad", State: "Booted"}
	for _, c := range []struct {
		name string
		udid string
		sims []Simulator
		want string
		code canonical.Code
		msg  string
	}{
		{name: "the one booted", sims: []Simulator{off, booted}, want: "A"},
		{name: "named, shut down (booted later)", udid: "B", sims: []Simulator{off, booted}, want: "B"},
		{name: "none booted", sims: []Simulator{off}, code: canonical.CodeDeviceUnavailable, msg: "no iOS simulator is booted"},
		{name: "two booted", sims: []Simulator{booted, other}, code: canonical.CodeInvalidArgs, msg: "A (iPhone 15), C (iPad)"},
		{name: "unknown", udid: "Z", sims: []Simulator{booted}, code: canonical.CodeDeviceUnavailable, msg: "no iOS simulator Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := pickSimulator(c.udid, c.sims)
			if c.want != "" {
				if err != nil || got.UDID != c.want {
					t.Fatalf("got %+v %v, want %s", got, err, c.want)
				}
				return
			}
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != c.code || !strings.Contains(ce.Message, c.msg) || ce.Hint == "" {
				t.Fatalf("want %s %q with a hint, got %v", c.code, c.msg, err)
			}
		})
	}
}
