package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/convert"
	"github.com/flow-runner/flow/maestro"
)

// convertCLI runs flow convert in-process through runFlow. Until app.go
// registers convertCommand, it runs the same path as run with the command
// added, so the tests hold before and after that one-line change.
func convertCLI(t *testing.T, args ...string) result {
	t.Helper()
	if newApp(Env{}).Command("convert") != nil {
		return runFlow(t, "", append([]string{"convert"}, args...)...)
	}
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139}
	app := newApp(env)
	cmd := convertCommand(env)
	cmd.OnUsageError = app.Commands[0].OnUsageError
	app.Commands = append(app.Commands, cmd)
	full := append([]string{"flow", "convert"}, args...)
	code := exitOK
	if err := app.RunContext(context.Background(), hoistArgs(app, full)); err != nil {
		var done reported
		if errors.As(err, &done) {
			code = exitCode(canonical.CodeOf(done.err))
		} else {
			ce := canonical.Coded(err)
			renderError(env.Stderr, ce, wantsJSON(full))
			code = exitCode(ce.Code)
		}
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// overlaySource reads one file from memory and everything else from disk,
// so a converted flow loads at its original path and finds its subflows.
type overlaySource struct {
	flowapi.OSSource
	file string
	data []byte
}

func (o overlaySource) ReadFile(name string) ([]byte, error) {
	if name == o.file {
		return o.data, nil
	}
	return o.OSSource.ReadFile(name)
}

// loadSource loads a flow file of either format from disk.
func loadSource(t *testing.T, file string) *canonical.Flow {
	t.Helper()
	var f *canonical.Flow
	var err error
	if flowapi.IsAdScript(file) {
		f, err = flowapi.LoadAdScript(file, nil, nil, "")
	} else {
		f, err = maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).Load(file)
	}
	if err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	return f
}

// reloadAd loads converted .ad text as if it were file.
func reloadAd(t *testing.T, file string, data []byte) *canonical.Flow {
	t.Helper()
	f, _, err := flowapi.LoadAdSource(file, data, nil, nil, "")
	if err != nil {
		t.Fatalf("the .ad written for %s does not load: %v\n%s", file, err, data)
	}
	return f
}

// reloadMaestro loads converted YAML at file's own path.
func reloadMaestro(t *testing.T, file string, data []byte) *canonical.Flow {
	t.Helper()
	f, err := maestro.NewLoader(overlaySource{file: file, data: data}).WithMaestroVersion(canonical.Maestro139).Load(file)
	if err != nil {
		t.Fatalf("the YAML written for %s does not load: %v\n%s", file, err, data)
	}
	return f
}

// commandsJSON is every command of a list (inline bodies included) as
// canonical JSON without positions and spellings; vars substitutes
// ${NAME} references the way loading an .ad script does.
func commandsJSON(t *testing.T, cmds []canonical.Command, vars map[string]string) []any {
	t.Helper()
	var out []any
	canonical.Walk(cmds, func(c canonical.Command) {
		data, err := canonical.EncodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "at")
		delete(m, "as")
		out = append(out, substitute(m, vars))
	})
	return out
}

var plainRef = regexp.MustCompile(`\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}`)

func substitute(v any, vars map[string]string) any {
	switch t := v.(type) {
	case string:
		if len(vars) == 0 || !plainRef.MatchString(t) {
			return t
		}
		s := plainRef.ReplaceAllStringFunc(t, func(ref string) string {
			name := plainRef.FindStringSubmatch(ref)[1]
			if val, ok := vars[name]; ok {
				return val
			}
			return ref
		})
		return ad.LiteralTemplate(s, canonical.Pos{}).Raw
	case map[string]any:
		for k, x := range t {
			t[k] = substitute(x, vars)
		}
	case []any:
		for i, x := range t {
			t[i] = substitute(x, vars)
		}
	}
	return v
}

// sameFlowCommands fails the test unless both flows hold the same
// commands, hooks included.
func sameFlowCommands(t *testing.T, what string, want, got *canonical.Flow, vars map[string]string) {
	t.Helper()
	for _, part := range []struct {
		name      string
		want, got []canonical.Command
	}{{"onFlowStart", want.OnFlowStart, got.OnFlowStart}, {"commands", want.Commands, got.Commands},
		{"onFlowComplete", want.OnFlowComplete, got.OnFlowComplete}} {
		w, g := commandsJSON(t, part.want, vars), commandsJSON(t, part.got, nil)
		if len(w) != len(g) {
			t.Fatalf("%s: %s: %d commands became %d", what, part.name, len(w), len(g))
		}
		for i := range w {
			if !reflect.DeepEqual(w[i], g[i]) {
				wj, _ := json.Marshal(w[i])
				gj, _ := json.Marshal(g[i])
				t.Fatalf("%s: %s[%d] differs after the round trip:\nwant %s\ngot  %s", what, part.name, i, wj, gj)
			}
		}
	}
}

