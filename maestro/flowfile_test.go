package maestro_test

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// A flow file is a header document, "---", and a command document
// (maestro-reference §3.1, §3.2). These tables load whole files, so they
// give the header themselves.

// fileCase is a whole flow file and, for an invalid one, the one problem
// it must produce (exactly, without the hint).
type fileCase struct {
	name string
	text string
	want string // "" for a file that loads
	hint string
}

// renderFlow is a loaded flow for a snapshot: the header as JSON, the
// hooks and commands, and the warnings.
func renderFlow(t *testing.T, r result) string {
	t.Helper()
	if r.err != nil || r.flow == nil {
		t.Fatalf("flow did not load:\n%s", renderProblems(r.problems))
	}
	head, err := json.Marshal(r.flow)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("header " + string(head) + "\n")
	b.WriteString("header at " + r.flow.Pos.String() + "\n")
	for _, h := range []struct {
		name string
		cmds []canonical.Command
	}{{"onFlowStart", r.flow.OnFlowStart}, {"commands", r.flow.Commands}, {"onFlowComplete", r.flow.OnFlowComplete}} {
		if len(h.cmds) == 0 {
			continue
		}
		b.WriteString(h.name + ":\n")
		if err := renderCommands(&b, h.cmds, "  "); err != nil {
			t.Fatal(err)
		}
	}
	renderWarnings(&b, r.warnings)
	return b.String()
}

func runFileCases(t *testing.T, cases []fileCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := loadFlow(t, tc.text, nil)
			if tc.want == "" {
				snaps.WithConfig(snaps.Filename("flowfile_test")).MatchSnapshot(t, renderFlow(t, r))
				return
			}
			e := r.onlyProblem(t)
			if got := withoutHint(e); got != tc.want {
				t.Errorf("problem\n got: %s\nwant: %s", got, tc.want)
			}
			if e.Hint == "" || !strings.Contains(e.Hint, tc.hint) {
				t.Errorf("hint %q, want one containing %q", e.Hint, tc.hint)
			}
		})
	}
}

func documentCases() []fileCase {
	return []fileCase{
		{name: "empty file (Maestro 001)", text: "",
			want: "flows/main.yaml:1:1: INVALID_ARGS: flow file is empty"},
		{name: "only comments and blank lines", text: "# nothing yet\n\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: flow file is empty"},
		{name: "only separators", text: "---\n---\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: flow file is empty"},
		{name: "header only", text: "appId: com.example.app\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: flow has a header but no commands", hint: "---"},
		{name: "header and separator only (Maestro 006)", text: "appId: com.example.app\n---\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: flow has a header but no commands"},
		{name: "commands only (Maestro 015, e010)", text: "- nonExistentCommand\n- launchApp: com.example\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: flow has commands but no header", hint: "appId:"},
		{name: "separator then commands (Maestro 004)", text: "---\n- launchApp\n",
			want: "flows/main.yaml:2:1: INVALID_ARGS: flow has commands but no header"},
		{name: "three documents", text: "appId: com.example.app\n---\n- back\n---\n- scroll\n",
			want: "flows/main.yaml:5:1: INVALID_ARGS: flow file has 3 documents; a flow has exactly a header and a command list", hint: "remove the extra ---"},
		{name: "empty command list", text: "appId: com.example.app\n---\n[]\n",
			want: "flows/main.yaml:3:1: INVALID_ARGS: flow has no commands"},
		{name: "commands are a scalar (Maestro 021, e011)", text: "appId: com.example.app\n---\nlaunchApp\n",
			want: "flows/main.yaml:3:1: INVALID_ARGS: the commands must be a list, got a scalar", hint: `"- "`},
		{name: "commands are a mapping (Maestro 026)", text: "appId: com.example.app\n---\nsetLocation:\n    latitude: 12.5\n    longitude: 78.2\n",
			want: "flows/main.yaml:3:1: INVALID_ARGS: the commands must be a list, got a mapping"},
		{name: "header is a list", text: "- appId: com.example.app\n---\n- back\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: the flow header must be a mapping, got a list"},
		{name: "header is a scalar", text: "com.example.app\n---\n- back\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: the flow header must be a mapping, got a scalar"},
		{name: "separator missing", text: "appId: com.example.app\n- launchApp\n",
			want: "flows/main.yaml:2:1: INVALID_ARGS: the commands start without a --- line after the header", hint: "---"},
		{name: "two documents", text: "appId: com.example.app\n---\n- back\n"},
		{name: "leading separator", text: "---\nappId: com.example.app\n---\n- back\n"},
		{name: "trailing separator", text: "appId: com.example.app\n---\n- back\n---\n"},
		{name: "leading and trailing separators with comments", text: "# login flow\n---\nappId: com.example.app # the app\n---\n# steps\n- back\n---\n# end\n"},
		{name: "null documents are dropped", text: "appId: com.example.app\n---\n~\n---\n- back\n"},
		{name: "no final newline (Maestro 022)", text: "appId: com.example.app\n---\n- launchApp"},
		{name: "CRLF line ends", text: "appId: com.example.app\r\n---\r\n- tapOn: Buy\r\n- back\r\n"},
	}
}

