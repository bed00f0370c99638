package maestro

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// currentOnly are the commands of docs.maestro.dev's current command
// reference (reference/commands-available) that Maestro 1.39.10's
// YamlFluentCommand lacks. Under --maestro-version 1.39 they are unknown
// commands, as 1.39 refuses them; the schema flow schema prints lists
// them, and SchemaFor(Maestro139) leaves them out.
func currentOnly() map[string]commandSpec {
	return map[string]commandSpec{
		// reference/commands-available/setpermissions
		"setPermissions": {decode: decodeSetPermissions},
		// reference/commands-available/setorientation (Maestro PR #2121)
		"setOrientation": {decode: decodeSetOrientation},
		// reference/commands-available/setclipboard
		"setClipboard": {decode: decodeSetClipboard},
		// reference/commands-available/assertscreenshot (Maestro PR #2949)
		"assertScreenshot": {decode: decodeAssertScreenshot},
		// api-reference/commands/inputtext ("Input random text"): the
		// DataFaker inputs of Maestro 2.0
		"inputRandomCityName":    {bare: true, decode: randomDecoder("cityName", false)},
		"inputRandomCountryName": {bare: true, decode: randomDecoder("countryName", false)},
		"inputRandomColorName":   {bare: true, decode: randomDecoder("colorName", false)},
	}
}

// CurrentOnlyCommands are the command names the current Maestro accepts
// and 1.39 refuses, sorted.
func CurrentOnlyCommands() []string {
	m := map[string]any{}
	for k := range currentOnly() {
		m[k] = true
	}
	return sortedKeys(m)
}

// WithMaestroVersion makes the loader read flows with v's semantics (the
// tap retry default, the command set, the jsEngine default); a workspace
// config's maestroVersion no longer overrides it, as a flag or
// FLOW_MAESTRO_VERSION outranks the config. Without it the loader follows
// the config's maestroVersion, else canonical.MaestroCurrent.
func (l *Loader) WithMaestroVersion(v canonical.MaestroVersion) *Loader {
	if v != "" {
		l.setVersion(v)
		l.versionFixed = true
	}
	return l
}

// MaestroVersion is the semantics the loader reads flows with now.
func (l *Loader) MaestroVersion() canonical.MaestroVersion { return l.version }

func (l *Loader) setVersion(v canonical.MaestroVersion) {
	l.version = v
	l.specs = commandSpecsFor(v)
}

// currentOptions are the 1.39 commands whose current reference page lists
// options 1.39 lacks; under 1.39 those options are unknown keys.
func currentOptions() map[string]commandSpec {
	return map[string]commandSpec{
		// reference/commands-available/takescreenshot: cropOn
		"takeScreenshot": {decode: decodeTakeScreenshot},
	}
}

// commandSpecsFor is the command set of Maestro version v.
func commandSpecsFor(v canonical.MaestroVersion) map[string]commandSpec {
	specs := commandSpecs()
	if v != canonical.Maestro139 {
		for name, s := range currentOnly() {
			specs[name] = s
		}
		for name, s := range currentOptions() {
			specs[name] = s
		}
	}
	return specs
}

// decodeTakeScreenshot is takeScreenshot with the current Maestro's
// cropOn: "takeScreenshot: NAME" or {path, cropOn, label, optional}.
func decodeTakeScreenshot(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"path", "cropOn"})
	if err != nil {
		return nil, err
	}
	pathN := scalar
	if scalar == nil {
		p, ok := fs["path"]
		if !ok {
			return nil, c.d.errorf(c.keyN, "takeScreenshot needs path").WithHint("takeScreenshot: after_login")
		}
		pathN = p.value
	}
	ts := &canonical.TakeScreenshot{Meta: c.meta}
	if ts.Path, err = c.d.template(pathN, "path"); err != nil {
		return nil, err
	}
	if p, ok := fs["cropOn"]; ok {
		if ts.CropOn, _, _, err = c.d.selector(p.value, "cropOn", nil); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// rhinoWarning is said when a flow asks for Rhino under the current
// Maestro. Maestro deprecated Rhino with a warning when it made GraalJS the
// default (PR #2631, Orchestra.initJsEngine) and removed it in May 2026
// (PR #3255: the header then fails workspace validation). flow keeps
// honouring the header, as issue 21 asks, and says both.
func rhinoWarning(d *decoder, n *yaml.Node) {
	d.warnf(n, "remove jsEngine: rhino to run on GraalJS, Maestro's default engine since August 2025 (PR #2631)",
		"the Rhino JS engine (jsEngine: rhino) is deprecated, and Maestro releases since May 2026 refuse it (PR #3255); flow runs this flow on Rhino as asked")
}

func decodeSetPermissions(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"appId", "permissions"})
	if err != nil {
		return nil, err
	}
	sp := &canonical.SetPermissions{Meta: c.meta, AppID: c.f.appID}
	if p, ok := fs["appId"]; ok {
		if sp.AppID, err = c.d.appID(p.value, "appId"); err != nil {
			return nil, err
		}
	}
	p, ok := fs["permissions"]
	if !ok {
		return nil, c.d.errorf(c.keyN, "setPermissions needs permissions").
			WithHint("setPermissions:\n    permissions:\n      camera: allow")
	}
	if sp.Permissions, err = c.permissions(p.value); err != nil {
		return nil, err
	}
	return sp, nil
}

