package ad

import (
	"encoding/json"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
)

// stepView is a step as a snapshot shows it: the command in flow's
// canonical JSON (with its source position).
type stepView struct {
	Line       int                       `json:"line"`
	Command    json.RawMessage           `json:"command,omitempty"`
	Gesture    *canonical.GestureCommand `json:"gesture,omitempty"`
	DragSource []canonical.Selector      `json:"dragSource,omitempty"`
	DragDest   []canonical.Selector      `json:"dragDestination,omitempty"`
	Dropped    []string                  `json:"dropped,omitempty"`
	NoOp       string                    `json:"noop,omitempty"`
	Target     bool                      `json:"hasTarget,omitempty"`
}

func viewSteps(t *testing.T, steps []Step) []stepView {
	t.Helper()
	var out []stepView
	for _, s := range steps {
		v := stepView{Line: s.Line, Gesture: s.Gesture, Dropped: s.Dropped, NoOp: s.NoOp,
			DragSource: s.DragSource, DragDest: s.DragDestination,
			Target: s.Target != nil || s.Targets != nil}
		if s.Command != nil {
			data, err := canonical.EncodeCommand(s.Command)
			if err != nil {
				t.Fatal(err)
			}
			v.Command = data
		}
		out = append(out, v)
	}
	return out
}

// convertLast parses "open com.example.app\n"+line, resolves every action
// with APP/NAME/N set, and converts them in order; it returns the steps of
// the last action or its error.
func convertLast(t *testing.T, line string) ([]Step, error) {
	t.Helper()
	s := mustParse(t, "open com.example.app\n"+line)
	scope, err := NewScope(VarSources{File: map[string]string{"APP": "com.example.other", "NAME": "Ada Lovelace", "N": "3", "SEL": `id="x" || label="X"`}})
	if err != nil {
		t.Fatal(err)
	}
	var c Converter
	var steps []Step
	for _, a := range s.Actions {
		r, err := Resolve(a, scope)
		if err != nil {
			return nil, err
		}
		if steps, err = c.Steps(r); err != nil {
			return nil, err
		}
	}
	return steps, nil
}

