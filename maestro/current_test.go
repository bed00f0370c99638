package maestro_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// Loader tests of the Maestro version: what the current Maestro (the
// default) reads differently from 1.39. The sources are named beside each
// row and in docs/compatibility.md.

// loadWith loads header+body with a loader of version v ("" = the
// default loader, no version chosen).
func loadWith(t *testing.T, v canonical.MaestroVersion, body string, files map[string]string) (*canonical.Flow, *maestro.Loader, error) {
	t.Helper()
	all := fixtureFiles()
	all[mainFlow] = header + body
	for k, x := range files {
		all[k] = x
	}
	l := maestro.NewLoader(source(all)).WithMaestroVersion(v)
	f, err := l.Load(mainFlow)
	return f, l, err
}

// currentRows are flows only the current Maestro accepts; TestEveryCommandHasARow
// counts them.
func currentRows() []string {
	return []string{
		// docs.maestro.dev reference/commands-available/setpermissions
		"- setPermissions:\n    permissions:\n      all: allow\n",
		"- setPermissions:\n    appId: com.other.app\n    permissions:\n      camera: allow\n      notifications: deny\n",
		// reference/commands-available/setorientation
		"- setOrientation: LANDSCAPE_LEFT\n",
		// reference/commands-available/setclipboard
		"- setClipboard: \"user@example.com\"\n",
		// reference/commands-available/assertscreenshot (Maestro PR #2949)
		"- assertScreenshot: splash.png\n",
		// api-reference/commands/inputtext (DataFaker inputs, Maestro 2.0)
		"- inputRandomCityName\n",
		"- inputRandomCountryName:\n    label: Country\n",
		"- inputRandomColorName\n",
		"- assertScreenshot:\n    path: screen\n    cropOn:\n      id: banner\n    thresholdPercentage: 98.5\n    label: Banner unchanged\n",
	}
}

func TestCurrentCommandsLoadByDefault(t *testing.T) {
	t.Parallel()
	f, _, err := loadWith(t, "", strings.Join(currentRows(), ""), nil)
	if err != nil {
		t.Fatalf("the current Maestro's commands were refused by default: %v", err)
	}
	if f.MaestroVersion != canonical.MaestroCurrent {
		t.Errorf("flow read as %q, want the current Maestro %q", f.MaestroVersion, canonical.MaestroCurrent)
	}
	all, ok := f.Commands[0].(*canonical.SetPermissions)
	if !ok || all.AppID.Raw != "com.example.app" || all.Permissions["all"] != "allow" || len(all.Permissions) != 1 {
		t.Errorf("setPermissions all: got %#v, want the flow's app and all: allow", f.Commands[0])
	}
	other, ok := f.Commands[1].(*canonical.SetPermissions)
	if !ok || other.AppID.Raw != "com.other.app" || other.Permissions["camera"] != "allow" || other.Permissions["notifications"] != "deny" {
		t.Errorf("setPermissions with appId: got %#v", f.Commands[1])
	}
	if o, ok := f.Commands[2].(*canonical.SetOrientation); !ok || o.Orientation.Raw != "LANDSCAPE_LEFT" {
		t.Errorf("setOrientation: got %#v", f.Commands[2])
	}
	if c, ok := f.Commands[3].(*canonical.SetClipboard); !ok || c.Text.Raw != "user@example.com" {
		t.Errorf("setClipboard: got %#v", f.Commands[3])
	}
	// The short form takes the default threshold, 95.0 (reference page:
	// "Default is 95.0"), and crops nothing.
	if a, ok := f.Commands[4].(*canonical.AssertScreenshot); !ok || a.Path.Raw != "splash.png" || a.ThresholdPercentage != 95 || a.CropOn != nil {
		t.Errorf("assertScreenshot short form: got %#v", f.Commands[4])
	}
	for i, kind := range []string{"cityName", "countryName", "colorName"} {
		if r, ok := f.Commands[5+i].(*canonical.InputRandom); !ok || r.Type != kind {
			t.Errorf("inputRandom %s: got %#v", kind, f.Commands[5+i])
		}
	}
	a, ok := f.Commands[8].(*canonical.AssertScreenshot)
	if !ok || a.Path.Raw != "screen" || a.ThresholdPercentage != 98.5 || a.Label != "Banner unchanged" ||
		a.CropOn == nil || a.CropOn.ID == nil || a.CropOn.ID.Raw != "banner" {
		t.Errorf("assertScreenshot long form: got %#v", f.Commands[8])
	}
}