// sameHeader compares what a Maestro header carries.
func sameHeader(t *testing.T, what string, want, got *canonical.Flow) {
	t.Helper()
	type header struct {
		AppID, Name, JSEngine string
		Web                   bool
		Tags                  []string
		Env                   [][2]string
	}
	h := func(f *canonical.Flow) header {
		out := header{AppID: f.AppID.Raw, Name: f.Name, JSEngine: f.JSEngine, Web: f.Web, Tags: f.Tags}
		for _, e := range f.Env {
			out.Env = append(out.Env, [2]string{e.Name, e.Value.Raw})
		}
		return out
	}
	if w, g := h(want), h(got); !reflect.DeepEqual(w, g) {
		t.Fatalf("%s: the header changed:\nwant %+v\ngot  %+v", what, w, g)
	}
}

// adVars are the env values of written .ad text.
func adVars(t *testing.T, data []byte) map[string]string {
	t.Helper()
	s, err := ad.ParseScript("out.ad", data, ad.ParseOptions{})
	if err != nil {
		t.Fatalf("written .ad does not parse: %v\n%s", err, data)
	}
	return s.ScriptVars()
}

// convertCorpus lists the flows/ files that load: every flow (not the
// workspace configs) and .ad script, without the invalid/ examples.
func convertCorpus(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../../flows", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "invalid" {
				return fs.SkipDir
			}
			return nil
		}
		p = filepath.ToSlash(p)
		switch {
		case flowapi.IsAdScript(p):
			files = append(files, p)
		case (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) && d.Name() != "config.yaml":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < 20 {
		t.Fatalf("found only %d corpus files", len(files))
	}
	return files
}

// checkProblems requires a conversion failure to be a *ConvertError whose
// every problem is an UNSUPPORTED_OPERATION at a command of file, with a
// hint; it returns "command@line" for each.
func checkProblems(t *testing.T, file string, err error) []string {
	t.Helper()
	var ce *convert.ConvertError
	if !errors.As(err, &ce) || len(ce.Problems) == 0 {
		t.Fatalf("%s: want a *convert.ConvertError, got %v", file, err)
	}
	var out []string
	for _, p := range ce.Problems {
		if p.Code != canonical.CodeUnsupportedOperation || p.Pos.File != file || p.Pos.Line <= 0 || p.Hint == "" {
			t.Errorf("%s: malformed problem %v (hint %q)", file, p, p.Hint)
		}
		if !strings.Contains(p.Message, "has no ") {
			t.Errorf("%s: the problem does not say what has no form: %v", file, p)
		}
		out = append(out, fmt.Sprintf("%v@%d", p.Details["command"], p.Pos.Line))
	}
	if !errors.As(err, new(*canonical.Error)) {
		t.Errorf("%s: errors.As cannot find the problems", file)
	}
	return out
}

// TestConvertCorpus is the acceptance property over flows/: every file is
// converted to the other format and, where every command has a form
// there, loading the result gives the same commands; where not, every
// command without a form is reported. Maestro flows also go through
// ToMaestro (a round trip in their own format), which must always hold: it
// pins the YAML writer on every construct of the corpus. The summary
// snapshot records which files convert.
func TestConvertCorpus(t *testing.T) {
	t.Parallel()
	var summary []string
	for _, file := range convertCorpus(t) {
		src := loadSource(t, file)
		rel := strings.TrimPrefix(file, "../../")
		if flowapi.IsAdScript(file) {
			data, err := convert.ToMaestro(src, "")
			if err != nil {
				summary = append(summary, rel+" --to maestro: no form for "+strings.Join(checkProblems(t, file, err), ", "))
			} else {
				sameFlowCommands(t, file+" --to maestro", src, reloadMaestro(t, strings.TrimSuffix(file, ".ad")+".yaml", data), nil)
				summary = append(summary, rel+" --to maestro: round-trips")
			}
			data, err = convert.ToAd(src)
			if err != nil {
				t.Fatalf("%s: an .ad script must convert to .ad: %v", file, err)
			}
			sameFlowCommands(t, file+" --to ad", src, reloadAd(t, file, data), nil)
			continue
		}
		data, err := convert.ToAd(src)
		if err != nil {
			summary = append(summary, rel+" --to ad: no form for "+strings.Join(checkProblems(t, file, err), ", "))
		} else {
			sameFlowCommands(t, file+" --to ad", src, reloadAd(t, strings.TrimSuffix(file, filepath.Ext(file))+".ad", data), adVars(t, data))
			summary = append(summary, rel+" --to ad: round-trips")
		}
		data, err = convert.ToMaestro(src, "")
		if err != nil {
			t.Fatalf("%s: a Maestro flow must convert to Maestro: %v", file, err)
		}
		back := reloadMaestro(t, file, data)
		sameHeader(t, file+" --to maestro", src, back)
		sameFlowCommands(t, file+" --to maestro", src, back, nil)
	}
	snaps.MatchSnapshot(t, strings.Join(summary, "\n"))
}