// TestCanonicalSteps pins what each supported line becomes.
func TestCanonicalSteps(t *testing.T) {
	t.Parallel()
	lines := []string{
		`open com.example.app --relaunch`,
		`open "${APP}" myapp://deep/link`,
		`open com.example.app --launch-url https://example.com/x`,
		`open https://example.com`,
		`open`,
		`close`,
		`close ${APP}`,
		`click 100 200.5`,
		`press 0x10 1e2`,
		`click "label=\"Form\""`,
		`click id="login" || label="Log in" || role=button label="Log in"`,
		`click ${SEL}`,
		`click "text=\"Price: $5 (incl. tax)\" enabled=true selected"`,
		`click "value='a\u00e9\"b' focused=false visible"`,
		`click 1 2 --count 3 --interval-ms 50`,
		`click 1 2 --double-tap`,
		`click 1 2 --hold-ms 600`,
		`click 1 2 --jitter-px 0`,
		`longpress 300 500`,
		`longpress 300 500 1200`,
		`longpress "label=\"Save\"" --hold-ms 700`,
		`fill id="field-name" "Ada Lovelace"`,
		`fill 10 20 ${NAME}`,
		`type hello   world "${NAME}" "\\${literal}"`,
		`swipe 320 500 40 500 --count 8 --pause-ms 30 --pattern ping-pong`,
		`swipe 1 2 3 4 --count ${N}`,
		`gesture pan 200 420 0 -80 500 --pointer-count 2`,
		`gesture fling left 195 443 180`,
		`gesture swipe left-edge`,
		`gesture pinch 1.25 195 443`,
		`gesture rotate 35`,
		`gesture transform 1 2 3 4 2 35`,
		`gesture drag "id=\"card-a\" || label=\"Card A\"" "label=\"Done column\"" 800 500 0`,
		`scroll down`,
		`scroll up 0.3`,
		`scroll left 2 --duration-ms 5`,
		`scroll right 0.5 --duration-ms 700`,
		`scroll down --until "text=\"Footer\""`,
		`back`,
		`home`,
		`keyboard dismiss`,
		`keyboard return`,
		`snapshot -i`,
		`screenshot`,
		`screenshot out.PNG`,
		`screenshot "shots/${NAME}"`,
		`wait "label=\"Form\"" 30000`,
		`wait "Order summary" 5000`,
		`wait text "Order summary"`,
		`wait absent id="spinner" 2000`,
		`wait stable`,
		`is visible label="Log in"`,
		`is hidden "id=\"spinner\""`,
		`is exists "id=\"a\" || id=\"b\""`,
		`is selected "id=\"tab\""`,
		`is focused "id=\"field\""`,
		`is text id="title" "Welcome back"`,
	}
	type row struct {
		Line  string     `json:"line"`
		Steps []stepView `json:"steps"`
	}
	var rows []row
	for _, l := range lines {
		steps, err := convertLast(t, l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		rows = append(rows, row{Line: l, Steps: viewSteps(t, steps)})
	}
	snaps.MatchJSON(t, rows)
}

// TestCanonicalRefusals pins the lines flow parses but cannot run, and the
// values refused once resolved.
func TestCanonicalRefusals(t *testing.T) {
	t.Parallel()
	lines := []string{
		`click @e12 "Log in"`,
		`click @e12`,
		`fill @e5 "Email" ada@example.com`,
		`wait @e4 1000`,
		`gesture drag @e1 "label=\"B\""`,
		`wait 500`,
		`wait stable 500 2000`,
		`wait absent "id=\"a\" || id=\"b\""`,
		`scroll top`,
		`scroll bottom`,
		`scroll sideways`,
		`scroll dwn`,
		`scroll down 0`,
		`scroll down lots`,
		`scroll up --pixels 200`,
		`scroll down 0.5 --until "id=\"x\""`,
		`keyboard`,
		`keyboard status`,
		`keyboard dissmis`,
		`is editable "id=\"x\""`,
		`is visibel "id=\"x\""`,
		`is text "text=\"a\"" b`,
		`is hidden "id=\"a\" || id=\"b\""`,
		`click 1 2 --jitter-px 3`,
		`click 1 2 --button secondary`,
		`click 1 2 --double-tap --count 2`,
		`click 1 2 --count 2 --hold-ms 500`,
		`type x --delay-ms 20`,
		`open app --platform ios`,
		`open app --metro-host localhost`,
		`open https://x.example --relaunch`,
		`open app myapp://a --launch-url myapp://b`,
		`open "${EMPTYISH:-}"`,
		`back --in-app`,
		`screenshot --fullscreen`,
		`click "role=button"`,
		`click "appname=Safari"`,
		`click "text=\"a\" label=\"b\""`,
		`click "visible=false"`,
		`wait visible`,
		`click "enabled selected=true"`,
		`click "Log in"`,
		`click "id=\"a\" ||"`,
		`click "button=\"Push\""`,
		`click "lable=\"x\""`,
		`click "enabled=maybe"`,
		`click "id="`,
		`click "id=\"a"`,
		`click ${MISSING}`,
		`click 1 abc`,
		`longpress 1 2 -5`,
		`longpress "id=\"a\"" 800 --hold-ms 800`,
		`longpress 1 2 --count 2`,
		`wait "id=\"a\"" soon`,
		`wait text`,
		`swipe 1 2 3`,
		`swipe 1 2 3 4 --count ${N}00`,
		`gesture pan 1 2 3 4 9`,
		`gesture zoom 2`,
		`gesture pinch 2 --pointer-count 2`,
		`gesture swipe up`,
	}
	type row struct {
		Line  string `json:"line"`
		Error any    `json:"error"`
	}
	var rows []row
	for _, l := range lines {
		_, err := convertLast(t, "open com.example\n"+l)
		if err == nil {
			t.Errorf("%s: converted, want an error", l)
			continue
		}
		rows = append(rows, row{Line: l, Error: errJSON(t, err)})
	}
	snaps.MatchJSON(t, rows)
}

// TestCheckSupported: literal lines are converted in full before anything
// runs; lines with ${VAR} are checked as far as their literal parts allow.
func TestCheckSupported(t *testing.T) {
	t.Parallel()
	ok := []string{
		"open com.example\nclick 1 2\nclose",
		"open ${APP}\nclose",
		"open com.example\nclick ${SEL}\nwait ${X} 100\nscroll ${DIR}\ntype \\${notavar}",
		"open com.example\nswipe 1 2 3 4 --count ${N}",
	}
	for _, src := range ok {
		if err := CheckSupported(mustParse(t, src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	bad := map[string]string{
		"click 1 2\nwait 500":                      "wait 500 (a fixed sleep) is not supported by flow yet (line 2)",
		"close":                                    "close without an app needs an earlier open",
		"click @e1 ${X}":                           "click @e1: snapshot refs belong to the recording session and cannot be replayed by flow (line 1)",
		"click ${X} --jitter-px 2":                 "click --jitter-px is not supported by flow (line 1)",
		"scroll top ${X}":                          "scroll top is not supported by flow (line 1)",
		"keyboard ${X}\nkeyboard status":           "keyboard status is not supported by flow (line 2)",
		"gesture pinch abc":                        "Expected scale to be a finite number.",
		"swipe 1 2 3 4 --count 200 --pause-ms 300": "Swipe series must fit within 60000ms.",
		"click \"Log in\"":                         `Invalid selector term "Log", expected key=value`,
	}
	for src, msg := range bad {
		err := CheckSupported(mustParse(t, src))
		ce := coded(t, err)
		if ce.Message != msg {
			t.Errorf("%q:\n got  %s\n want %s", src, ce.Message, msg)
		}
	}
}

// TestLiteralTemplate: values from .ad scripts are literal text, so every
// "${" the runtime would evaluate as JavaScript gets a backslash, and only
// those.
func TestLiteralTemplate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain":        "plain",
		"${x}":         `\${x}`,
		`\${x}`:        `\\${x}`,
		"${x":          "${x",
		"a${b}c${d}":   `a\${b}c\${d}`,
		"$${x}":        `$\${x}`,
		"${a$}":        "${a$}",
		"${a}${b":      `\${a}${b`,
		"cost $5 {ok}": "cost $5 {ok}",
	} {
		got := LiteralTemplate(in, canonical.Pos{})
		if got.Raw != want {
			t.Errorf("LiteralTemplate(%q) = %q, want %q", in, got.Raw, want)
		}
	}
}

// TestTextPattern: text matches as agent-device compares it (trimmed,
// whitespace collapsed, case-insensitive), with every regex character
// escaped.
func TestTextPattern(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		// Trimmed, single-spaced text is its escaped literal (Maestro's own
		// reading of a plain tapOn); anything else tolerates spacing.
		"Log in":                `Log in`,
		"  Price: $5.00 (x)":    `\s*Price:\s+\$5\.00\s+\(x\)\s*`,
		`a\b|c*d+e?f^g#h{i}[j]`: `a\\b\|c\*d\+e\?f\^g\#h\{i\}\[j\]`,
		"":                      `\s*\s*`,
		"${X}":                  `\$\{X\}`,
	} {
		if got := TextPattern(in); got != want {
			t.Errorf("TextPattern(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestSelectorChain pins the selector grammar.
func TestSelectorChain(t *testing.T) {
	t.Parallel()
	exprs := []string{
		`id="login"`,
		"  ID=x \t",
		`id="a" || label='B c' || role=button LABEL="d e" enabled=false hittable`,
		`text="a || b"`,
		`label="say \"hi\"" value='it\'s' text="\u00e9\ud83d\ude00\q"`,
		`visible=TRUE hidden="false"`,
	}
	type row struct {
		Expr  string         `json:"expr"`
		Chain *SelectorChain `json:"chain,omitempty"`
	}
	var rows []row
	for _, e := range exprs {
		c, err := ParseSelectorChain(e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		rows = append(rows, row{Expr: e, Chain: &c})
	}
	snaps.MatchJSON(t, rows)
	for expr, msg := range map[string]string{
		"":            "Selector expression cannot be empty",
		"  ":          "Selector expression cannot be empty",
		"|| id=a":     "Invalid selector fallback expression: || id=a",
		"id=a ||":     "Invalid selector fallback expression: id=a ||",
		`id="a`:       `Unclosed quote in selector: id="a`,
		"Log in":      `Invalid selector term "Log", expected key=value`,
		"name=x":      "Unknown selector key: name",
		"id=":         "Missing selector value for key: id",
		"enabled=yes": "Invalid boolean value for enabled: yes",
		`label=x"y`:   `Unclosed quote in selector: label=x"y`,
	} {
		_, err := ParseSelectorChain(expr)
		ce, ok := canonical.AsError(err)
		if !ok || ce.Message != msg || ce.Hint == "" {
			t.Errorf("%q: %v", expr, err)
		}
	}
}

// TestSampleSteps runs the §3.8 sample (flow's runnable copy) and the
// recorder's output through the whole pipeline: parse, check, resolve with
// built-ins and script env, convert.
func TestSampleSteps(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"checkout-form-flow.ad", "gesture-lab.ad", "recorded.ad"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := ParseScript("testdata/ad/"+name, readTestdata(t, "ad/"+name), ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := CheckSupported(s); err != nil {
				t.Fatal(err)
			}
			scope, err := NewScope(VarSources{
				Builtins: Builtins{Platform: s.Context.Platform, Filename: "testdata/ad/" + name, ShardCount: 1}.Vars(),
				File:     s.ScriptVars(),
			})
			if err != nil {
				t.Fatal(err)
			}
			var c Converter
			var all []stepView
			for _, a := range s.Actions {
				r, err := Resolve(a, scope)
				if err != nil {
					t.Fatal(err)
				}
				steps, err := c.Steps(r)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, viewSteps(t, steps)...)
			}
			snaps.MatchJSON(t, all)
		})
	}
}