func TestDocuments(t *testing.T) { runFileCases(t, documentCases()) }

func headerCases() []fileCase {
	return []fileCase{
		{name: "appId only: the name is the file stem", text: "appId: com.example.app\n---\n- launchApp\n"},
		{name: "url makes a web flow", text: "url: https://example.com/shop\n---\n- launchApp\n"},
		{name: "http appId makes a web flow", text: "appId: http://localhost:8080\n---\n- launchApp\n"},
		{name: "appId template is the default of app commands (Maestro 093)", text: "appId: ${APP_ID}\n---\n- launchApp\n- stopApp\n- killApp\n- clearState\n- launchApp: {clearState: true}\n"},
		{name: "name tags env jsEngine hooks", text: `appId: com.example.app
name: Checkout
tags: [smoke, android]
env:
  USER: alice
  COUNT: 1000
  ENABLED: true
  RATIO: 0.25
  SHARE: 25%
  NEXT: ${COUNT + 1}
  EMPTY:
jsEngine: graaljs
onFlowStart:
  - runScript: setup.js
  - back
onFlowComplete:
  - scroll
---
- launchApp
`},
		{name: "tags in block style", text: "appId: com.example.app\ntags:\n  - smoke\n  - 42\n---\n- back\n"},
		{name: "env null is no env", text: "appId: com.example.app\nenv:\n---\n- back\n"},
		{name: "unknown header keys are kept (Maestro 008)", text: "appId: com.example.app\nextra: True\nextraMap:\n  keyA: valueB\nextraArray:\n  - itemA\nproperties: {team: checkout}\n---\n- launchApp\n"},
		{name: "near-miss header keys warn", text: "appId: com.example.app\nappid: other\ntag: [smoke]\nenvv: {A: b}\nonFlowstart: [back]\n---\n- back\n"},
		{name: "header name (Maestro 020)", text: "appId: com.example.app\nname: Example Flow\n---\n- launchApp\n"},
		{name: "hooks only run their own commands (Maestro 022)", text: "appId: com.example.app\nonFlowStart:\n  - back\nonFlowComplete:\n  - scroll\n---\n- launchApp"},
		{name: "no appId (Maestro 005)", text: "name: Example app\n---\n- launchApp\n",
			want: "flows/main.yaml:1:1: INVALID_ARGS: the flow header has no appId", hint: "appId: com.example.app"},
		{name: "appId and url", text: "appId: com.example.app\nurl: https://example.com\n---\n- back\n",
			want: "flows/main.yaml:2:1: INVALID_ARGS: the header gives both appId and url"},
		{name: "appId null", text: "appId:\n---\n- back\n",
			want: "flows/main.yaml:1:7: INVALID_ARGS: appId must be text, got null"},
		{name: "appId list", text: "appId: [com.example.app]\n---\n- back\n",
			want: "flows/main.yaml:1:8: INVALID_ARGS: appId must be text, got a list"},
		{name: "name mapping", text: "appId: com.example.app\nname: {en: Checkout}\n---\n- back\n",
			want: "flows/main.yaml:2:7: INVALID_ARGS: name must be text, got a mapping"},
		{name: "tags written as one scalar (Maestro requires a list)", text: "appId: com.example.app\ntags: smoke\n---\n- back\n",
			want: "flows/main.yaml:2:7: INVALID_ARGS: tags must be a list, got \"smoke\"", hint: "tags: [smoke]"},
		{name: "tags mapping", text: "appId: com.example.app\ntags: {smoke: true}\n---\n- back\n",
			want: "flows/main.yaml:2:7: INVALID_ARGS: tags must be a list, got a mapping"},
		{name: "tags item list", text: "appId: com.example.app\ntags: [[smoke]]\n---\n- back\n",
			want: "flows/main.yaml:2:8: INVALID_ARGS: tags must be text, got a list"},
		{name: "env not a mapping", text: "appId: com.example.app\nenv: [A]\n---\n- back\n",
			want: "flows/main.yaml:2:6: INVALID_ARGS: env must be a mapping of NAME: value, got a list"},
		{name: "env name starts with a digit", text: "appId: com.example.app\nenv:\n  1ST: x\n---\n- back\n",
			want: "flows/main.yaml:3:3: INVALID_ARGS: env name \"1ST\" is not a valid variable name", hint: "JavaScript"},
		{name: "env name with a dash", text: "appId: com.example.app\nenv:\n  MY-VAR: x\n---\n- back\n",
			want: "flows/main.yaml:3:3: INVALID_ARGS: env name \"MY-VAR\" is not a valid variable name"},
		{name: "env value mapping", text: "appId: com.example.app\nenv:\n  A: {b: c}\n---\n- back\n",
			want: "flows/main.yaml:3:6: INVALID_ARGS: env A must be a single value, got a mapping"},
		{name: "env value list", text: "appId: com.example.app\nenv:\n  A: [b]\n---\n- back\n",
			want: "flows/main.yaml:3:6: INVALID_ARGS: env A must be a single value, got a list"},
		{name: "env duplicate name: the last wins, with a warning", text: "appId: com.example.app\nenv:\n  A: 1\n  A: 2\n---\n- back\n"},
		{name: "appId is a number", text: "appId: 5\n---\n- back\n",
			want: `flows/main.yaml:1:8: INVALID_ARGS: appId 5 is a number, not an app id: Maestro would look for an app named "5"`, hint: "quote it"},
		{name: "url is a boolean", text: "url: true\n---\n- back\n",
			want: `flows/main.yaml:1:6: INVALID_ARGS: url true is a boolean, not an app id: Maestro would look for an app named "true"`},
		{name: "duplicate header key: the last wins, with a warning", text: "appId: com.example.app\nname: a\nname: b\n---\n- back\n"},
		{name: "jsEngine list", text: "appId: com.example.app\njsEngine: [graaljs]\n---\n- back\n",
			want: "flows/main.yaml:2:11: INVALID_ARGS: jsEngine must be text, got a list"},
		{name: "onFlowStart not a list", text: "appId: com.example.app\nonFlowStart: back\n---\n- back\n",
			want: "flows/main.yaml:2:14: INVALID_ARGS: onFlowStart must be a list of commands, got a scalar"},
		{name: "onFlowComplete null", text: "appId: com.example.app\nonFlowComplete:\n---\n- back\n",
			want: "flows/main.yaml:2:16: INVALID_ARGS: onFlowComplete must be a list of commands, got null"},
		{name: "bad command in onFlowStart", text: "appId: com.example.app\nonFlowStart:\n  - back\n  - frobnicate\n---\n- back\n",
			want: "flows/main.yaml:4:5: INVALID_ARGS: unknown command \"frobnicate\""},
		{name: "bad command in onFlowComplete", text: "appId: com.example.app\nonFlowComplete:\n  - tapOn: [a]\n---\n- back\n",
			want: "flows/main.yaml:3:12: INVALID_ARGS: tapOn takes one selector, got a list"},
	}
}