// TestConvertTestdata round-trips the scripts and flows written so that
// every command converts: together they use every form with an exact
// counterpart.
func TestConvertTestdata(t *testing.T) {
	t.Parallel()
	script := "testdata/convert/convertible.ad"
	src := loadSource(t, script)
	data, err := convert.ToMaestro(src, "")
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	back := reloadMaestro(t, strings.TrimSuffix(script, ".ad")+".yaml", data)
	sameFlowCommands(t, script, src, back, nil)
	if back.AppID.Raw != "com.example.shop" {
		t.Errorf("appId from the script's close: got %q", back.AppID.Raw)
	}
	// And back again: the Maestro flow converts to the same .ad commands.
	again, err := convert.ToAd(back)
	if err != nil {
		t.Fatalf("%s back to .ad: %v", script, err)
	}
	sameFlowCommands(t, script+" back to .ad", src, reloadAd(t, script, again), nil)

	y := "testdata/convert/convertible.yaml"
	src = loadSource(t, y)
	data, err = convert.ToAd(src)
	if err != nil {
		t.Fatalf("%s: %v", y, err)
	}
	vars := adVars(t, data)
	if vars["EMAIL"] != "maestro@example.com" || vars["SLUG"] != "trail-running-shoes" {
		t.Errorf("env did not carry over: %v", vars)
	}
	sameFlowCommands(t, y, src, reloadAd(t, strings.TrimSuffix(y, ".yaml")+".ad", data), vars)
}