// Under 1.39 each is an unknown command, as Maestro 1.39.10's
// YamlFluentCommand has none of them; the hint names the version that has
// it.
func TestCurrentCommandsRefusedUnder139(t *testing.T) {
	t.Parallel()
	for i, row := range currentRows() {
		_, _, err := loadWith(t, canonical.Maestro139, row, nil)
		if err == nil {
			t.Errorf("row %d loaded under 1.39:\n%s", i, row)
			continue
		}
		ce, _ := canonical.AsError(err)
		name := strings.TrimSuffix(strings.SplitN(strings.TrimPrefix(row, "- "), ":", 2)[0], "\n")
		if ce == nil || ce.Message != `unknown command "`+name+`"` || ce.Pos.Line != 3 || ce.Pos.Col != 3 {
			t.Errorf("row %d: got %v, want unknown command %q at 3:3", i, err, name)
		}
		if ce != nil && !strings.Contains(ce.Hint, "--maestro-version 1.39") {
			t.Errorf("row %d: hint %q does not say how to get the command", i, ce.Hint)
		}
	}
}

func TestCurrentCommandErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want, hint string }{
		{"- setPermissions: {appId: x}\n", "flows/main.yaml:3:3: INVALID_ARGS: setPermissions needs permissions", ""},
		{"- setPermissions: {permissions: {camera: maybe}}\n", `flows/main.yaml:3:42: INVALID_ARGS: permission camera must be allow, deny or unset, got "maybe"`, ""},
		{"- setOrientation: landscape_left\n", `flows/main.yaml:3:19: INVALID_ARGS: setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got "landscape_left"`, "LANDSCAPE_LEFT in capitals"},
		{"- setOrientation: SIDEWAYS\n", `flows/main.yaml:3:19: INVALID_ARGS: setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got "SIDEWAYS"`, ""},
		{"- setClipboard: [a]\n", "flows/main.yaml:3:17: INVALID_ARGS: setClipboard takes the text to set, got a list", ""},
		{"- assertScreenshot: {thresholdPercentage: 90}\n", "flows/main.yaml:3:3: INVALID_ARGS: assertScreenshot needs path, the reference image", "path:"},
		{"- assertScreenshot: {path: a.png, thresholdPercentage: 120}\n", "flows/main.yaml:3:56: INVALID_ARGS: thresholdPercentage 120 is not a percentage", "0 to 100"},
		{"- assertScreenshot: {path: a.png, thresholdPercentage: most}\n", `flows/main.yaml:3:56: INVALID_ARGS: thresholdPercentage must be a number, got "most"`, ""},
		{"- assertScreenshot: {path: a.png, crop: {id: x}}\n", "", ""},
		{"- assertScreenshot: \"\"\n", "flows/main.yaml:3:21: INVALID_ARGS: assertScreenshot's path is empty", "relative to this flow file"},
	}
	for _, c := range cases {
		_, _, err := loadWith(t, "", c.in, nil)
		if err == nil {
			t.Errorf("%q loaded", c.in)
			continue
		}
		ce, _ := canonical.AsError(err)
		if c.want != "" && (ce == nil || ce.Error() != c.want) {
			t.Errorf("%q:\n got  %v\n want %s", c.in, err, c.want)
		}
		if c.hint != "" && (ce == nil || !strings.Contains(ce.Hint, c.hint)) {
			t.Errorf("%q: hint %q lacks %q", c.in, ce.Hint, c.hint)
		}
	}
}

// A template is checked when it runs, as its value is known only then.
func TestSetOrientationTemplateLoads(t *testing.T) {
	t.Parallel()
	if _, _, err := loadWith(t, "", "- setOrientation: ${ORIENTATION}\n", nil); err != nil {
		t.Fatal(err)
	}
}

// retryTapIfNoChange defaults off since Maestro 1.41 (PR #2489) and on in
// 1.39; a flow that says it keeps what it says under both.
func TestTapRetryDefaultPerVersion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    canonical.MaestroVersion
		body string
		want bool
	}{
		{"", "- tapOn: Buy\n", false},
		{canonical.MaestroCurrent, "- tapOn: Buy\n", false},
		{canonical.Maestro139, "- tapOn: Buy\n", true},
		{"", "- tapOn: {text: Buy, retryTapIfNoChange: true}\n", true},
		{canonical.Maestro139, "- tapOn: {text: Buy, retryTapIfNoChange: false}\n", false},
		{"", "- doubleTapOn: Buy\n", false},
		{canonical.Maestro139, "- longPressOn: Buy\n", true},
	} {
		f, _, err := loadWith(t, c.v, c.body, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Commands[0].(*canonical.Tap).RetryIfNoChange; got != c.want {
			t.Errorf("version %q, %q: retryIfNoChange = %v, want %v", c.v, c.body, got, c.want)
		}
	}
}