func TestHeader(t *testing.T) { runFileCases(t, headerCases()) }

// TestYAMLSyntaxErrors pins the line of each YAML syntax error: yaml.v3
// writes parser errors 0-based and omits line 1, which the loader corrects.
func TestYAMLSyntaxErrors(t *testing.T) {
	cases := []fileCase{
		{name: "unclosed flow mapping", text: "appId: com.example.app\n---\n- back\n- tapOn: {text: Buy\n- back\n",
			want: "flows/main.yaml:4: INVALID_ARGS: invalid YAML: did not find expected ',' or '}'"},
		{name: "template in a flow mapping", text: "appId: com.example.app\n---\n- back\n- setLocation: {latitude: ${LAT}, longitude: 1}\n",
			want: "flows/main.yaml:4: INVALID_ARGS: invalid YAML: did not find expected ',' or '}'"},
		{name: "unclosed flow sequence", text: "appId: com.example.app\n---\n- addMedia: [a.png, b.png\n- back\n",
			want: "flows/main.yaml:3: INVALID_ARGS: invalid YAML: did not find expected ',' or ']'"},
		{name: "unterminated quote", text: "appId: com.example.app\n---\n- back\n- tapOn: \"Buy\n",
			want: "flows/main.yaml:4: INVALID_ARGS: invalid YAML: found unexpected end of stream"},
		{name: "mapping value in a plain scalar", text: "appId: com.example.app\n---\n- back\n- tapOn: Total: 5\n",
			want: "flows/main.yaml:4: INVALID_ARGS: invalid YAML: mapping values are not allowed in this context"},
		{name: "key after the command list: reported where the list starts", text: "appId: com.example.app\n---\n- back\nname: late\n",
			want: "flows/main.yaml:3: INVALID_ARGS: invalid YAML: did not find expected '-' indicator"},
		{name: "bad indentation in the header", text: "appId: com.example.app\n  name: x\nenv: {}\n---\n- back\n",
			want: "flows/main.yaml:2: INVALID_ARGS: invalid YAML: mapping values are not allowed in this context"},
		{name: "unclosed list on the first line: reported where it ends", text: "appId: [com.example.app\n---\n- back\n",
			want: "flows/main.yaml:2: INVALID_ARGS: invalid YAML: did not find expected ',' or ']'"},
		{name: "duplicate directive on the second line", text: "%YAML 1.1\n%YAML 1.1\n---\nappId: x\n---\n- back\n",
			want: "flows/main.yaml:2: INVALID_ARGS: invalid YAML: found duplicate %YAML directive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := loadFlow(t, tc.text, nil).onlyProblem(t)
			if got := withoutHint(e); got != tc.want {
				t.Errorf("problem\n got: %s\nwant: %s", got, tc.want)
			}
			if !strings.Contains(e.Hint, "YAML syntax") {
				t.Errorf("hint %q", e.Hint)
			}
		})
	}
}