// TestConvertScalars writes awkward text through both writers and loads it
// back: YAML quoting and .ad quoting and ${ escaping must keep every
// character.
func TestConvertScalars(t *testing.T) {
	t.Parallel()
	texts := []string{"", " ", "plain", "yes", "No", "ON", "off", "y", "n", "true", "False", "null", "~", "<<", "=",
		"42", "-7", "+1", "3.14", "1e3", "0x1F", "0o17", "1_000", ".5", ".inf", ".NaN", "1:30", "2001-12-14",
		"2001-12-14 21:59:43", "1 Market Street", "- item", "-x", "a: b", "a:b", "trailing:", "a #b", "a#b", "#c",
		"'single'", `"double"`, `back\slash`, `\s*Log\s+in\s*`, "it's", "tab\there", "line\nbreak", "cr\rlf",
		" lead", "trail ", "@at", "`tick", "%pct", "&amp", "*star", "!bang", "|pipe", ">gt", "[x]", "{y}", "a, b",
		"?", ":", "-", "?q", "é ünïcode ✓", "emoji 🎉", "nbsp\u00a0here", "bom\ufeff", "ls\u2028ps\u2029", "del\x7f",
		"nul\x00", "bell\a", "esc\x1b", "${", "$${", "${X}", `\${X}`, "cost $5", "{a} ${b", "}", "a} and {b",
	}
	var cmds []canonical.Command
	for _, s := range texts {
		cmds = append(cmds, &canonical.InputText{Meta: canonical.Meta{Name: "inputText"}, Text: ad.LiteralTemplate(s, canonical.Pos{})})
	}
	yamlCmds := append([]canonical.Command{}, cmds...)
	for _, s := range texts {
		tt := canonical.Text(s, canonical.Pos{})
		yamlCmds = append(yamlCmds,
			&canonical.InputText{Meta: canonical.Meta{Label: s}, Text: tt},
			&canonical.TakeScreenshot{Path: tt},
			&canonical.Assert{Visible: &canonical.Selector{Text: &tt, ID: &tt}})
	}
	flow := &canonical.Flow{File: "testdata/convert/scalars.yaml", Name: "scalars", AppID: canonical.Text("com.example.shop", canonical.Pos{}),
		Tags: texts[2:20], Env: []canonical.EnvVar{{Name: "A", Value: canonical.Text("yes: no", canonical.Pos{})}},
		Commands: append([]canonical.Command{&canonical.LaunchApp{AppID: canonical.Text("com.example.shop", canonical.Pos{}), StopApp: true,
			Permissions: map[string]string{"all": "deny", "yes": "allow", "a: b": "unset"},
			Arguments: []canonical.LaunchArgument{
				{Key: canonical.Text("true", canonical.Pos{}), Value: canonical.Text("false", canonical.Pos{})},
				{Key: canonical.Text("n", canonical.Pos{}), Value: int64(-3)},
				{Key: canonical.Text("f", canonical.Pos{}), Value: 2.0},
				{Key: canonical.Text("g", canonical.Pos{}), Value: 1e21},
				{Key: canonical.Text("s", canonical.Pos{}), Value: canonical.Text("0x10", canonical.Pos{})},
			}}}, yamlCmds...)}
	data, err := convert.ToMaestro(flow, "")
	if err != nil {
		t.Fatal(err)
	}
	f, err := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).LoadBytes(flow.File, data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	sameHeader(t, "scalars --to maestro", flow, f)
	sameFlowCommands(t, "scalars --to maestro", flow, f, nil)

	adFlow := &canonical.Flow{File: "scalars.ad", Commands: cmds}
	for _, s := range texts {
		if s == "" {
			continue
		}
		tt := ad.LiteralTemplate(s, canonical.Pos{})
		adFlow.Commands = append(adFlow.Commands,
			&canonical.LaunchApp{AppID: tt, StopApp: true, Permissions: map[string]string{"all": "allow"}},
			&canonical.StopApp{AppID: tt},
			&canonical.TakeScreenshot{Path: tt})
		if !strings.Contains(s, "://") {
			adFlow.Commands = append(adFlow.Commands, &canonical.OpenLink{Link: tt})
		}
		if w := strings.Fields(s); len(w) > 0 && strings.Join(w, " ") == s {
			p := canonical.Text(ad.TextPattern(s), canonical.Pos{})
			adFlow.Commands = append(adFlow.Commands,
				&canonical.Assert{Visible: &canonical.Selector{ID: &p, Text: &p}},
				&canonical.Tap{Mode: canonical.TapSingle, Selector: &canonical.Selector{Text: &p}, Repeat: 1, DelayMs: 100, RetryIfNoChange: true})
		}
	}
	ad, err := convert.ToAd(adFlow)
	if err != nil {
		t.Fatal(err)
	}
	sameFlowCommands(t, "scalars --to ad", adFlow, reloadAd(t, "scalars.ad", ad), nil)
}

// TestConvertCLI pins what users see: converted output, every problem of a
// file that cannot convert, and the usage errors.
func TestConvertCLI(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"ad_to_maestro", []string{"testdata/convert/convertible.ad", "--to", "maestro"}, 0},
		{"maestro_to_ad", []string{"testdata/convert/convertible.yaml", "--to", "ad"}, 0},
		{"ad_to_maestro_app_id", []string{"--to", "maestro", "--app-id", "com.example.other", "testdata/convert/convertible.ad"}, 0},
		{"corpus_ad_cannot", []string{"../../flows/scripts-ad/gesture-lab.ad", "--to", "maestro"}, 2},
		{"corpus_yaml_cannot", []string{"../../flows/workspace/launch-smoke.yaml", "--to", "ad"}, 2},
		{"corpus_yaml_cannot_subflows", []string{"../../flows/subflows/sign-in.yaml", "--to", "ad"}, 2},
		{"load_error", []string{"../../flows/invalid/removed-timed-swipe.ad", "--to", "maestro"}, 2},
		{"missing_to", []string{"testdata/convert/convertible.ad"}, 2},
		{"unknown_to", []string{"testdata/convert/convertible.ad", "--to", "json"}, 2},
		{"same_format", []string{"testdata/convert/convertible.ad", "--to", "ad"}, 2},
		{"same_format_yaml", []string{"testdata/convert/convertible.yaml", "--to", "maestro"}, 2},
		{"two_files", []string{"a.ad", "b.ad", "--to", "maestro"}, 2},
		{"missing_file", []string{"testdata/convert/nope.yaml", "--to", "ad"}, 2},
		{"bad_env", []string{"testdata/convert/convertible.ad", "--to", "maestro", "-e", "NOEQUALS"}, 2},
		{"ad_var_from_cli", []string{"testdata/convert/needs-var.ad", "--to", "maestro", "-e", "SLUG=trail-running-shoes"}, 0},
		{"ad_var_unresolved", []string{"testdata/convert/needs-var.ad", "--to", "maestro"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := convertCLI(t, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, r)
			}
			snaps.MatchSnapshot(t, r.String())
		})
	}
}

