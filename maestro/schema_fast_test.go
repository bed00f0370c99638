package maestro

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestEverySchemaIsPlain: accepts judges every schema a check starts from.
// A keyword it does not implement would silently send every command back
// to the slow library path.
func TestEverySchemaIsPlain(t *testing.T) {
	t.Parallel()
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	for ptr := range v.compiled {
		if !v.plain[ptr] {
			t.Errorf("%s uses a keyword accepts does not implement", ptr)
		}
	}
}

// agreeOn checks that accepts and the library agree on every value of the
// document text, against every compiled schema: accepts may only say valid
// when the library does, or errors would go unreported.
func agreeOn(t *testing.T, v *schemaValidator, text string) {
	t.Helper()
	docs, err := documents([]byte(text))
	if err != nil {
		return
	}
	ptrs := make([]string, 0, len(v.compiled))
	for ptr := range v.compiled {
		ptrs = append(ptrs, ptr)
	}
	sort.Strings(ptrs)
	for _, doc := range docs {
		in := newInstance(&decoder{file: "t.yaml"}, false, doc)
		value, err := in.convert(doc, "", nil)
		if err != nil {
			continue
		}
		values := []any{value}
		// Each item, and each command's value, is what validate checks.
		if list, ok := value.([]any); ok {
			for _, item := range list {
				values = append(values, item)
				if m, ok := item.(map[string]any); ok {
					for _, cv := range m {
						values = append(values, cv)
					}
				}
			}
		}
		for _, val := range values {
			for _, ptr := range ptrs {
				s := v.compiled[ptr]
				fast, lib := accepts(s, val), s.Validate(val) == nil
				if fast != lib {
					t.Fatalf("%s: accepts says %v, the library %v, for %#v\nin:\n%s", ptr, fast, lib, val, text)
				}
			}
		}
	}
}

// TestAcceptsAgreesWithTheLibrary runs agreeOn over the example flows, the
// schema test files, the fuzz corpus and values chosen for the keywords'
// edges.
func TestAcceptsAgreesWithTheLibrary(t *testing.T) {
	t.Parallel()
	v, err := newSchemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, root := range []string{"../flows", "testdata"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			text := string(data)
			if strings.HasPrefix(text, "go test fuzz v1\n") {
				if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(text, "go test fuzz v1\n")), "[]byte("), ")")); err == nil {
					text = s
				}
			}
			if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.Contains(p, "fuzz") {
				texts = append(texts, text)
			}
			return nil
		})
	}
	if len(texts) < 10 {
		t.Fatalf("only %d files found", len(texts))
	}
	texts = append(texts, edgeDocuments()...)
	for _, text := range texts {
		agreeOn(t, v, text)
	}
}

// edgeDocuments exercise each keyword accepts implements: types (integer
// against a float), enums, patterns, required, additionalProperties,
// patternProperties (the key true), propertyNames, dependencies, minItems,
// minProperties, anyOf, oneOf, not and allOf.
func edgeDocuments() []string {
	return []string{
		"- tapOn: {text: x, index: 1.5}\n- tapOn: {text: x, index: 2.0}\n- tapOn: {index: 1e20}\n",
		"- swipe: {direction: up}\n- swipe: {direction: UP, duration: 1.5}\n- swipe: {start: 1, end: 2}\n- swipe: {start: \"1,2\"}\n",
		"- swipe: {direction: UP, start: \"10%,10%\", end: \"20%,20%\"}\n- swipe: {from: x}\n",
		"- runFlow: {file: a.yaml, commands: [back]}\n- runFlow: {}\n- runFlow: 5\n- runFlow: {when: {true: x}, commands: [back]}\n",
		"- runFlow: {when: {platform: Android, visible: x, label: l, optional: true}, commands: []}\n",
		"- retry: {maxRetries: x, commands: [back]}\n- retry: {maxRetries: \"${n}\", file: a.yaml}\n- retry: {}\n",
		"- repeat: {times: -1, commands: [back]}\n- repeat: {while: {notVisible: {id: x}}}\n- repeat: []\n",
		"- {tapOn: x, back: null}\n- {}\n- [back]\n- null\n- 5\n- true\n- hide keyboard\n- {hide keyboard: {label: x}}\n",
		"- extendedWaitUntil: {visible: x, timeout: 100}\n- extendedWaitUntil: {timeout: 100}\n- extendedWaitUntil: {visible: x, notVisible: y}\n",
		"- launchApp: {appId: x, arguments: {a: 1, b: [1]}, permissions: {all: deny}}\n- launchApp: [x]\n",
		"- scrollUntilVisible: {element: {text: x}, direction: DOWN, speed: 40}\n- scrollUntilVisible: {direction: SIDEWAYS}\n",
		"- pressKey: Enter\n- pressKey: enterr\n- pressKey: {key: Home}\n- eraseText: 5\n- eraseText: -1\n- eraseText: 1.5\n",
		"- setLocation: {latitude: 1, longitude: x}\n- travel: {points: [\"1,2\"], speed: 3}\n- travel: {points: []}\n",
		"- assertTrue: ${x}\n- assertTrue: {condition: x}\n- addMedia: []\n- addMedia: [a.png]\n- addMedia: {files: [a]}\n",
		"- tapOn: {below: {below: {text: x, enabled: maybe}}}\n- tapOn: {containsDescendants: [x, {id: y}, [z]]}\n",
		"appId: x\nurl: y\n",
		"appId: x\nenv: {A: 1, B: [1], 1C: x}\ntags: [a, 1]\nonFlowStart: [back, {frob: 1}]\njsEngine: [x]\n",
		"name: only\n",
		"appId: x\nonFlowComplete: back\n",
	}
}

// FuzzAccepts: for any YAML, accepts and the library agree on every value
// validate would check, against every schema.
func FuzzAccepts(f *testing.F) {
	for _, s := range edgeDocuments() {
		f.Add(s)
	}
	v, err := newSchemaValidator()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		var n yaml.Node
		if yaml.Unmarshal([]byte(text), &n) != nil {
			return
		}
		agreeOn(t, v, text)
	})
}