// jsEngine: rhino selects Rhino with Maestro's deprecation warning (PR
// #2631) under the current Maestro; under 1.39, where Rhino is the
// default, nothing is said.
func TestRhinoWarning(t *testing.T) {
	t.Parallel()
	flow := "appId: com.example.app\njsEngine: rhino\n---\n- back\n"
	for _, c := range []struct {
		v    canonical.MaestroVersion
		want bool
	}{{"", true}, {canonical.Maestro139, false}} {
		all := fixtureFiles()
		all[mainFlow] = flow
		l := maestro.NewLoader(source(all)).WithMaestroVersion(c.v)
		f, err := l.Load(mainFlow)
		if err != nil {
			t.Fatal(err)
		}
		if f.JSEngine != "rhino" {
			t.Errorf("jsEngine = %q, want rhino", f.JSEngine)
		}
		warned := false
		for _, w := range l.Warnings() {
			if strings.Contains(w.Message, "Rhino JS engine") && w.Pos.Line == 2 {
				warned = true
			}
		}
		if warned != c.want {
			t.Errorf("version %q: Rhino warning = %v, want %v (warnings %v)", c.v, warned, c.want, l.Warnings())
		}
	}
}

// The workspace config's maestroVersion picks the version unless the
// loader was given one (a flag or FLOW_MAESTRO_VERSION outranks it).
func TestWorkspaceMaestroVersion(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"ws/config.yaml": "maestroVersion: 1.39\n",
		"ws/a.yaml":      header + "- tapOn: Buy\n",
	}
	plan := func(v canonical.MaestroVersion) *canonical.Flow {
		l := maestro.NewLoader(source(files)).WithMaestroVersion(v)
		p, err := l.Plan([]string{"ws"}, maestro.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return p.Flows[0]
	}
	if f := plan(""); f.MaestroVersion != canonical.Maestro139 || !f.Commands[0].(*canonical.Tap).RetryIfNoChange {
		t.Errorf("config maestroVersion 1.39 ignored: version %q", f.MaestroVersion)
	}
	if f := plan(canonical.MaestroCurrent); f.MaestroVersion != canonical.MaestroCurrent || f.Commands[0].(*canonical.Tap).RetryIfNoChange {
		t.Errorf("an explicit version lost to the config: version %q", f.MaestroVersion)
	}
	files["ws/config.yaml"] = "maestroVersion: 1.2\n"
	_, err := maestro.NewLoader(source(files)).Plan([]string{"ws"}, maestro.PlanOptions{})
	ce, _ := canonical.AsError(err)
	if ce == nil || ce.Pos.File != "ws/config.yaml" || ce.Pos.Line != 1 || !strings.Contains(ce.Message, `"1.2"`) {
		t.Errorf("bad maestroVersion: got %v, want an error at ws/config.yaml:1", err)
	}
}

// The schema flow schema prints is the current Maestro's; 1.39's lacks
// the current-only commands, and each loader validates with its own.
func TestSchemaPerVersion(t *testing.T) {
	t.Parallel()
	cur, err := maestro.SchemaFor(canonical.MaestroCurrent)
	if err != nil {
		t.Fatal(err)
	}
	old, err := maestro.SchemaFor(canonical.Maestro139)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range maestro.CurrentOnlyCommands() {
		if !strings.Contains(string(cur), `"`+name+`"`) {
			t.Errorf("current schema lacks %s", name)
		}
		if strings.Contains(string(old), `"`+name+`"`) {
			t.Errorf("1.39 schema has %s", name)
		}
	}
	if !strings.Contains(string(old), `"setAirplaneMode"`) {
		t.Error("1.39 schema lost a 1.39 command")
	}
}

// takeScreenshot's cropOn (docs.maestro.dev reference/commands-available/
// takescreenshot) is the current Maestro's; 1.39's takeScreenshot has only
// path, so there cropOn is an unknown key.
func TestTakeScreenshotCropOn(t *testing.T) {
	t.Parallel()
	body := "- takeScreenshot:\n    path: login_form\n    cropOn:\n      id: LoginFormContainer\n"
	f, _, err := loadWith(t, "", body, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts, ok := f.Commands[0].(*canonical.TakeScreenshot)
	if !ok || ts.Path.Raw != "login_form" || ts.CropOn == nil || ts.CropOn.ID == nil || ts.CropOn.ID.Raw != "LoginFormContainer" {
		t.Fatalf("got %#v", f.Commands[0])
	}
	if f, _, err := loadWith(t, "", "- takeScreenshot: plain\n", nil); err != nil || f.Commands[0].(*canonical.TakeScreenshot).CropOn != nil {
		t.Errorf("the short form: %v", err)
	}
	_, _, err = loadWith(t, canonical.Maestro139, body, nil)
	if ce, _ := canonical.AsError(err); ce == nil || !strings.Contains(ce.Message, `unknown key "cropOn"`) {
		t.Errorf("under 1.39: got %v, want cropOn refused as an unknown key", err)
	}
}