// TestYAMLErrorInSubflow: a syntax error in a subflow is reported in the
// subflow, and the runFlow naming it in the caller.
func TestYAMLErrorInSubflow(t *testing.T) {
	t.Parallel()
	r := loadBody(t, "- runFlow: bad.yaml\n", map[string]string{"flows/bad.yaml": "appId: x\n---\n- tapOn: {text: a\n"})
	got := renderProblems(r.problems)
	want := strings.Join([]string{
		`flows/bad.yaml:3: INVALID_ARGS: invalid YAML: did not find expected ',' or '}' | hint: fix the YAML syntax near this line: check indentation, colons and quotes`,
		`flows/main.yaml:3:12: INVALID_ARGS: runFlow file "bad.yaml" has errors (reported at its own lines) | hint: fix the errors reported in flows/bad.yaml`,
	}, "\n")
	if got != want {
		t.Errorf("problems\n got:\n%s\nwant:\n%s", got, want)
	}
}

// aliasCases pin YAML anchors, aliases and merge keys as Maestro 1.39's
// reader (jackson-dataformat-yaml 2.17) reads them: anchors are ignored, an
// alias *name is the text "name", and << is a key like any other.
func aliasCases() []fileCase {
	return []fileCase{
		{name: "an anchor on a value changes nothing", text: "appId: &app com.example.app\n---\n- tapOn: &buy {id: buy, index: 0}\n- inputText: &t hello\n"},
		{name: "a scalar alias is the anchor's name", text: "appId: &app com.example.app\nname: *app\n---\n- launchApp: *app\n- stopApp: *app\n"},
		{name: "a selector alias is a text selector of the anchor's name", text: "appId: com.example.app\n---\n- tapOn: &buy {id: buy, index: 0}\n- assertVisible: *buy\n- copyTextFrom: {below: *buy}\n"},
		{name: "a command alias is the command named like the anchor", text: "appId: com.example.app\n---\n- &back {tapOn: Next}\n- *back\n"},
		{name: "an alias inside its own anchor is just text", text: "appId: com.example.app\n---\n- tapOn: &a {text: x, below: *a}\n"},
		{name: "the header ignores <<, as Maestro does", text: "appId: com.example.app\n<<: {name: merged}\n---\n- back\n"},
		{name: "a command alias naming no command", text: "appId: com.example.app\n---\n- &next {tapOn: Next}\n- *next\n",
			want: `flows/main.yaml:4:3: INVALID_ARGS: unknown command "next"`},
		{name: "a list alias where a list belongs", text: "appId: com.example.app\nonFlowStart: &reset\n  - clearState\nonFlowComplete: *reset\n---\n- back\n",
			want: "flows/main.yaml:4:17: INVALID_ARGS: onFlowComplete must be a list of commands, got a scalar"},
		{name: "merge key in a selector", text: "appId: com.example.app\n---\n- tapOn: &base {id: item, index: 0}\n- tapOn:\n    <<: *base\n    index: 2\n",
			want: `flows/main.yaml:5:5: INVALID_ARGS: unknown key "<<" in tapOn`, hint: "Maestro 1.39 does not merge mappings"},
		{name: "merge key in a command", text: "appId: com.example.app\n---\n- launchApp:\n    <<: {clearState: true}\n",
			want: `flows/main.yaml:4:5: INVALID_ARGS: unknown key "<<" in launchApp`, hint: "write the keys out"},
		{name: "merge key in a condition", text: "appId: com.example.app\n---\n- runFlow:\n    when:\n      <<: {platform: iOS}\n    commands: [back]\n",
			want: `flows/main.yaml:5:7: INVALID_ARGS: unknown key "<<" in when`, hint: "does not merge"},
		{name: "merge key in env", text: "appId: com.example.app\nenv:\n  <<: {A: b}\n---\n- back\n",
			want: `flows/main.yaml:3:3: INVALID_ARGS: env name "<<" is not a valid variable name`, hint: "does not merge"},
		{name: "an alias as a key", text: "appId: com.example.app\nx: &k name\n---\n- tapOn: {*k : Buy}\n",
			want: "flows/main.yaml:4:11: INVALID_ARGS: an alias (*k) cannot be a key"},
	}
}

