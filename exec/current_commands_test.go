package exec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// webStill is stillDevice on the web, which neither turns nor sets
// permissions (as Maestro's web driver).
type webStill struct{ stillDevice }

func (d *webStill) Info(context.Context) (exec.DeviceInfo, error) {
	return exec.DeviceInfo{Platform: "web", Name: "web", ID: "web"}, nil
}

// The current Maestro's setOrientation and setPermissions on a device
// that cannot do them: setOrientation is UNSUPPORTED_OPERATION everywhere
// (docs.maestro.dev reference/commands-available/setorientation: not on
// the web), setPermissions too except on the web, where Maestro's
// WebDriver.setPermissions does nothing.
func TestCurrentCommandsWithoutTheCapability(t *testing.T) {
	orient := &canonical.SetOrientation{Meta: canonical.Meta{Name: "setOrientation", Pos: at(4)},
		Orientation: canonical.Text("LANDSCAPE_LEFT", canonical.Pos{})}
	perms := &canonical.SetPermissions{Meta: canonical.Meta{Name: "setPermissions", Pos: at(4)},
		AppID: canonical.Text("com.still", canonical.Pos{}), Permissions: map[string]string{"camera": "allow"}}
	for _, c := range []struct {
		name string
		dev  exec.Device
		cmd  canonical.Command
		want canonical.Code // "" passes
	}{
		{"setOrientation on android without Orienter", &stillDevice{}, orient, canonical.CodeUnsupportedOperation},
		{"setOrientation on the web", &webStill{}, orient, canonical.CodeUnsupportedOperation},
		{"setPermissions on android without PermissionSetter", &stillDevice{}, perms, canonical.CodeUnsupportedOperation},
		{"setPermissions on the web", &webStill{}, perms, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			clock := newClock()
			switch d := c.dev.(type) {
			case *stillDevice:
				d.clock, d.start = clock, clock.Now()
			case *webStill:
				d.clock, d.start = clock, clock.Now()
			}
			cfg := exec.Config{Device: c.dev, Clock: clock,
				NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
			flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}),
				Commands: []canonical.Command{launch(3), c.cmd}}
			res := exec.RunFlow(context.Background(), cfg, flow)
			if c.want == "" {
				if res.Status != exec.StatusPassed {
					t.Fatalf("want passed, got %s %v", res.Status, res.Error)
				}
				return
			}
			if res.Error == nil || res.Error.Code != c.want || res.Error.Pos.Line != 4 || res.Error.Hint == "" {
				t.Fatalf("want %s at line 4 with a hint, got %s %+v", c.want, res.Status, res.Error)
			}
		})
	}
}

// A setOrientation value known only when it runs is checked then.
func TestSetOrientationValueCheckedAtRun(t *testing.T) {
	clock := newClock()
	bad := &canonical.SetOrientation{Meta: canonical.Meta{Name: "setOrientation", Pos: at(4)},
		Orientation: canonical.Text("SIDEWAYS", canonical.Pos{})}
	res, _, _ := runStill(t, context.Background(), clock, launch(3), bad)
	if res.Error == nil || res.Error.Code != canonical.CodeInvalidArgs || res.Error.Pos.Line != 4 {
		t.Fatalf("want INVALID_ARGS at line 4, got %+v", res.Error)
	}
}

// typedLog keeps what inputText events typed.
type typedLog struct{ typed []string }

func (l *typedLog) Record(typ string, fields map[string]any) {
	if typ == "inputText" {
		l.typed = append(l.typed, fields["text"].(string))
	}
}

// The current Maestro's inputRandomCityName, inputRandomCountryName and
// inputRandomColorName (docs.maestro.dev api-reference/commands/inputtext,
// DataFaker since Maestro 2.0) type a name: words of letters, not the
// one random character an unknown kind would give.
func TestInputRandomNames(t *testing.T) {
	for _, kind := range []string{"cityName", "countryName", "colorName"} {
		clock := newClock()
		log := &typedLog{}
		cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now()}, Clock: clock, Events: log, Seed: 7,
			NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
		flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}),
			Commands: []canonical.Command{launch(3), &canonical.InputRandom{Meta: canonical.Meta{Name: "inputRandom", Pos: at(4)}, Type: kind}}}
		if res := exec.RunFlow(context.Background(), cfg, flow); res.Status != exec.StatusPassed {
			t.Fatalf("%s: %v", kind, res.Error)
		}
		if len(log.typed) != 1 || len(log.typed[0]) < 3 || strings.Trim(log.typed[0], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ") != "" {
			t.Errorf("%s typed %q, want a name", kind, log.typed)
		}
	}
}

// notingDevice turns as an Appium session without a rotation route does:
// to landscape, on a side it cannot choose, and says so.
type notingDevice struct {
	stillDevice
	turned []string
}

func (d *notingDevice) SetOrientation(ctx context.Context, o string) error {
	_, err := d.SetOrientationNoted(ctx, o)
	return err
}

func (d *notingDevice) SetOrientationNoted(_ context.Context, o string) (string, error) {
	d.turned = append(d.turned, o)
	return "the driver turned to landscape on a side of its own choosing", nil
}

// A device's note on a turn it could only approximate is a warning at the
// command, in the step's logs; the step still passes.
func TestSetOrientationNoteIsAWarning(t *testing.T) {
	clock := newClock()
	dev := &notingDevice{stillDevice: stillDevice{clock: clock, start: clock.Now()}}
	cfg := exec.Config{Device: dev, Clock: clock,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	orient := &canonical.SetOrientation{Meta: canonical.Meta{Name: "setOrientation", Pos: at(4)},
		Orientation: canonical.Text("LANDSCAPE_LEFT", canonical.Pos{})}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}),
		Commands: []canonical.Command{launch(3), orient}}
	res := exec.RunFlow(context.Background(), cfg, flow)
	if res.Status != exec.StatusPassed || len(res.Steps) != 2 {
		t.Fatalf("want passed with 2 steps, got %s %v", res.Status, res.Error)
	}
	logs := strings.Join(res.Steps[1].Logs, "\n")
	if want := "warning: flow.yaml:4:"; !strings.Contains(logs, want) || !strings.Contains(logs, "side of its own choosing") {
		t.Fatalf("the note is not a warning at the command: %q", logs)
	}
	if strings.Join(dev.turned, ",") != "LANDSCAPE_LEFT" {
		t.Fatalf("turned %v", dev.turned)
	}
}