// TestConvertOutputFile: --output writes what stdout would show, and the
// file loads back as the script's commands.
func TestConvertOutputFile(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "converted.yaml")
	r := convertCLI(t, "testdata/convert/convertible.ad", "--to", "maestro", "--output", out)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("want exit 0 and nothing on stdout:\n%s", r)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := convertCLI(t, "testdata/convert/convertible.ad", "--to", "maestro"); want.stdout != string(data) {
		t.Fatalf("--output differs from stdout:\n%s\n---\n%s", data, want.stdout)
	}
	src := loadSource(t, "testdata/convert/convertible.ad")
	sameFlowCommands(t, out, src, reloadMaestro(t, "testdata/convert/convertible.yaml", data), nil)

	r = convertCLI(t, "testdata/convert/convertible.ad", "--to", "maestro", "--output", "testdata/convert/convertible.ad")
	if r.code != 2 || !strings.Contains(r.stderr, "--output is the file being converted") {
		t.Fatalf("overwriting the input must be refused:\n%s", r)
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(t.TempDir(), "link.ad")
		abs, _ := filepath.Abs("testdata/convert/convertible.ad")
		if err := os.Symlink(abs, link); err != nil {
			t.Fatal(err)
		}
		r = convertCLI(t, "testdata/convert/convertible.ad", "--to", "maestro", "--output", link)
		if r.code != 2 || !strings.Contains(r.stderr, "--output is the file being converted") {
			t.Fatalf("overwriting the input through a link must be refused:\n%s", r)
		}
	}
}

// TestConvertRandomText writes random text with every awkward character
// through both writers: whatever the text, loading the output gives it
// back exactly.
func TestConvertRandomText(t *testing.T) {
	t.Parallel()
	alphabet := []rune("aZ09 \t\n\r\\\"'${}:#-?,[]{}%@|>*&!~=.<é\u2028\u00a0\ufeff🎉\x00\x1b/")
	rng := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for i := 0; i < 400; i++ {
		r := make([]rune, rng.IntN(12))
		for j := range r {
			r[j] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(r))
	}
	var yamlCmds, adCmds []canonical.Command
	for _, s := range texts {
		raw := canonical.Text(s, canonical.Pos{})
		lit := ad.LiteralTemplate(s, canonical.Pos{})
		yamlCmds = append(yamlCmds, &canonical.InputText{Text: raw},
			&canonical.Assert{Visible: &canonical.Selector{Text: &raw}, NotVisible: &canonical.Selector{ID: &raw}})
		adCmds = append(adCmds, &canonical.InputText{Text: lit}, &canonical.TakeScreenshot{Path: lit})
		if s != "" {
			adCmds = append(adCmds, &canonical.StopApp{AppID: lit})
			p := canonical.Text(ad.TextPattern(s), canonical.Pos{})
			adCmds = append(adCmds, &canonical.Assert{Visible: &canonical.Selector{Text: &p}})
		}
	}
	flow := &canonical.Flow{File: "random.yaml", Name: "random", AppID: canonical.Text("com.example.shop", canonical.Pos{}), Commands: yamlCmds}
	data, err := convert.ToMaestro(flow, "")
	if err != nil {
		t.Fatal(err)
	}
	f, err := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).LoadBytes(flow.File, data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	sameFlowCommands(t, "random --to maestro", flow, f, nil)

	adFlow := &canonical.Flow{File: "random.ad", Commands: adCmds}
	ad, err := convert.ToAd(adFlow)
	if err != nil {
		t.Fatal(err)
	}
	sameFlowCommands(t, "random --to ad", adFlow, reloadAd(t, "random.ad", ad), nil)
}

// TestConvertPointWithSpaces: Maestro trims the numbers of a tap point, so
// "235, 681" converts to .ad exactly, and back.
func TestConvertPointWithSpaces(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "point.ad")
	r := convertCLI(t, "testdata/convert/point-spaces.yaml", "--to", "ad", "--output", out)
	if r.code != 0 {
		t.Fatalf("convert: %s", r)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\npress 235 681\npress 100 200\n") {
		t.Fatalf("converted:\n%s", data)
	}
	if r := convertCLI(t, out, "--to", "maestro"); r.code != 0 || !strings.Contains(r.stdout, `point: "235,681"`) {
		t.Fatalf("back: %s", r)
	}
}