func TestAliases(t *testing.T) { runFileCases(t, aliasCases()) }

// TestAliasesNeverExpand: nested aliases that would expand to 10^9
// commands are not expanded at all (each is the text of its name), so the
// flow is refused at once for the unknown commands they name.
func TestAliasesNeverExpand(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(header + "- repeat:\n    times: 1\n    commands: &a0 [back, back, back, back, back, back, back, back, back, back]\n")
	for i := 1; i <= 8; i++ {
		item := "{repeat: {times: 1, commands: *a" + string(rune('0'+i-1)) + "}}"
		b.WriteString("- repeat:\n    times: 1\n    commands: &a" + string(rune('0'+i)) + " [" + strings.Repeat(item+", ", 9) + item + "]\n")
	}
	r := loadFlow(t, b.String(), nil)
	if len(r.problems) != 80 || len(r.warnings) != 80 {
		t.Fatalf("want one problem and one warning per alias (80), got %d and %d", len(r.problems), len(r.warnings))
	}
	if e := r.problems[0]; !strings.Contains(e.Message, "repeat commands must be a list of commands, got a scalar") || e.Pos.Line != 8 {
		t.Errorf("got %s", renderProblem(e))
	}
}

// TestEveryProblemHasAPosition runs every error row of every table and
// checks the invariant the CLI relies on: a file, a line and a column.
func TestEveryProblemHasAPosition(t *testing.T) {
	t.Parallel()
	var texts []string
	for _, f := range families() {
		for _, c := range f.errors {
			texts = append(texts, header+c.in)
		}
	}
	for _, cases := range [][]fileCase{documentCases(), headerCases(), aliasCases()} {
		for _, c := range cases {
			if c.want != "" {
				texts = append(texts, c.text)
			}
		}
	}
	for _, text := range texts {
		l := loadFlow(t, text, nil)
		if len(l.problems) == 0 {
			t.Errorf("no problem for\n%s", text)
		}
		for _, p := range l.problems {
			if p.Pos.File == "" || p.Pos.Line <= 0 || p.Pos.Col <= 0 {
				t.Errorf("problem without a full position: %s\nin:\n%s", renderProblem(p), text)
			}
		}
		for _, w := range l.warnings {
			if w.Pos.File == "" || w.Pos.Line <= 0 || w.Pos.Col <= 0 {
				t.Errorf("warning without a full position: %s", renderProblem(w))
			}
		}
	}
}