// orientations are setOrientation's values (reference/commands-available/
// setorientation).
func orientations() []string {
	return []string{"PORTRAIT", "LANDSCAPE_LEFT", "LANDSCAPE_RIGHT", "UPSIDE_DOWN"}
}

func decodeSetOrientation(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil, c.d.errorf(n, "setOrientation takes one of %s, got %s", strings.Join(orientations(), ", "), kindName(n)).
			WithHint("setOrientation: LANDSCAPE_LEFT")
	}
	t, err := c.d.template(n, "setOrientation")
	if err != nil {
		return nil, err
	}
	if !t.HasExpr() {
		if _, err := ParseOrientation(t.Raw); err != nil {
			e := canonical.Coded(err)
			return nil, c.d.errorf(n, "%s", e.Message).WithHint(e.Hint)
		}
	}
	return &canonical.SetOrientation{Meta: c.meta, Orientation: t}, nil
}

// ParseOrientation checks a setOrientation value: exactly one of
// PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT, UPSIDE_DOWN.
func ParseOrientation(s string) (string, error) {
	for _, o := range orientations() {
		if s == o {
			return o, nil
		}
	}
	hint := "write one of " + strings.Join(orientations(), ", ")
	for _, o := range orientations() {
		if strings.EqualFold(s, o) {
			hint = fmt.Sprintf("write %s in capitals", o)
		}
	}
	return "", canonical.Errorf(canonical.CodeInvalidArgs, "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got %q", s).
		WithHint(hint)
}

func decodeSetClipboard(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil, c.d.errorf(n, "setClipboard takes the text to set, got %s", kindName(n)).
			WithHint(`setClipboard: "user@example.com"`)
	}
	t, err := c.d.anyText(n, "setClipboard", false)
	if err != nil {
		return nil, err
	}
	return &canonical.SetClipboard{Meta: c.meta, Text: t}, nil
}

// defaultScreenshotThreshold is assertScreenshot's thresholdPercentage
// when the flow gives none (reference/commands-available/assertscreenshot:
// "Default is 95.0").
const defaultScreenshotThreshold = 95.0

// decodeAssertScreenshot reads "assertScreenshot: PATH" or the mapping of
// path, cropOn, thresholdPercentage (and label, optional), the forms the
// reference page shows.
func decodeAssertScreenshot(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"path", "cropOn", "thresholdPercentage"})
	if err != nil {
		return nil, err
	}
	a := &canonical.AssertScreenshot{Meta: c.meta, ThresholdPercentage: defaultScreenshotThreshold}
	pathN := scalar
	if scalar == nil {
		p, ok := fs["path"]
		if !ok {
			return nil, c.d.errorf(c.keyN, "assertScreenshot needs path, the reference image").
				WithHint("assertScreenshot:\n    path: screens/home.png\n    thresholdPercentage: 95")
		}
		pathN = p.value
	}
	if a.Path, err = c.d.template(pathN, "path"); err != nil {
		return nil, err
	}
	if !a.Path.HasExpr() && strings.TrimSpace(a.Path.Raw) == "" {
		return nil, c.d.errorf(pathN, "assertScreenshot's path is empty").
			WithHint("name the reference image, relative to this flow file: assertScreenshot: screens/home.png")
	}
	if p, ok := fs["cropOn"]; ok {
		sel, _, _, err := c.d.selector(p.value, "cropOn", nil)
		if err != nil {
			return nil, err
		}
		a.CropOn = sel
	}
	if p, ok := fs["thresholdPercentage"]; ok && !isNull(p.value) {
		v, err := c.d.number(p.value, "thresholdPercentage")
		if err != nil {
			return nil, err
		}
		// Maestro compares with any Double; a value outside 0-100 makes
		// the assertion pass always or fail always, which is never meant.
		if v < 0 || v > 100 {
			return nil, c.d.errorf(p.value, "thresholdPercentage %v is not a percentage", v).
				WithHint("give the share of pixels that must match, from 0 to 100 (default 95)")
		}
		a.ThresholdPercentage = v
	}
	return a, nil
}
