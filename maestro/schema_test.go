package maestro

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/flow-runner/flow/canonical"
)

// schemaDoc is the embedded schema as plain data.
func schemaDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatalf("schema.json is not JSON: %v", err)
	}
	return doc
}

func definition(t *testing.T, doc map[string]any, name string) map[string]any {
	t.Helper()
	defs, _ := doc["definitions"].(map[string]any)
	d, ok := defs[name].(map[string]any)
	if !ok {
		t.Fatalf("schema has no definition %q", name)
	}
	return d
}

func keysOf(m any) []string {
	mm, _ := m.(map[string]any)
	out := make([]string, 0, len(mm))
	for k := range mm {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sorted(list []string) []string {
	out := append([]string{}, list...)
	sort.Strings(out)
	return out
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(sorted(got), "\n") != strings.Join(sorted(want), "\n") {
		t.Errorf("%s:\n got  %q\n want %q", what, sorted(got), sorted(want))
	}
}

func TestSchemaIsValidDraft07(t *testing.T) {
	t.Parallel()
	doc := schemaDoc(t)
	if doc["$schema"] != "http://json-schema.org/draft-07/schema#" {
		t.Errorf("$schema = %v, want draft-07", doc["$schema"])
	}
	if doc["$id"] != schemaURL {
		t.Errorf("$id = %v, want %s (the URL the validator compiles it under)", doc["$id"], schemaURL)
	}
	meta, err := jsonschema.NewCompiler().Compile("http://json-schema.org/draft-07/schema#")
	if err != nil {
		t.Fatal(err)
	}
	var raw any
	if err := json.Unmarshal(Schema(), &raw); err != nil {
		t.Fatal(err)
	}
	if err := meta.Validate(raw); err != nil {
		t.Fatalf("schema.json is not a valid draft-07 schema: %#v", err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	if err := c.AddResource(schemaURL, bytes.NewReader(Schema())); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile(schemaURL); err != nil {
		t.Fatalf("schema.json does not compile: %v", err)
	}
	if _, err := newSchemaValidator(); err != nil {
		t.Fatal(err)
	}
}

// The file is what flow schema prints, so it stays in one stable layout:
// two-space indentation, as encoding/json writes it.
func TestSchemaIsStable(t *testing.T) {
	t.Parallel()
	var compact, indented bytes.Buffer
	if err := json.Compact(&compact, Schema()); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	indented.WriteByte('\n')
	if !bytes.Equal(indented.Bytes(), Schema()) {
		t.Error("schema.json is not laid out as json.Indent(…, \"\", \"  \") plus a newline; reformat it")
	}
	s := Schema()
	s[0] = 'x'
	if Schema()[0] != '{' {
		t.Error("Schema returned the embedded bytes themselves; callers could change them")
	}
}

func TestSchemaCommandsMatchLoader(t *testing.T) {
	t.Parallel()
	doc := schemaDoc(t)
	mapping := definition(t, doc, "commandMapping")
	sameList(t, "commandMapping.properties", keysOf(mapping["properties"]), CommandNames())
	sameList(t, "commandMapping.propertyNames.enum", stringList(dig(mapping, "propertyNames", "enum")), CommandNames())

	var bare []string
	// The current Maestro's bare commands (inputRandomCityName, …) count.
	for name, spec := range commandSpecsFor(canonical.MaestroCurrent) {
		if spec.bare {
			bare = append(bare, name)
		}
	}
	sameList(t, "bareCommand.enum", stringList(definition(t, doc, "bareCommand")["enum"]), bare)

	// Each command's definition exists and says what the command does.
	for name, p := range mapping["properties"].(map[string]any) {
		ref, _ := p.(map[string]any)["$ref"].(string)
		def := strings.TrimPrefix(ref, "#/definitions/")
		d := definition(t, doc, def)
		if s, _ := d["description"].(string); s == "" {
			t.Errorf("command %s (%s) has no description", name, def)
		}
	}

	// Every bare command validates bare; no other command does.
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range CommandNames() {
		errs := validateText(t, v, "- "+name+"\n", false)
		if bare := commandSpecsFor(canonical.MaestroCurrent)[name].bare; bare != (len(errs) == 0) {
			t.Errorf("- %s: bare=%v but schema says %v", name, bare, errs)
		}
	}
}

func TestSchemaKeysMatchLoader(t *testing.T) {
	t.Parallel()
	doc := schemaDoc(t)
	sameList(t, "header keys", keysOf(definition(t, doc, "header")["properties"]), headerKeys())
	sameList(t, "selector keys", keysOf(definition(t, doc, "selectorMapping")["properties"]), selectorKeys())
	sameList(t, "tap selector keys", keysOf(definition(t, doc, "tapSelectorMapping")["properties"]),
		append(append(selectorKeys(), tapKeys()...), "label"))
	sameList(t, "condition keys", keysOf(definition(t, doc, "condition")["properties"]),
		[]string{"platform", "visible", "notVisible", "true", "label", "optional"})

	long := func(cmd string) []string {
		t.Helper()
		d := definition(t, doc, "command."+cmd)
		if branches, ok := d["oneOf"].([]any); ok {
			for _, b := range branches {
				if b := b.(map[string]any); b["type"] == "object" {
					return keysOf(b["properties"])
				}
			}
			t.Fatalf("command.%s has no mapping form", cmd)
		}
		return keysOf(d["properties"])
	}
	withMeta := func(keys ...string) []string { return append(keys, "label", "optional") }
	for cmd, keys := range map[string][]string{
		"launchApp":             withMeta("appId", "url", "clearState", "clearKeychain", "stopApp", "permissions", "arguments"),
		"assertTrue":            withMeta("condition"),
		"assertWithAI":          withMeta("assertion"),
		"assertNoDefectsWithAI": withMeta(),
		"extractTextWithAI":     withMeta("query", "outputVariable"),
		"addMedia":              withMeta("files"),
		"inputText":             withMeta("text"),
		"inputRandomText":       withMeta("length"),
		"inputRandomNumber":     withMeta("length"),
		"inputRandomEmail":      withMeta(),
		"inputRandomPersonName": withMeta(),
		"swipe":                 withMeta("direction", "from", "start", "end", "duration", "waitToSettleTimeoutMs"),
		"openLink":              withMeta("link", "browser", "autoVerify"),
		"pressKey":              withMeta("key"),
		"eraseText":             withMeta("charactersToErase"),
		"back":                  withMeta(),
		"clearKeychain":         withMeta(),
		"hideKeyboard":          withMeta(),
		"pasteText":             withMeta(),
		"scroll":                withMeta(),
		"stopRecording":         withMeta(),
		"toggleAirplaneMode":    withMeta(),
		"takeScreenshot":        withMeta("path", "cropOn"), // cropOn: the current Maestro only
		"startRecording":        withMeta("path"),
		"extendedWaitUntil":     withMeta("visible", "notVisible", "timeout"),
		"stopApp":               withMeta("appId"),
		"killApp":               withMeta("appId"),
		"clearState":            withMeta("appId"),
		"runFlow":               withMeta("file", "commands", "when", "env"),
		"setLocation":           withMeta("latitude", "longitude"),
		"repeat":                withMeta("times", "while", "commands"),
		"retry":                 withMeta("maxRetries", "file", "commands", "env"),
		"runScript":             withMeta("file", "env", "when"),
		"waitForAnimationToEnd": withMeta("timeout"),
		"evalScript":            withMeta("script"),
		"scrollUntilVisible":    withMeta("element", "direction", "timeout", "speed", "visibilityPercentage", "centerElement", "waitToSettleTimeoutMs"),
		"travel":                withMeta("points", "speed"),
		"setAirplaneMode":       withMeta("value"),
	} {
		sameList(t, cmd+" keys", long(cmd), keys)
	}

	// pressKey: every key name of keys.go, completed by editors from
	// examples and matched in any letter case, as the loader matches.
	var key map[string]any
	for _, b := range dig(definition(t, doc, "command.pressKey"), "oneOf").([]any) {
		if b := b.(map[string]any); b["type"] == "string" {
			key = b
		}
	}
	sameList(t, "pressKey examples", stringList(key["examples"]), keyNames())
	re := regexp.MustCompile(key["pattern"].(string))
	for _, k := range keyNames() {
		for _, s := range []string{k, strings.ToLower(k), strings.ToUpper(k), " " + k} {
			if !re.MatchString(s) {
				t.Errorf("pressKey pattern rejects %q", s)
			}
			if _, ok := lookupKey(s); !ok {
				t.Errorf("loader rejects %q", s)
			}
		}
	}
	for _, s := range []string{"Entr", "Enter Enter", "Volume", "${key}"} {
		if re.MatchString(s) {
			t.Errorf("pressKey pattern accepts %q", s)
		}
	}
}

// Every key has a description for hover help, and every oneOf that picks
// between forms of a value gives each form its own types: the validator
// keeps the branch whose type matches, which is what makes its errors
// precise. The mapping form comes first, because yaml-language-server
// reports the first form on a tie unless it is a mapping and the value is not.
func TestSchemaDescribesEveryKey(t *testing.T) {
	t.Parallel()
	doc := schemaDoc(t)
	defs := doc["definitions"].(map[string]any)
	typeOf := func(s map[string]any) any {
		if ref, ok := s["$ref"].(string); ok {
			return defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)["type"]
		}
		return s["type"]
	}
	var walk func(where string, s any)
	walk = func(where string, s any) {
		m, ok := s.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for k, p := range props {
				pm := p.(map[string]any)
				if pm["description"] == nil {
					ref, _ := pm["$ref"].(string)
					if ref == "" || defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)["description"] == nil {
						t.Errorf("%s.%s has no description", where, k)
					}
				}
				walk(where+"."+k, p)
			}
		}
		if branches, ok := m["anyOf"].([]any); ok && !onlyRequired(branches) {
			t.Errorf("%s: use oneOf, with the mapping form first, to choose between forms", where)
		}
		if branches, ok := m["oneOf"].([]any); ok {
			seen := map[string]bool{}
			for i, b := range branches {
				ty := typeOf(b.(map[string]any))
				if ty == nil {
					t.Errorf("%s.oneOf[%d] has no type", where, i)
				}
				for _, one := range stringList(ty) {
					if seen[one] {
						t.Errorf("%s.oneOf: two branches take %s", where, one)
					}
					if one == "object" && i > 0 {
						t.Errorf("%s.oneOf: the mapping form is not first", where)
					}
					seen[one] = true
				}
			}
		}
		for k, sub := range m {
			switch k {
			case "properties":
			case "anyOf", "allOf", "oneOf":
				for i, b := range sub.([]any) {
					walk(fmt.Sprintf("%s.%s[%d]", where, k, i), b)
				}
			case "items", "additionalProperties", "not", "propertyNames":
				walk(where+"."+k, sub)
			}
		}
	}
	for name, d := range defs {
		if d.(map[string]any)["description"] == nil {
			t.Errorf("definition %s has no description", name)
		}
		walk(name, d)
	}
}

// onlyRequired tells an anyOf over required keys (a rule between keys)
// from one over forms of a value.
func onlyRequired(branches []any) bool {
	for _, b := range branches {
		if keys := keysOf(b); len(keys) != 1 || keys[0] != "required" {
			return false
		}
	}
	return true
}

// validateText validates the one document in text (the header when
// isHeader) and renders each error as "line:col message".
func validateText(t *testing.T, v *schemaValidator, text string, isHeader bool) []string {
	t.Helper()
	docs, err := documents([]byte(text))
	if err != nil || len(docs) != 1 {
		t.Fatalf("bad test document (%v, %d documents):\n%s", err, len(docs), text)
	}
	return render(v.validate(&decoder{file: "t.yaml"}, docs[0], isHeader))
}

// validateFile validates both documents of a flow file.
func validateFile(t *testing.T, v *schemaValidator, file string, data []byte) []string {
	t.Helper()
	docs, err := documents(data)
	if err != nil || len(docs) != 2 {
		t.Fatalf("%s: not a two-document flow (%v, %d documents)", file, err, len(docs))
	}
	d := &decoder{file: file}
	return render(append(v.validate(d, docs[0], true), v.validate(d, docs[1], false)...))
}

func render(errs []*canonical.Error) []string {
	out := []string{}
	for _, e := range errs {
		if e.Code != canonical.CodeInvalidArgs {
			out = append(out, "code "+string(e.Code)+": "+e.Message)
			continue
		}
		out = append(out, fmt.Sprintf("%d:%d %s", e.Pos.Line, e.Pos.Col, e.Message))
	}
	return out
}

// schemaFiles are what the loader needs for the documents below to load.
func schemaFiles() fstest.MapFS {
	return fstest.MapFS{
		"flows/sub.yaml":  {Data: []byte("appId: com.sub\n---\n- back\n")},
		"flows/setup.js":  {Data: []byte("output.ready = true\n")},
		"flows/photo.png": {Data: []byte("png")},
		"flows/clip.MP4":  {Data: []byte("mp4")},
	}
}

func loadProblems(text string) ([]*canonical.Error, []*canonical.Error) {
	l := newLoader139(schemaFiles())
	_, _ = l.LoadBytes("flows/t.yaml", []byte(text))
	return l.Problems(), l.Warnings()
}

func TestSchemaAcceptsEveryCommandForm(t *testing.T) {
	t.Parallel()
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, body string }{
		{"launchApp bare", "- launchApp"},
		{"launchApp short", "- launchApp: com.other.app"},
		{"launchApp long", `- launchApp:
    appId: com.other.app
    clearState: true
    clearKeychain: false
    stopApp: "false"
    permissions: {all: deny, camera: Allow, location: unset}
    arguments: {isE2E: true, port: 8080, name: shop, ratio: 1.5}
    label: Start fresh
    optional: true`},
		{"launchApp url", "- launchApp: {url: https://example.com}"},
		{"tapOn text", "- tapOn: Log in"},
		{"tapOn number", "- tapOn: 2022"},
		{"tapOn every selector key", `- tapOn:
    text: Log.*
    id: login_button
    index: ${i}
    width: 100
    height: "50"
    tolerance: 5
    enabled: true
    selected: false
    checked: TRUE
    focused: false
    below: Title
    above: {id: footer}
    leftOf: {text: Price, rightOf: {id: icon}}
    rightOf: 12
    containsChild: {id: check}
    containsDescendants: [Title, {id: price, traits: text}]
    childOf: {id: card, childOf: {id: list}}
    traits: text long_text SQUARE
    optional: false
    retryTapIfNoChange: false
    waitUntilVisible: true
    repeat: 3
    delay: 1_000
    waitToSettleTimeoutMs: 500
    label: Tap it`},
		{"tapOn point", `- tapOn: {point: "50%,80%"}
- tapOn: {point: "540, 1200"}
- tapOn:
    point: ${x},${y}`},
		{"tapOn index number", "- tapOn: {text: Buy, index: 1}"},
		{"doubleTapOn", "- doubleTapOn: Photo\n- doubleTapOn: {id: photo, delay: 50}"},
		{"longPressOn", "- longPressOn: Photo\n- longPressOn: {point: \"10%,10%\"}"},
		{"assertVisible", "- assertVisible: Welcome\n- assertVisible: {id: banner, enabled: true, label: Banner, optional: true}"},
		{"assertNotVisible", "- assertNotVisible: Error\n- assertNotVisible: {text: Spinner}"},
		{"assertTrue", "- assertTrue: ${output.n > 1}\n- assertTrue: true\n- assertTrue: {condition: \"${ok}\", label: Ready, optional: true}"},
		{"assertWithAI", "- assertWithAI: The cart is empty\n- assertWithAI: {assertion: No errors, optional: false, label: AI}"},
		{"assertNoDefectsWithAI", "- assertNoDefectsWithAI\n- assertNoDefectsWithAI: {label: Look, optional: false}"},
		{"extractTextWithAI", "- extractTextWithAI: The order number\n- extractTextWithAI: {query: Total, outputVariable: total}"},
		{"addMedia", "- addMedia: [photo.png, clip.MP4]\n- addMedia: {files: [photo.png], label: Media}"},
		{"inputText", "- inputText: hello\n- inputText: 4\n- inputText: {text: \"${EMAIL}\", label: Email}"},
		{"inputRandomText", "- inputRandomText\n- inputRandomText: {length: 5}\n- inputRandomText: {length: null}"},
		{"inputRandomNumber", "- inputRandomNumber\n- inputRandomNumber: {length: \"12\", optional: true}"},
		{"inputRandomEmail", "- inputRandomEmail\n- inputRandomEmail: {label: Email}"},
		{"inputRandomPersonName", "- inputRandomPersonName\n- inputRandomPersonName: {optional: true}"},
		{"swipe direction", "- swipe: {direction: UP}\n- swipe: {direction: left, duration: 800, waitToSettleTimeoutMs: 100}"},
		{"swipe from element", "- swipe: {from: {id: carousel}, direction: LEFT}\n- swipe: {from: Banner, direction: RIGHT}"},
		{"swipe points", `- swipe: {start: "540, 1900", end: "540, 500"}
- swipe: {start: "50%, 80%", end: "50%,20%", duration: 1_500, label: Up}
- swipe: {start: "${x}%, 50%", end: "10%, 50%"}
- swipe: {start: "100%, 0%", end: "0.5%, 99.9%"}`},
		{"openLink", "- openLink: https://example.com\n- openLink: {link: shop://cart, browser: true, autoVerify: false}"},
		{"pressKey", "- pressKey: Enter\n- pressKey: remote dpad up\n- pressKey: {key: HOME, label: Home}"},
		{"eraseText", "- eraseText\n- eraseText: 6\n- eraseText: {charactersToErase: 3}\n- eraseText: {charactersToErase: null}"},
		{"action", "- action: back\n- action: hideKeyboard\n- action: scroll\n- action: clearKeychain\n- action: pasteText"},
		{"no-argument commands long", `- back: {label: Back}
- clearKeychain: {optional: true}
- hideKeyboard: {label: Hide}
- pasteText: {label: Paste}
- scroll: {label: Scroll}
- stopRecording: {optional: false}
- toggleAirplaneMode: {label: Toggle}`},
		{"no-argument commands bare", "- back\n- clearKeychain\n- hideKeyboard\n- hide keyboard\n- pasteText\n- scroll\n- stopRecording\n- toggleAirplaneMode"},
		{"takeScreenshot", "- takeScreenshot: home\n- takeScreenshot: {path: shots/home, label: Shot}"},
		{"startRecording", "- startRecording: run\n- startRecording: {path: run}"},
		{"extendedWaitUntil", `- extendedWaitUntil: {visible: Welcome, timeout: 10_000}
- extendedWaitUntil: {notVisible: {id: spinner}}
- extendedWaitUntil: {visible: A, notVisible: B, timeout: "${t}", label: Wait}`},
		{"stopApp killApp clearState", `- stopApp
- stopApp: com.other
- stopApp: {appId: com.other, label: Stop}
- killApp
- killApp: {appId: com.other}
- clearState
- clearState: com.other
- clearState: {optional: true}`},
		{"runFlow", `- runFlow: sub.yaml
- runFlow:
    file: sub.yaml
    env: {USER: me, COUNT: 3, EMPTY: }
    when:
      platform: android
      visible: Login
      notVisible: {id: spinner}
      true: ${output.ready}
      label: Only on the login screen
      optional: true
    label: Sub
- runFlow:
    when: {platform: iOS}
    commands:
      - back
      - tapOn: {id: ok}`},
		{"setLocation", "- setLocation: {latitude: 52.52, longitude: \"13.405\"}\n- setLocation:\n    latitude: ${LAT}\n    longitude: ${LNG}\n    label: Berlin"},
		{"repeat", `- repeat:
    times: 3
    commands: [back]
- repeat:
    while: {visible: Next}
    commands:
      - tapOn: Next
- repeat:
    times: ${n}
    while:
      true: ${output.more}
    label: Loop
    commands:
      - repeat:
          commands: [scroll]
          times: "2"`},
		{"retry", "- retry: {maxRetries: 2, commands: [back]}\n- retry: {file: sub.yaml, env: {X: y}, optional: true}"},
		{"copyTextFrom", "- copyTextFrom: Order .*\n- copyTextFrom: {id: order_number, label: Copy}"},
		{"runScript", "- runScript: setup.js\n- runScript: {file: setup.js, env: {A: b}, when: {platform: Web}, label: Setup}"},
		{"waitForAnimationToEnd", "- waitForAnimationToEnd\n- waitForAnimationToEnd: {timeout: 2000}"},
		{"evalScript", "- evalScript: ${output.n = 0}\n- evalScript: {script: \"${output.n++}\", label: Count}"},
		{"scrollUntilVisible", `- scrollUntilVisible: {element: Footer}
- scrollUntilVisible:
    element: {id: item_40}
    direction: up
    timeout: 10000
    speed: 90
    visibilityPercentage: 50
    centerElement: true
    waitToSettleTimeoutMs: 100
    label: Find it
    optional: true`},
		{"travel", "- travel: {points: [\"52.52,13.405\", \"52.53, 13.41\"], speed: 10}\n- travel: {points: [\"-33.8,151.2\"]}"},
		{"setAirplaneMode", "- setAirplaneMode: enabled\n- setAirplaneMode: disabled\n- setAirplaneMode: {value: enabled, label: Offline}"},
		{"anchors, aliases and duplicate keys, as Maestro reads them", `- tapOn: &login {id: login, enabled: true}
- assertVisible: *login
- tapOn: {text: Buy, text: Sell}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if errs := validateText(t, v, tc.body+"\n", false); len(errs) > 0 {
				t.Errorf("schema rejects:\n%s\n%s", tc.body, strings.Join(errs, "\n"))
			}
			if problems, _ := loadProblems("appId: com.example\n---\n" + tc.body + "\n"); len(problems) > 0 {
				t.Errorf("loader rejects what the schema accepts:\n%s\n%v", tc.body, problems)
			}
		})
	}
	for _, tc := range []struct{ name, header string }{
		{"every key", `appId: com.example
name: Login
tags: [smoke, 1]
env: {USER: me, N: 3, EMPTY: }
jsEngine: graaljs
onFlowStart: [launchApp]
onFlowComplete:
  - stopApp
  - runFlow: {commands: [back]}
properties: {anything: [1, 2]}`},
		{"url and one tag", "url: https://example.com\ntags: [smoke]\nenv:"},
		{"empty hooks", "appId: com.example\nonFlowStart: []"},
	} {
		t.Run("header "+tc.name, func(t *testing.T) {
			t.Parallel()
			if errs := validateText(t, v, tc.header+"\n", true); len(errs) > 0 {
				t.Errorf("schema rejects:\n%s\n%s", tc.header, strings.Join(errs, "\n"))
			}
			if problems, _ := loadProblems(tc.header + "\n---\n- back\n"); len(problems) > 0 {
				t.Errorf("loader rejects what the schema accepts:\n%s\n%v", tc.header, problems)
			}
		})
	}
}

func TestSchemaErrors(t *testing.T) {
	t.Parallel()
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file string   // a whole flow file; positions are in it
		want []string // "line:col message", in order
		// loaderAccepts marks what the schema refuses and the loader only
		// warns about.
		loaderAccepts bool
	}{
		{name: "unknown key", file: "appId: x\n---\n- tapOn:\n    idd: login\n",
			want: []string{`4:5 schema: unknown key "idd" in tapOn`}},
		{name: "wrong type", file: "appId: x\n---\n- tapOn:\n    text: Login\n    retryTapIfNoChange: maybe\n",
			want: []string{`5:25 schema: tapOn.retryTapIfNoChange must be true or false, got "maybe"`}},
		{name: "bad enum", file: "appId: x\n---\n- swipe:\n    direction: Up\n",
			want: []string{`4:16 schema: swipe.direction must be one of UP, DOWN, LEFT, RIGHT, up, down, left, right, got "Up"`}},
		{name: "missing required key", file: "appId: x\n---\n- back\n- setLocation: {latitude: 52.5}\n",
			want: []string{`4:3 schema: setLocation needs longitude`}},
		{name: "nested in runFlow commands", file: `appId: x
---
- runFlow:
    when: {platform: android}
    commands:
      - back
      - tapOn:
          text: OK
          idd: ok
`, want: []string{`9:11 schema: unknown key "idd" in tapOn`}},
		{name: "nested twice", file: `appId: x
---
- repeat:
    times: 2
    commands:
      - runFlow:
          commands:
            - pressKey: Entr
`, want: []string{`8:25 schema: pressKey is not a key name Maestro knows, got "Entr"`}},
		{name: "in onFlowStart", file: "appId: x\nonFlowStart:\n  - launchApp: {clearState: sure}\n---\n- back\n",
			want: []string{`3:29 schema: launchApp.clearState must be true or false, got "sure"`}},
		{name: "header without appId", file: "name: Login\n---\n- back\n",
			want: []string{`1:1 schema: the header needs appId (or url for a web flow)`}},
		{name: "header with appId and url", file: "appId: x\nurl: https://x\n---\n- back\n",
			want: []string{`1:1 schema: the header gives both appId and url; keep one`}},
		{name: "header tags mapping", file: "appId: x\ntags: {a: b}\n---\n- back\n",
			want: []string{`2:7 schema: tags must be a list, got a mapping`}},
		{name: "header not a mapping", file: "- appId\n---\n- back\n",
			want: []string{`1:1 schema: the header must be a mapping, got a list`}},
		{name: "env name", file: "appId: x\nenv:\n  1ST: a\n---\n- back\n",
			want: []string{`3:3 schema: env key "1ST" is not a valid variable name (letters, digits, _ and $, not starting with a digit)`}},
		{name: "commands not a list", file: "appId: x\n---\ntapOn: x\n",
			want: []string{`3:1 schema: the commands must be a list, got a mapping`}},
		{name: "unknown command", file: "appId: x\n---\n- tapOnn: Login\n",
			want: []string{`3:3 schema: unknown command "tapOnn"`}},
		{name: "removed command", file: "appId: x\n---\n- openBrowser: https://x\n",
			want: []string{`3:3 schema: openBrowser is declared by Maestro but never worked: every Maestro version refuses it`}},
		{name: "command needs a value", file: "appId: x\n---\n- tapOn\n",
			want: []string{`3:3 schema: tapOn needs a value`}},
		{name: "command without value", file: "appId: x\n---\n- launchApp:\n",
			want: []string{`3:3 schema: launchApp has no value`}},
		{name: "bare command given text", file: "appId: x\n---\n- back: now\n",
			want: []string{`3:9 schema: back must be a mapping of label and optional (or written alone: - back), got "now"`}},
		{name: "value of the wrong type", file: "appId: x\n---\n- inputText: [a, b]\n",
			want: []string{`3:14 schema: inputText must be text or a mapping, got a list`}},
		{name: "swipe without end", file: "appId: x\n---\n- swipe: {start: \"10%, 20%\"}\n",
			want: []string{`3:11 schema: swipe: start needs end`}},
		{name: "swipe with direction and points", file: "appId: x\n---\n- swipe: {direction: UP, start: \"1,2\", end: \"3,4\"}\n",
			want: []string{`3:3 schema: swipe cannot combine direction with start and end`}},
		{name: "swipe with nothing", file: "appId: x\n---\n- swipe: {label: Swipe}\n",
			want: []string{`3:3 schema: swipe needs direction, or start and end`}},
		{name: "swipe percent over 100", file: "appId: x\n---\n- swipe: {start: \"120%, 50%\", end: \"10%, 50%\"}\n",
			want: []string{`3:18 schema: swipe.start must be "x, y" in pixels or "x%, y%" with percentages from 0 to 100, got "120%, 50%"`}},
		{name: "runFlow file and commands", file: "appId: x\n---\n- runFlow: {file: sub.yaml, commands: [back]}\n",
			want: []string{`3:3 schema: runFlow takes file or commands, not both`}},
		{name: "runFlow without file or commands", file: "appId: x\n---\n- runFlow: {when: {platform: iOS}}\n",
			want: []string{`3:3 schema: runFlow needs file or commands`}},
		{name: "empty commands", file: "appId: x\n---\n- repeat: {times: 2, commands: []}\n",
			want: []string{`3:32 schema: repeat.commands must not be empty`}},
		{name: "platform", file: "appId: x\n---\n- runFlow: {file: sub.yaml, when: {platform: Windows}}\n",
			want: []string{`3:46 schema: runFlow.when.platform must be Android, iOS or Web, got "Windows"`}},
		{name: "point", file: "appId: x\n---\n- tapOn: {point: middle}\n",
			want: []string{`3:18 schema: tapOn.point must be "x,y" or "x%,y%" with whole numbers, got "middle"`}},
		{name: "whole number with ${}", file: "appId: x\n---\n- tapOn: {text: x, delay: \"${d}\"}\n",
			want: []string{`3:27 schema: tapOn.delay must be a whole number (${...} cannot be used: Maestro reads it when the flow loads), got "${d}"`}},
		{name: "media type", file: "appId: x\n---\n- addMedia: [notes.txt]\n",
			want: []string{`3:14 schema: addMedia[0] must be a png, jpeg, jpg, gif or mp4 file, got "notes.txt"`}},
		{name: "trait", file: "appId: x\n---\n- tapOn: {traits: round}\n",
			want: []string{`3:19 schema: tapOn.traits must be traits separated by spaces: text, square, long-text, got "round"`}},
		{name: "permission", file: "appId: x\n---\n- launchApp: {permissions: {camera: granted}}\n",
			want: []string{`3:37 schema: launchApp.permissions.camera must be allow, deny or unset, got "granted"`}},
		{name: "nested selector", file: "appId: x\n---\n- tapOn:\n    containsDescendants:\n      - {idd: price}\n",
			want: []string{`5:10 schema: unknown key "idd" in tapOn.containsDescendants[0]`}},
		{name: "label list", file: "appId: x\n---\n- back: {label: [a]}\n",
			want: []string{`3:17 schema: back.label must be text, got a list`}},
		{name: "travel point", file: "appId: x\n---\n- travel: {points: [\"north\"]}\n",
			want: []string{`3:21 schema: travel.points[0] must be "latitude,longitude" with numbers, got "north"`}},
		{name: "several errors, in file order", file: `appId: x
---
- tapOn:
    tex: Login
    idd: login
- eraseText: many
- setAirplaneMode: on
`, want: []string{
			`4:5 schema: unknown key "tex" in tapOn`,
			`5:5 schema: unknown key "idd" in tapOn`,
			`6:14 schema: eraseText must be a whole number (${...} cannot be used: Maestro reads it when the flow loads), got "many"`,
			`7:20 schema: setAirplaneMode must be text or a mapping, got true`,
		}},
		{name: "hide keyboard with a value", file: "appId: x\n---\n- hide keyboard: {label: Hide}\n",
			want: []string{`3:3 schema: hide keyboard is only written bare (- hide keyboard); write hideKeyboard: for the long form`}},
		// Maestro accepts several commands in one item and runs one; the
		// loader warns and the schema checks the one that runs.
		{name: "two commands in one item, the winner is checked", file: "appId: x\n---\n- tapOn: OK\n  back: {label: 5}\n- back: {}\n  tapOn: {tex: x}\n",
			want: []string{`6:11 schema: unknown key "tex" in tapOn`}, loaderAccepts: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := validateFile(t, v, "t.yaml", []byte(tc.file))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors of\n%s\n got:\n  %s\n want:\n  %s", tc.file, strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			errs := allErrors(t, v, tc.file)
			for _, e := range errs {
				if e.Hint == "" {
					t.Errorf("%s has no hint", e.Message)
				}
				if strings.Contains(e.Message, "jsonschema") || strings.Contains(e.Message, "map[") || strings.Contains(e.Message, "[]interface") {
					t.Errorf("%s shows the validator's internals", e.Message)
				}
			}
			problems, _ := loadProblems(tc.file)
			if tc.loaderAccepts != (len(problems) == 0) {
				t.Errorf("loader problems %v; loaderAccepts is %v", problems, tc.loaderAccepts)
			}
		})
	}
}

func allErrors(t *testing.T, v *schemaValidator, file string) []*canonical.Error {
	t.Helper()
	docs, err := documents([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	d := &decoder{file: "t.yaml"}
	var out []*canonical.Error
	for i, doc := range docs {
		out = append(out, v.validate(d, doc, i == 0)...)
	}
	return out
}

// The files under testdata/schema hold their expected errors as
// "# want: line:col message" comments; valid/ files want none, and the
// loader must accept them too.
func TestSchemaTestdata(t *testing.T) {
	t.Parallel()
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	src := dirSource{os.DirFS("testdata/schema")}
	files, err := fs.Glob(src.fsys, "*/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/schema/*/*.yaml (%v)", err)
	}
	wantRE := regexp.MustCompile(`(?m)^# want: (.*)$`)
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			data, err := src.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{}
			for _, m := range wantRE.FindAllStringSubmatch(string(data), -1) {
				want = append(want, m[1])
			}
			got := validateFile(t, v, file, data)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if path.Dir(file) == "valid" {
				if _, err := newLoader139(src).Load(file); err != nil {
					t.Errorf("loader rejects %s: %v", file, err)
				}
			}
		})
	}
}