// maestroCorpusCases restate, in our own YAML, features Maestro's own test
// flows rely on (maestro-reference §1.1; the 1.39.10 corpus manifest).
func maestroCorpusCases() []fileCase {
	return []fileCase{
		{name: "backslashes in plain scalars are kept", text: "appId: com.example.app\n---\n- inputText: Hello\\nWorld\n- inputText: \\+123456\n"},
		{name: "non-ASCII text", text: "appId: com.example.app\n---\n- tapOn: Café\n- inputText: 你好\n- assertVisible: Ünïcödé\n"},
		{name: "block scalar env value with specials", text: "appId: com.example.app\nenv:\n  JSON: |\n    {\"a\": 'b', \"c\": \"${x}\"} \\ # not a comment\n---\n- back\n"},
		{name: "plain coordinates with spaces (Maestro 027)", text: "appId: com.example.app\n---\n- swipe:\n    start: 90%, 50%\n    end: 10%, 50%\n    waitToSettleTimeoutMs: 50\n- swipe:\n    start: 100, 200\n    end: 300, 400\n- tapOn:\n    point: 85%, 50%\n"},
		{name: "a comment before the header", text: "# Copyright\n# A flow\nappId: com.example.app\n---\n\n# first step\n- launchApp\n"},
	}
}

func TestMaestroCorpusFeatures(t *testing.T) { runFileCases(t, maestroCorpusCases()) }

// TestNestedSubflowProblems (Maestro e009): a problem two subflows deep
// is reported where it is, and each runFlow on the way marks its caller.
func TestNestedSubflowProblems(t *testing.T) {
	t.Parallel()
	r := loadBody(t, "- runFlow: ./nested/a.yaml\n", map[string]string{
		"flows/nested/a.yaml": "appId: com.example.a\n---\n- runFlow: ./b.yaml\n",
		"flows/nested/b.yaml": "appId: com.example.b\n---\n- back\n- invalidCommand\n",
	})
	got := renderProblems(r.problems)
	want := strings.Join([]string{
		`flows/nested/b.yaml:4:3: INVALID_ARGS: unknown command "invalidCommand" | hint: see flow schema for every command`,
		`flows/nested/a.yaml:3:12: INVALID_ARGS: runFlow file "./b.yaml" has errors (reported at its own lines) | hint: fix the errors reported in flows/nested/b.yaml`,
		`flows/main.yaml:3:12: INVALID_ARGS: runFlow file "./nested/a.yaml" has errors (reported at its own lines) | hint: fix the errors reported in flows/nested/a.yaml`,
	}, "\n")
	if got != want {
		t.Errorf("problems\n got:\n%s\nwant:\n%s", got, want)
	}
}

// longForms is a minimal long (mapping) form of every command of
// maestro-reference §1.1 but action, which has none; label and optional
// are added by the tests.
func longForms() map[string]string {
	return map[string]string{
		"launchApp": "appId: a", "tapOn": "text: a", "doubleTapOn": "text: a", "longPressOn": "text: a",
		"assertVisible": "text: a", "assertNotVisible": "text: a", "assertTrue": "condition: a",
		"assertNoDefectsWithAI": "", "assertWithAI": "assertion: a", "extractTextWithAI": "query: a",
		"addMedia": "files: [media/cat.png]", "inputText": "text: a", "inputRandomText": "length: 3",
		"inputRandomNumber": "", "inputRandomEmail": "", "inputRandomPersonName": "", "swipe": "direction: UP",
		"openLink": "link: a", "pressKey": "key: Enter", "eraseText": "charactersToErase: 3", "back": "",
		"clearKeychain": "", "hideKeyboard": "", "pasteText": "", "scroll": "", "takeScreenshot": "path: a",
		"extendedWaitUntil": "visible: a", "stopApp": "", "killApp": "", "clearState": "",
		"runFlow": "file: sub.yaml", "setLocation": "latitude: 1, longitude: 2",
		"repeat": "times: 1, commands: [back]", "retry": "commands: [back]", "copyTextFrom": "text: a",
		"runScript": "file: setup.js", "waitForAnimationToEnd": "", "evalScript": "script: a",
		"scrollUntilVisible": "element: a", "travel": `points: ["1,2"]`, "startRecording": "path: a",
		"stopRecording": "", "setAirplaneMode": "value: enabled", "toggleAirplaneMode": "",
	}
}

func longForm(name, fields, extra string) string {
	parts := []string{}
	for _, s := range []string{fields, extra} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return "- " + name + ": {" + strings.Join(parts, ", ") + "}\n"
}

// TestLabelOnEveryCommand (Maestro 023): every long form takes a label.
func TestLabelOnEveryCommand(t *testing.T) {
	t.Parallel()
	for name, fields := range longForms() {
		r := loadBody(t, longForm(name, fields, "label: My label"), nil)
		if r.err != nil {
			t.Errorf("%s: %s", name, renderProblems(r.problems))
			continue
		}
		if got := r.flow.Commands[0].Base().Label; got != "My label" {
			t.Errorf("%s: label %q", name, got)
		}
	}
}

// TestOptionalOnEveryCommand: optional is read by every command but the
// three maestro-reference §1.1 and §7.8 list (inputText and evalScript
// ignore it in their map form, setAirplaneMode never reads it, each with a
// warning); the AI commands are optional unless told otherwise.
func TestOptionalOnEveryCommand(t *testing.T) {
	t.Parallel()
	ignores := map[string]bool{"inputText": true, "evalScript": true, "setAirplaneMode": true}
	ai := map[string]bool{"assertWithAI": true, "assertNoDefectsWithAI": true, "extractTextWithAI": true}
	for name, fields := range longForms() {
		for _, tc := range []struct {
			extra string
			want  bool
		}{{"optional: true", !ignores[name]}, {"optional: false", false}, {"", ai[name]}} {
			r := loadBody(t, longForm(name, fields, tc.extra), nil)
			if r.err != nil {
				t.Errorf("%s %q: %s", name, tc.extra, renderProblems(r.problems))
				continue
			}
			if got := r.flow.Commands[0].Base().Optional; got != tc.want {
				t.Errorf("%s {%s}: optional %v, want %v", name, tc.extra, got, tc.want)
			}
			warned := len(r.warnings) > 0
			if wantWarn := ignores[name] && tc.extra != ""; warned != wantWarn {
				t.Errorf("%s {%s}: warnings %q", name, tc.extra, r.warningLines())
			}
		}
	}
}