// dirSource adapts an fs.FS (os.DirFS in tests) to the loader's Source.
type dirSource struct{ fsys fs.FS }

func (s dirSource) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(s.fsys, name) }
func (s dirSource) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(s.fsys, name) }
func (s dirSource) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(s.fsys, name) }

// Every example flow the loader accepts also passes the schema, so the
// schema never refuses what flow runs.
func TestSchemaAcceptsExampleFlows(t *testing.T) {
	t.Parallel()
	root := os.DirFS("..")
	var files []string
	err := fs.WalkDir(root, "flows", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Skipf("no example flows under ../flows yet (%v)", err)
	}
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		if _, err := newLoader139(dirSource{root}).Load(file); err != nil {
			continue // not a flow (a workspace config, an app model) or an intentionally broken one
		}
		data, err := fs.ReadFile(root, file)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if errs := validateFile(t, v, file, data); len(errs) > 0 {
			t.Errorf("%s loads but fails the schema:\n  %s", file, strings.Join(errs, "\n  "))
		}
	}
	if checked == 0 {
		t.Skip("no example flow loads yet")
	}
	t.Logf("%d of %d example files load, and pass the schema", checked, len(files))
}

func TestSchemaConvert(t *testing.T) {
	t.Parallel()
	docs, err := documents([]byte(`- runFlow:
    when:
      true: ${ok}
- inputText: 4
- tapOn:
    text: "007"
    enabled: true
    width: 1_000
    index: 1.5
- assertVisible:
    text: first
    text: override
    <<: {enabled: true}
- hide keyboard: {label: ~}
`))
	if err != nil {
		t.Fatal(err)
	}
	in := newInstance(&decoder{file: "t.yaml"}, false, docs[0])
	in.book = true
	value, err := in.convert(docs[0], "", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(value)
	// As Maestro reads it: the last of duplicate keys wins and << is a key.
	want := `[{"runFlow":{"when":{"true":"${ok}"}}},{"inputText":4},` +
		`{"tapOn":{"enabled":true,"index":1.5,"text":"007","width":1000}},` +
		`{"assertVisible":{"\u003c\u003c":{"enabled":true},"text":"override"}},` +
		`{"hide keyboard":{"label":null}}]`
	if string(got) != want {
		t.Errorf("converted:\n got  %s\n want %s", got, want)
	}
	for ptr, want := range map[string]string{
		"/0/runFlow/when/true":       "3:13", // value node
		"/3/assertVisible/text":      "12:11",
		"/3/assertVisible/%3C%3C":    "13:9",
		"/4/hide%20keyboard/label":   "14:26",
		"/1/inputText":               "4:14",
		"/0/runFlow/when":            "3:7",
		"/2/tapOn":                   "6:5",
		"/3/assertVisible":           "11:5",
		"/2":                         "5:3",
		"":                           "1:1",
		"/2/tapOn/width":             "8:12",
		"/0/runFlow":                 "2:5",
		"/3/assertVisible/undefined": "",
	} {
		n, ok := in.nodes[ptr]
		if want == "" {
			if ok {
				t.Errorf("%s is recorded", ptr)
			}
			continue
		}
		if !ok || fmt.Sprintf("%d:%d", n.Line, n.Column) != want {
			t.Errorf("node at %q: %v, want %s", ptr, n, want)
		}
	}
	if k := in.keys["/0/runFlow/when/true"]; k == nil || k.Line != 3 || k.Column != 7 {
		t.Errorf("key node of true: %v", k)
	}
}

func TestSchemaSurvivesHostileYAML(t *testing.T) {
	t.Parallel()
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	// An alias inside its own anchor would make the value infinite.
	cyclic := "- tapOn: &a\n    below: *a\n"
	// Nine levels of nine aliases expand to 9^9 values.
	var laughs strings.Builder
	laughs.WriteString("- inputText: &l0 x\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&laughs, "- inputText: &l%d [", i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				laughs.WriteString(", ")
			}
			fmt.Fprintf(&laughs, "*l%d", i-1)
		}
		laughs.WriteString("]\n")
	}
	for name, text := range map[string]string{"cyclic alias": cyclic, "billion laughs": laughs.String()} {
		docs, err := documents([]byte(text))
		if err != nil {
			t.Logf("%s: yaml.v3 refuses it: %v", name, err)
			continue
		}
		errs := v.validate(&decoder{file: "t.yaml"}, docs[0], false)
		if len(errs) == 0 {
			t.Errorf("%s: no error", name)
		}
		for _, e := range errs {
			t.Logf("%s: %s", name, e)
		}
	}
}

// newLoader139 is the loader of the tests written for Maestro 1.39's
// semantics (taps retried by default, 1.39's command set).
func newLoader139(src Source) *Loader {
	return NewLoader(src).WithMaestroVersion(canonical.Maestro139)
}