// TestTabsAreReportedAtTheTab: yaml.v3 reports a tab that indents YAML on
// the line before it or without a column; flow points at the tab itself,
// in flows and workspace configs alike.
func TestTabsAreReportedAtTheTab(t *testing.T) {
	t.Parallel()
	const want = "INVALID_ARGS: a tab indents this line: tabs cannot indent YAML; use spaces"
	for _, tc := range []struct{ name, text, at string }{
		{"a command indented by a tab", "appId: com.example.app\n---\n- launchApp\n\t- tapOn: Login\n- back\n", "flows/main.yaml:4:1"},
		{"a key indented by a tab", "appId: com.example.app\n---\n- runFlow:\n\tfile: sub.yaml\n", "flows/main.yaml:4:1"},
		{"a tab after the dash", "appId: com.example.app\n---\n- launchApp\n-\ttapOn: Login\n", "flows/main.yaml:4:2"},
		{"a tab after spaces, deeper down", "appId: com.example.app\n---\n- tapOn:\n    text: Login\n  \t  id: x\n", "flows/main.yaml:5:3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := loadFlow(t, tc.text, nil).onlyProblem(t)
			if got := withoutHint(e); got != tc.at+": "+want || !strings.Contains(e.Hint, "spaces") {
				t.Errorf("got %s, want it at %s", renderProblem(e), tc.at)
			}
		})
	}
	tree := fstest.MapFS{"w/config.yaml": {Data: []byte("flows:\n\t- \"*\"\n")}, "w/a.yaml": {Data: []byte("appId: x\n---\n- back\n")}}
	_, err := newLoader139(tree).Plan([]string{"w"}, maestro.PlanOptions{})
	if ce, ok := canonical.AsError(err); !ok || ce.Pos.String() != "w/config.yaml:2:1" || !strings.Contains(ce.Message, "tabs cannot indent YAML") {
		t.Errorf("config: %v", err)
	}
}

// deniedSource refuses to read one file, as the OS does without permission.
type deniedSource struct {
	fstest.MapFS
	denied string
}

func (s deniedSource) ReadFile(name string) ([]byte, error) {
	if name == s.denied {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return s.MapFS.ReadFile(name)
}

// TestReadErrorHintsNameTheCause: a file that exists but cannot be read is
// not blamed on its path.
func TestReadErrorHintsNameTheCause(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{
		"f/main.yaml":   {Data: []byte("appId: x\n---\n- runScript: s.js\n- runFlow: sub.yaml\n")},
		"f/s.js":        {Data: []byte("1")},
		"f/sub.yaml":    {Data: []byte("appId: x\n---\n- back\n")},
		"w/config.yaml": {Data: []byte("flows: ['*']\n")},
		"w/a.yaml":      {Data: []byte("appId: x\n---\n- back\n")},
	}
	for _, denied := range []string{"f/main.yaml", "f/s.js", "f/sub.yaml"} {
		_, err := newLoader139(deniedSource{tree, denied}).Load("f/main.yaml")
		ce, ok := canonical.AsError(err)
		if !ok || !strings.Contains(ce.Message, "permission denied") || !strings.Contains(ce.Hint, "permissions") || strings.Contains(ce.Hint, "path") {
			t.Errorf("%s: %v (hint %q)", denied, err, hintOf(ce))
		}
	}
	_, err := newLoader139(deniedSource{tree, "w/config.yaml"}).Plan([]string{"w"}, maestro.PlanOptions{})
	if ce, ok := canonical.AsError(err); !ok || !strings.Contains(ce.Hint, "permissions") || strings.Contains(ce.Hint, "--config") {
		t.Errorf("config: %v (hint %q)", err, hintOf(ce))
	}
	_, err = newLoader139(tree).Load("f/missing.yaml")
	if ce, ok := canonical.AsError(err); !ok || !strings.Contains(ce.Hint, "check the path") {
		t.Errorf("missing: %v (hint %q)", err, hintOf(ce))
	}
}

func hintOf(ce *canonical.Error) string {
	if ce == nil {
		return ""
	}
	return ce.Hint
}
