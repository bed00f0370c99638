package maestro_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// One table per command family. Valid rows are pinned by a snapshot of
// their canonical commands (one snapshot per row); error rows pin the exact
// message and file:line:col. Every row's flow is header + in, so the first
// command is on line 3 and its key in column 3.

// family is one command family: its valid and error rows.
type family struct {
	valid  []validCase
	errors []errorCase
}

func (f family) run(t *testing.T) {
	t.Helper()
	if len(f.valid) > 0 {
		t.Run("valid", func(t *testing.T) { runValidCases(t, "commands_test", f.valid) })
	}
	if len(f.errors) > 0 {
		t.Run("errors", func(t *testing.T) { runErrorCases(t, f.errors) })
	}
}

// families lists every table, for the tests below and the fuzz seeds.
func families() map[string]family {
	return map[string]family{
		"launchApp":          launchAppFamily(),
		"tap":                tapFamily(),
		"selector":           selectorFamily(),
		"assert":             assertFamily(),
		"input":              inputFamily(),
		"pressKey":           pressKeyFamily(),
		"simple":             simpleFamily(),
		"swipe":              swipeFamily(),
		"scrollUntilVisible": scrollUntilVisibleFamily(),
		"app":                appFamily(),
		"openLink":           openLinkFamily(),
		"recording":          recordingFamily(),
		"location":           locationFamily(),
		"addMedia":           addMediaFamily(),
		"airplaneMode":       airplaneModeFamily(),
		"runFlow":            runFlowFamily(),
		"repeat":             repeatFamily(),
		"retry":              retryFamily(),
		"scripts":            scriptFamily(),
		"ai":                 aiFamily(),
		"unknown":            unknownFamily(),
		"structure":          structureFamily(),
		"numbers":            numbersFamily(),
	}
}

func TestLaunchApp(t *testing.T)          { launchAppFamily().run(t) }
func TestTap(t *testing.T)                { tapFamily().run(t) }
func TestSelector(t *testing.T)           { selectorFamily().run(t) }
func TestAssert(t *testing.T)             { assertFamily().run(t) }
func TestInput(t *testing.T)              { inputFamily().run(t) }
func TestPressKey(t *testing.T)           { pressKeyFamily().run(t) }
func TestSimpleCommands(t *testing.T)     { simpleFamily().run(t) }
func TestSwipe(t *testing.T)              { swipeFamily().run(t) }
func TestScrollUntilVisible(t *testing.T) { scrollUntilVisibleFamily().run(t) }
func TestAppCommands(t *testing.T)        { appFamily().run(t) }
func TestOpenLink(t *testing.T)           { openLinkFamily().run(t) }
func TestRecording(t *testing.T)          { recordingFamily().run(t) }
func TestLocation(t *testing.T)           { locationFamily().run(t) }
func TestAddMedia(t *testing.T)           { addMediaFamily().run(t) }
func TestAirplaneMode(t *testing.T)       { airplaneModeFamily().run(t) }
func TestRunFlow(t *testing.T)            { runFlowFamily().run(t) }
func TestRepeat(t *testing.T)             { repeatFamily().run(t) }
func TestRetry(t *testing.T)              { retryFamily().run(t) }
func TestScripts(t *testing.T)            { scriptFamily().run(t) }
func TestAICommands(t *testing.T)         { aiFamily().run(t) }
func TestUnknownCommands(t *testing.T)    { unknownFamily().run(t) }
func TestCommandStructure(t *testing.T)   { structureFamily().run(t) }
func TestNumbers(t *testing.T)            { numbersFamily().run(t) }

func launchAppFamily() family {
	return family{
		valid: []validCase{
			{name: "bare uses the flow appId, stops the app and allows every permission", in: "- launchApp\n"},
			{name: "empty mapping is the bare form", in: "- launchApp: {}\n"},
			{name: "scalar names another app", in: "- launchApp: com.other.app\n"},
			{name: "long form every field", in: `- launchApp:
    appId: com.other.app
    clearState: true
    clearKeychain: true
    stopApp: false
    permissions: {all: deny, camera: allow, notifications: unset}
    arguments:
      isE2E: true
      port: 8080
      ratio: 0.25
      hex: 0x1F
      name: shop
      quoted: "42"
      ${ARG_KEY}: ${ARG_VALUE}
    label: Launch the other app
    optional: true
`},
			{name: "url is an alias of appId", in: "- launchApp: {url: https://example.com/shop}\n"},
			{name: "long form without appId keeps the flow appId", in: "- launchApp: {clearState: true}\n"},
			{name: "permission values are case-insensitive", in: "- launchApp: {permissions: {all: Deny, location: ALLOW}}\n"},
			{name: "arguments are typed as Maestro's YAML 1.1 reader types them", in: "- launchApp: {arguments: {a: yes, b: off, c: 017, d: 1e3, e: \"yes\", f: 12:30}}\n"},
		},
		errors: []errorCase{
			{name: "launchApp null", in: "- launchApp:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: launchApp has no value", hint: "without the colon"},
			{name: "launchApp list", in: "- launchApp: [com.a]\n",
				want: "flows/main.yaml:3:14: INVALID_ARGS: launchApp takes a value or a mapping, got a list"},
			{name: "launchApp unknown key (Maestro e007)", in: "- launchApp: {invalidOption: true}\n",
				want: `flows/main.yaml:3:15: INVALID_ARGS: unknown key "invalidOption" in launchApp`},
			{name: "launchApp near-miss key", in: "- launchApp: {clearstate: true}\n",
				want: `flows/main.yaml:3:15: INVALID_ARGS: unknown key "clearstate" in launchApp`, hint: `did you mean "clearState"?`},
			{name: "launchApp clearState not a boolean", in: "- launchApp: {clearState: sometimes}\n",
				want: `flows/main.yaml:3:27: INVALID_ARGS: clearState must be true or false, got "sometimes"`},
			{name: "launchApp stopApp not a boolean", in: "- launchApp: {stopApp: [true]}\n",
				want: "flows/main.yaml:3:24: INVALID_ARGS: stopApp must be true or false, got a list"},
			{name: "launchApp appId not text", in: "- launchApp: {appId: [a, b]}\n",
				want: "flows/main.yaml:3:22: INVALID_ARGS: appId must be text, got a list"},
			{name: "launchApp permissions not a mapping", in: "- launchApp: {permissions: all}\n",
				want: "flows/main.yaml:3:28: INVALID_ARGS: permissions must be a mapping of permission: allow|deny|unset, got a scalar"},
			{name: "launchApp permission value unknown", in: "- launchApp: {permissions: {camera: grant}}\n",
				want: `flows/main.yaml:3:37: INVALID_ARGS: permission camera must be allow, deny or unset, got "grant"`},
			{name: "launchApp arguments not a mapping", in: "- launchApp: {arguments: [a]}\n",
				want: "flows/main.yaml:3:26: INVALID_ARGS: arguments must be a mapping of name: value, got a list"},
			{name: "launchApp argument is a list", in: "- launchApp: {arguments: {ids: [1, 2]}}\n",
				want: "flows/main.yaml:3:32: INVALID_ARGS: launch argument ids must be a single value, got a list"},
			{name: "launchApp argument is null", in: "- launchApp: {arguments: {token: ~}}\n",
				want: "flows/main.yaml:3:34: INVALID_ARGS: launch argument token must be a single value, got null"},
			{name: "launchApp argument out of int64", in: "- launchApp: {arguments: {big: 18446744073709551615}}\n",
				want: "flows/main.yaml:3:32: INVALID_ARGS: launch argument big is not a 64-bit whole number: 18446744073709551615"},
			{name: "launchApp argument infinite", in: "- launchApp: {arguments: {far: .inf}}\n",
				want: "flows/main.yaml:3:32: INVALID_ARGS: launch argument far is not a finite number: .inf"},
			{name: "launchApp label not text", in: "- launchApp: {label: [a]}\n",
				want: "flows/main.yaml:3:22: INVALID_ARGS: label must be text, got a list"},
			{name: "launchApp optional not a boolean", in: "- launchApp: {optional: maybe}\n",
				want: `flows/main.yaml:3:25: INVALID_ARGS: optional must be true or false, got "maybe"`},
		},
	}
}

func tapFamily() family {
	return family{
		valid: []validCase{
			{name: "tapOn text defaults", in: "- tapOn: Log in\n"},
			{name: "tapOn number is text", in: "- tapOn: 2022\n"},
			{name: "tapOn boolean is text", in: "- tapOn: true\n"},
			{name: "tapOn every option", in: `- tapOn:
    id: login_button
    retryTapIfNoChange: false
    waitUntilVisible: true
    repeat: 3
    delay: 250
    waitToSettleTimeoutMs: 500
    label: Tap log in
    optional: true
`},
			{name: "tapOn repeat below 1 becomes 1", in: "- tapOn: {text: Next, repeat: 0}\n- tapOn: {text: Next, repeat: -4}\n"},
			{name: "tapOn negative delay is the default", in: "- tapOn: {text: Next, delay: -1}\n"},
			{name: "tapOn waitToSettleTimeoutMs capped at 30000", in: "- tapOn: {text: Next, waitToSettleTimeoutMs: 45000}\n- tapOn: {text: Next, waitToSettleTimeoutMs: 30000}\n"},
			{name: "tapOn point absolute", in: "- tapOn: {point: \"540,1200\"}\n"},
			{name: "tapOn point percent with spaces", in: "- tapOn: {point: \"85%, 50%\"}\n- tapOn: {point: \"0%,100%\"}\n"},
			{name: "tapOn point with a template", in: "- tapOn:\n    point: ${relativePoint(0.5, 0.9)}\n"},
			{name: "tapOn point trimmed as Maestro trims it", in: "- tapOn: {point: \"235, 681\"}\n- tapOn: {point: \" 50 %, 80% \"}\n"},
			{name: "tapOn point with a third number, which Maestro ignores, with a warning", in: "- tapOn: {point: \"1,2,3\"}\n"},
			{name: "tapOn point ignores the selector", in: "- tapOn: {point: \"50%,50%\", text: ignored, retryTapIfNoChange: false}\n"},
			{name: "tapOn start and end are ignored", in: "- tapOn: {text: Next, start: \"1,2\", end: \"3,4\"}\n"},
			{name: "doubleTapOn taps twice", in: "- doubleTapOn: Like\n"},
			{name: "doubleTapOn delay sets the gap", in: "- doubleTapOn: {id: like, delay: 300}\n"},
			{name: "doubleTapOn ignores repeat", in: "- doubleTapOn: {id: like, repeat: 5}\n"},
			{name: "longPressOn holds 3000 ms", in: "- longPressOn: Photo\n"},
			{name: "longPressOn point", in: "- longPressOn: {point: \"10%,20%\", label: Hold}\n"},
			{name: "longPressOn ignores repeat", in: "- longPressOn: {text: Photo, repeat: 2}\n"},
		},
		errors: []errorCase{
			{name: "tapOn null", in: "- tapOn:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: tapOn has no value", hint: `tapOn: "Log in"`},
			{name: "tapOn list", in: "- tapOn: [a, b]\n",
				want: "flows/main.yaml:3:10: INVALID_ARGS: tapOn takes one selector, got a list"},
			{name: "tapOn point percent above 100", in: "- tapOn: {point: \"101%,50%\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: point "101%,50%" has a percentage outside 0%..100%`},
			{name: "tapOn point negative percent", in: "- tapOn: {point: \"-1%,50%\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: point "-1%,50%" has a percentage outside 0%..100%`},
			{name: "tapOn point not a point", in: "- tapOn: {point: middle}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: point "middle" is not "x,y" or "x%,y%" with whole numbers`},
			{name: "tapOn point with a decimal (Maestro's toInt fails)", in: "- tapOn: {point: \"235.5, 681\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: point "235.5, 681" is not "x,y" or "x%,y%" with whole numbers`, hint: "whole number"},
			{name: "tapOn point one number", in: "- tapOn: {point: \"50%\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: point "50%" is not "x,y" or "x%,y%" with whole numbers`},
			{name: "tapOn repeat not a number", in: "- tapOn: {text: a, repeat: twice}\n",
				want: `flows/main.yaml:3:28: INVALID_ARGS: repeat must be a whole number, got "twice"`},
			{name: "tapOn delay quoted with underscores (Jackson's parseInt fails)", in: "- tapOn: {text: a, delay: \"1_000\"}\n",
				want: `flows/main.yaml:3:27: INVALID_ARGS: delay must be a whole number, got "1_000"`},
			{name: "tapOn delay beyond an Int", in: "- tapOn: {text: a, delay: 2147483648}\n",
				want: `flows/main.yaml:3:27: INVALID_ARGS: delay 2147483648 is out of range: Maestro reads it as a whole number from -2147483648 to 2147483647`},
			{name: "selector width 1e20", in: "- tapOn: {text: a, width: 1e20}\n",
				want: `flows/main.yaml:3:27: INVALID_ARGS: width 1e20 is out of range: Maestro reads it as a whole number from -2147483648 to 2147483647`},
			{name: "tapOn waitToSettleTimeoutMs template", in: "- tapOn:\n    text: a\n    waitToSettleTimeoutMs: ${T}\n",
				want: `flows/main.yaml:5:28: INVALID_ARGS: waitToSettleTimeoutMs must be a whole number, got "${T}"`, hint: "cannot use ${...}"},
			{name: "tapOn retryTapIfNoChange not a boolean", in: "- tapOn: {text: a, retryTapIfNoChange: sometimes}\n",
				want: `flows/main.yaml:3:40: INVALID_ARGS: retryTapIfNoChange must be true or false, got "sometimes"`},
			{name: "tapOn waitUntilVisible not a boolean", in: "- tapOn: {text: a, waitUntilVisible: 1}\n",
				want: `flows/main.yaml:3:38: INVALID_ARGS: waitUntilVisible must be true or false, got "1"`},
			{name: "tapOn near-miss option", in: "- tapOn: {text: a, retryTapIfNoChanges: false}\n",
				want: `flows/main.yaml:3:20: INVALID_ARGS: unknown key "retryTapIfNoChanges" in tapOn`, hint: `did you mean "retryTapIfNoChange"?`},
			{name: "tapOn label not text", in: "- tapOn: {text: a, label: {x: 1}}\n",
				want: "flows/main.yaml:3:27: INVALID_ARGS: label must be text, got a mapping"},
			{name: "doubleTapOn null", in: "- doubleTapOn:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: doubleTapOn has no value"},
			{name: "longPressOn list", in: "- longPressOn: [a]\n",
				want: "flows/main.yaml:3:16: INVALID_ARGS: longPressOn takes one selector, got a list"},
			{name: "doubleTapOn bare", in: "- doubleTapOn\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: doubleTapOn needs a value"},
		},
	}
}

func selectorFamily() family {
	return family{
		valid: []validCase{
			{name: "every field", in: `- tapOn:
    text: Buy.*
    id: buy_button
    index: 2
    width: 100
    height: 48
    tolerance: 5
    enabled: true
    selected: false
    checked: true
    focused: false
    traits: text square long-text
    optional: true
`},
			{name: "relative selectors nest", in: `- tapOn:
    text: Price
    below: Title
    above: {id: footer}
    leftOf:
      id: cart
      rightOf: Logo
    rightOf: {text: Menu, below: {id: header}}
    childOf:
      id: card
      childOf: {id: list}
`},
			{name: "containsChild and containsDescendants", in: `- tapOn:
    containsChild: {text: Title, containsDescendants: [Subtitle]}
    containsDescendants:
      - Price
      - id: badge
        enabled: true
`},
			{name: "traits in any case and with underscore", in: "- tapOn: {traits: TEXT Square LONG_TEXT}\n"},
			{name: "numbers and booleans given as text", in: "- tapOn: {width: \"50\", height: \" 1000 \", enabled: \"TRUE\", checked: \"false\"}\n"},
			{name: "fractions are dropped as Jackson drops them, with a warning", in: "- tapOn: {text: a, width: 10, tolerance: 0.5, delay: 1.5, repeat: 2}\n"},
			{name: "YAML 1.1 booleans and integers", in: "- tapOn: {enabled: yes, checked: Off, width: 0x10, height: 1_000}\n"},
			{name: "index is a template", in: "- tapOn:\n    text: Item\n    index: ${0 + 1}\n"},
			{name: "index as a float string", in: "- tapOn: {text: Item, index: \"1.0\"}\n"},
			{name: "selector in copyTextFrom", in: "- copyTextFrom: {id: total, below: Subtotal}\n"},
		},
		errors: []errorCase{
			{name: "selector unknown trait", in: "- tapOn: {traits: text round}\n",
				want: `flows/main.yaml:3:19: INVALID_ARGS: unknown trait "round"`},
			{name: "selector width not a number", in: "- tapOn: {width: wide}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: width must be a whole number, got "wide"`},
			{name: "selector enabled not a boolean (quoted yes is text to Maestro)", in: "- tapOn: {enabled: \"yes\"}\n",
				want: `flows/main.yaml:3:20: INVALID_ARGS: enabled must be true or false, got "yes"`},
			{name: "selector containsDescendants not a list", in: "- tapOn: {containsDescendants: Price}\n",
				want: "flows/main.yaml:3:32: INVALID_ARGS: containsDescendants must be a list of selectors, got a scalar"},
			{name: "selector containsDescendants item is a list", in: "- tapOn: {containsDescendants: [[a]]}\n",
				want: "flows/main.yaml:3:33: INVALID_ARGS: containsDescendants takes one selector, got a list"},
			{name: "selector below is a list", in: "- tapOn: {below: [a, b]}\n",
				want: "flows/main.yaml:3:18: INVALID_ARGS: below takes one selector, got a list"},
			{name: "selector below is null", in: "- tapOn: {below: ~}\n",
				want: "flows/main.yaml:3:18: INVALID_ARGS: below needs an element selector"},
			{name: "selector index is a list", in: "- tapOn: {index: [1]}\n",
				want: "flows/main.yaml:3:18: INVALID_ARGS: index must be text, got a list"},
			{name: "selector text is null", in: "- tapOn: {text: ~}\n",
				want: "flows/main.yaml:3:17: INVALID_ARGS: text must be text, got null"},
			{name: "selector key is a mapping", in: "- tapOn: {{a: b}: c}\n",
				want: "flows/main.yaml:3:11: INVALID_ARGS: mapping keys must be plain names, got a mapping"},
			{name: "selector near-miss key", in: "- tapOn: {txt: Buy}\n",
				want: `flows/main.yaml:3:11: INVALID_ARGS: unknown key "txt" in tapOn`, hint: `did you mean "text"?`},
			{name: "nested selector near-miss key", in: "- tapOn:\n    text: Buy\n    below:\n      idd: header\n",
				want: `flows/main.yaml:6:7: INVALID_ARGS: unknown key "idd" in below`, hint: `did you mean "id"?`},
		},
	}
}

func assertFamily() family {
	return family{
		valid: []validCase{
			{name: "assertVisible text", in: "- assertVisible: Welcome\n"},
			{name: "assertVisible selector label optional", in: "- assertVisible: {id: banner, label: Banner shows, optional: true}\n"},
			{name: "assertVisible ignores tap options", in: "- assertVisible: {text: Welcome, retryTapIfNoChange: false, delay: 5}\n"},
			{name: "assertNotVisible text", in: "- assertNotVisible: Loading\n"},
			{name: "scalar selectors take the text of Maestro's typed value, with a warning", in: "- assertVisible: 10.50\n- tapOn: on\n- assertNotVisible: 99999999999999999999\n- copyTextFrom: {below: 007}\n- assertVisible: \"10.50\"\n"},
			{name: "assertTrue options as Maestro casts them", in: "- assertTrue: {condition: \"${a}\", optional: yes, label: ~}\n- assertTrue: on\n"},
			{name: "assertNotVisible selector", in: "- assertNotVisible: {id: spinner, enabled: true}\n"},
			{name: "extendedWaitUntil visible with default timeout", in: "- extendedWaitUntil: {visible: Welcome}\n"},
			{name: "extendedWaitUntil every field", in: `- extendedWaitUntil:
    visible: {id: done}
    notVisible: Loading
    timeout: 10_000
    label: Wait for done
    optional: true
`},
			{name: "extendedWaitUntil timeout template keeps underscores", in: "- extendedWaitUntil:\n    notVisible: Loading\n    timeout: ${MY_TIMEOUT}\n"},
			{name: "extendedWaitUntil numeric timeout", in: "- extendedWaitUntil: {visible: x, timeout: 1000}\n"},
			{name: "assertTrue expression", in: "- assertTrue: ${output.count > 0}\n"},
			{name: "assertTrue number and boolean are text", in: "- assertTrue: 323\n- assertTrue: true\n"},
			{name: "assertTrue long form", in: "- assertTrue:\n    condition: ${5 == 5}\n    label: Five is five\n    optional: true\n"},
			{name: "assertTrue ignores unknown keys", in: "- assertTrue:\n    condition: ${ok}\n    timeout: 5\n"},
		},
		errors: []errorCase{
			{name: "assertVisible null", in: "- assertVisible:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: assertVisible has no value"},
			{name: "assertNotVisible list", in: "- assertNotVisible: [a]\n",
				want: "flows/main.yaml:3:21: INVALID_ARGS: assertNotVisible takes one selector, got a list"},
			{name: "extendedWaitUntil without visible or notVisible", in: "- extendedWaitUntil: {timeout: 1000}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: extendedWaitUntil needs visible or notVisible"},
			{name: "extendedWaitUntil scalar", in: "- extendedWaitUntil: Welcome\n",
				want: "flows/main.yaml:3:22: INVALID_ARGS: extendedWaitUntil takes a mapping of visible, notVisible, timeout here, got a scalar"},
			{name: "extendedWaitUntil timeout not a number", in: "- extendedWaitUntil: {visible: x, timeout: soon}\n",
				want: `flows/main.yaml:3:44: INVALID_ARGS: timeout "soon" is not a whole number of milliseconds: Maestro reads it with toLong and fails`},
			{name: "extendedWaitUntil visible is a list", in: "- extendedWaitUntil: {visible: [x]}\n",
				want: "flows/main.yaml:3:32: INVALID_ARGS: visible takes one selector, got a list"},
			{name: "extendedWaitUntil unknown key", in: "- extendedWaitUntil: {visible: x, timeOut: 5}\n",
				want: `flows/main.yaml:3:35: INVALID_ARGS: unknown key "timeOut" in extendedWaitUntil`, hint: `did you mean "timeout"?`},
			{name: "assertTrue long form without condition", in: "- assertTrue: {label: nothing}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: assertTrue needs a condition"},
			{name: "assertTrue list", in: "- assertTrue: [a]\n",
				want: "flows/main.yaml:3:15: INVALID_ARGS: assertTrue must be text, got a list"},
			{name: "assertTrue optional not a boolean", in: "- assertTrue: {condition: x, optional: maybe}\n",
				want: `flows/main.yaml:3:40: INVALID_ARGS: assertTrue optional must be true or false, got "maybe": Maestro casts it to a boolean and fails`},
			{name: "assertTrue optional quoted (Maestro's cast to Boolean fails)", in: "- assertTrue: {condition: x, optional: \"true\"}\n",
				want: `flows/main.yaml:3:40: INVALID_ARGS: assertTrue optional must be true or false, got "true": Maestro casts it to a boolean and fails`, hint: "without quotes"},
			{name: "assertTrue condition is a number (Maestro's cast to String fails)", in: "- assertTrue: {condition: 1}\n",
				want: `flows/main.yaml:3:27: INVALID_ARGS: assertTrue condition must be text, got a number "1": Maestro casts it to text and fails`, hint: `condition: "1"`},
			{name: "assertTrue label is a boolean", in: "- assertTrue: {condition: x, label: yes}\n",
				want: `flows/main.yaml:3:37: INVALID_ARGS: assertTrue label must be text, got a boolean "yes": Maestro casts it to text and fails`},
			{name: "assertTrue huge number", in: "- assertTrue: 99999999999999999999\n",
				want: `flows/main.yaml:3:15: INVALID_ARGS: assertTrue 99999999999999999999 is a whole number too large for Maestro, which refuses it here`},
		},
	}
}

func inputFamily() family {
	return family{
		valid: []validCase{
			{name: "inputText text", in: "- inputText: hello@example.com\n"},
			{name: "inputText scalars are text (Maestro 024)", in: "- inputText: 4\n- inputText: false\n- inputText: 1683113805263\n- inputText: 4.12\n"},
			{name: "inputText long form", in: "- inputText: {text: secret, label: Type the password}\n"},
			{name: "inputText long form ignores optional", in: "- inputText: {text: secret, optional: true}\n"},
			{name: "inputText long form without text types nothing, with a warning", in: "- inputText: {label: Type}\n"},
			{name: "inputText scalars become the text of Maestro's typed value, with a warning", in: "- inputText: yes\n- inputText: 0x1F\n- inputText: 1_000\n- inputText: 1.50\n- inputText: 1e20\n- inputText: .inf\n- inputText: 12:30\n- inputText: \"1.50\"\n"},
			{name: "inputText escaped template", in: "- inputText: \\${PASSWORD}\n"},
			{name: "inputRandomText defaults to 8", in: "- inputRandomText\n"},
			{name: "inputRandomText length", in: "- inputRandomText: {length: 20, label: Random}\n"},
			{name: "inputRandomText length below 1 or null is 8", in: "- inputRandomText: {length: 0}\n- inputRandomText: {length: -3}\n- inputRandomText: {length: ~}\n"},
			{name: "inputRandomNumber", in: "- inputRandomNumber\n- inputRandomNumber: {length: 5, optional: true}\n"},
			{name: "inputRandomEmail and PersonName have no length", in: "- inputRandomEmail\n- inputRandomPersonName: {label: Name}\n"},
			{name: "eraseText defaults to 50", in: "- eraseText\n"},
			{name: "eraseText scalar", in: "- eraseText: 6\n"},
			{name: "eraseText long form", in: "- eraseText: {charactersToErase: 5, label: Erase five}\n- eraseText: {charactersToErase: ~}\n"},
			{name: "pasteText", in: "- pasteText\n- pasteText: {label: Paste, optional: true}\n"},
			{name: "copyTextFrom", in: "- copyTextFrom: \"\\\\d+\"\n- copyTextFrom: {id: total, label: Copy total, optional: true}\n"},
			{name: "copyTextFrom ignores tap options", in: "- copyTextFrom: {id: total, retryTapIfNoChange: false}\n"},
		},
		errors: []errorCase{
			{name: "inputText null", in: "- inputText:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: inputText has no value"},
			{name: "inputText list", in: "- inputText: [a]\n",
				want: "flows/main.yaml:3:14: INVALID_ARGS: inputText must be text, got a list"},
			{name: "inputText text is a mapping", in: "- inputText: {text: {a: b}}\n",
				want: "flows/main.yaml:3:21: INVALID_ARGS: inputText text must be text, got a mapping: Maestro casts it to text and fails"},
			{name: "inputText text is a number (Maestro's cast to String fails)", in: "- inputText: {text: 123}\n",
				want: `flows/main.yaml:3:21: INVALID_ARGS: inputText text must be text, got a number "123": Maestro casts it to text and fails`, hint: `quote it to pass it as text: text: "123"`},
			{name: "inputText text is a YAML 1.1 boolean", in: "- inputText: {text: on}\n",
				want: `flows/main.yaml:3:21: INVALID_ARGS: inputText text must be text, got a boolean "on": Maestro casts it to text and fails`},
			{name: "inputText text is null", in: "- inputText: {text: ~}\n",
				want: `flows/main.yaml:3:21: INVALID_ARGS: inputText text must be text, got null: Maestro casts it to text and fails`},
			{name: "inputText label is a number", in: "- inputText: {text: a, label: 5}\n",
				want: `flows/main.yaml:3:31: INVALID_ARGS: inputText label must be text, got a number "5": Maestro casts it to text and fails`},
			{name: "inputText huge number", in: "- inputText: 123456789012345678901\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: inputText 123456789012345678901 is a whole number too large for Maestro, which refuses it here`, hint: `"123456789012345678901"`},
			{name: "inputRandomText length not a number", in: "- inputRandomText: {length: long}\n",
				want: `flows/main.yaml:3:29: INVALID_ARGS: length must be a whole number, got "long"`},
			{name: "inputRandomText scalar", in: "- inputRandomText: 5\n",
				want: "flows/main.yaml:3:20: INVALID_ARGS: inputRandomText takes a mapping of length here, got a scalar"},
			{name: "inputRandomEmail has no length", in: "- inputRandomEmail: {length: 5}\n",
				want: `flows/main.yaml:3:22: INVALID_ARGS: unknown key "length" in inputRandomEmail`},
			{name: "eraseText not a number", in: "- eraseText: all\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: charactersToErase must be a whole number, got "all"`},
			{name: "eraseText list", in: "- eraseText: [1]\n",
				want: "flows/main.yaml:3:14: INVALID_ARGS: eraseText takes a value or a mapping, got a list"},
			{name: "eraseText near-miss key", in: "- eraseText: {charactersToDelete: 3}\n",
				want: `flows/main.yaml:3:15: INVALID_ARGS: unknown key "charactersToDelete" in eraseText`},
			{name: "pasteText scalar", in: "- pasteText: now\n",
				want: "flows/main.yaml:3:14: INVALID_ARGS: pasteText takes only label and optional here, got a scalar"},
			{name: "copyTextFrom null", in: "- copyTextFrom:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: copyTextFrom has no value"},
		},
	}
}

func pressKeyFamily() family {
	return family{
		valid: []validCase{
			{name: "short and long form", in: "- pressKey: Enter\n- pressKey: {key: back, label: Go back, optional: true}\n"},
		},
		errors: []errorCase{
			{name: "pressKey unknown name", in: "- pressKey: Entr\n",
				want: `flows/main.yaml:3:13: INVALID_ARGS: unknown key name "Entr"`, hint: `did you mean "Enter"?`},
			{name: "pressKey other tool's name", in: "- pressKey: return\n",
				want: `flows/main.yaml:3:13: INVALID_ARGS: unknown key name "return"`, hint: `did you mean "Enter"?`},
			{name: "pressKey template", in: "- pressKey: ${KEY}\n",
				want: `flows/main.yaml:3:13: INVALID_ARGS: unknown key name "${KEY}"`, hint: "cannot use ${...}"},
			{name: "pressKey null", in: "- pressKey:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: pressKey has no value"},
			{name: "pressKey long form without key", in: "- pressKey: {label: Press}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: pressKey needs key"},
			{name: "pressKey list", in: "- pressKey: [Enter]\n",
				want: "flows/main.yaml:3:13: INVALID_ARGS: pressKey takes a value or a mapping, got a list"},
			{name: "pressKey key is a list", in: "- pressKey: {key: [Enter]}\n",
				want: "flows/main.yaml:3:19: INVALID_ARGS: key must be text, got a list"},
		},
	}
}

// TestPressKeyNames checks every key name of maestro-reference §1.4 in
// three spellings against the Android key code the reference gives.
func TestPressKeyNames(t *testing.T) {
	t.Parallel()
	keys := []struct {
		name string
		code int
	}{
		{"Enter", 66}, {"Backspace", 67}, {"Back", 4}, {"Home", 3}, {"Lock", 276},
		{"Volume Up", 24}, {"Volume Down", 25},
		{"Remote Dpad Up", 19}, {"Remote Dpad Down", 20}, {"Remote Dpad Left", 21}, {"Remote Dpad Right", 22},
		{"Remote Dpad Center", 23}, {"Remote Media Play Pause", 85}, {"Remote Media Stop", 86},
		{"Remote Media Next", 87}, {"Remote Media Previous", 88}, {"Remote Media Rewind", 89},
		{"Remote Media Fast Forward", 90}, {"Escape", 111}, {"Power", 26}, {"Tab", 62},
		{"Remote System Navigation Up", 280}, {"Remote System Navigation Down", 281},
		{"Remote Button A", 96}, {"Remote Button B", 97}, {"Remote Menu", 82},
		{"TV Input", 178}, {"TV Input HDMI 1", 243}, {"TV Input HDMI 2", 244}, {"TV Input HDMI 3", 245},
	}
	var b strings.Builder
	var want []string
	for _, k := range keys {
		for _, spelling := range []string{k.name, strings.ToLower(k.name), strings.ToUpper(k.name), swapCase(k.name)} {
			b.WriteString("- pressKey: \"" + spelling + "\"\n")
			want = append(want, k.name)
		}
	}
	r := loadBody(t, b.String(), nil)
	if r.err != nil {
		t.Fatalf("key names refused:\n%s", renderProblems(r.problems))
	}
	if len(r.flow.Commands) != len(want) {
		t.Fatalf("%d commands, want %d", len(r.flow.Commands), len(want))
	}
	for i, c := range r.flow.Commands {
		pk, ok := c.(*canonical.PressKey)
		if !ok {
			t.Fatalf("command %d is %T", i, c)
		}
		k := keys[i/4]
		if pk.Key != want[i] || pk.AndroidCode != k.code {
			t.Errorf("line %d: got %q code %d, want %q code %d", pk.Pos.Line, pk.Key, pk.AndroidCode, k.name, k.code)
		}
		if pk.Pos.Line != 3+i || pk.Pos.Col != 3 {
			t.Errorf("command %d at %s, want line %d col 3", i, pk.Pos, 3+i)
		}
	}
}

func swapCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func simpleFamily() family {
	return family{
		valid: []validCase{
			{name: "bare forms", in: "- back\n- hideKeyboard\n- hide keyboard\n- clearKeychain\n- pasteText\n- scroll\n- stopRecording\n- toggleAirplaneMode\n"},
			{name: "long forms with label and optional", in: `- back: {label: Go back, optional: true}
- hideKeyboard: {label: Hide}
- clearKeychain: {optional: true}
- scroll: {label: Scroll down}
- stopRecording: {label: Stop}
- toggleAirplaneMode: {label: Toggle}
`},
			{name: "legacy action forms (Maestro 024)", in: "- action: back\n- action: hideKeyboard\n- action: scroll\n- action: clearKeychain\n- action: pasteText\n"},
			{name: "waitForAnimationToEnd", in: "- waitForAnimationToEnd\n- waitForAnimationToEnd: {timeout: 4000, label: Settle}\n- waitForAnimationToEnd: {timeout: ~}\n"},
		},
		errors: []errorCase{
			{name: "back scalar", in: "- back: now\n",
				want: "flows/main.yaml:3:9: INVALID_ARGS: back takes only label and optional here, got a scalar"},
			{name: "back unknown key", in: "- back: {times: 2}\n",
				want: `flows/main.yaml:3:10: INVALID_ARGS: unknown key "times" in back`},
			{name: "hide keyboard long form", in: "- hide keyboard: {label: Hide}\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: "hide keyboard" is only a bare command`, hint: "hideKeyboard"},
			{name: "hideKeyboard null", in: "- hideKeyboard:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: hideKeyboard has no value", hint: "without the colon"},
			{name: "scroll direction", in: "- scroll: {direction: UP}\n",
				want: `flows/main.yaml:3:12: INVALID_ARGS: unknown key "direction" in scroll`},
			{name: "action unknown target", in: "- action: swipe\n",
				want: `flows/main.yaml:3:11: INVALID_ARGS: unknown action "swipe"`},
			{name: "action with a space", in: "- action: hide keyboard\n",
				want: `flows/main.yaml:3:11: INVALID_ARGS: unknown action "hide keyboard"`},
			{name: "action list", in: "- action: [back]\n",
				want: "flows/main.yaml:3:11: INVALID_ARGS: action must be text, got a list"},
			{name: "action bare", in: "- action\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: action needs a value"},
			{name: "toggleAirplaneMode scalar", in: "- toggleAirplaneMode: on\n",
				want: "flows/main.yaml:3:23: INVALID_ARGS: toggleAirplaneMode takes only label and optional here, got a scalar"},
			{name: "waitForAnimationToEnd timeout not a number", in: "- waitForAnimationToEnd: {timeout: soon}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: timeout must be a whole number, got "soon"`},
		},
	}
}

func swipeFamily() family {
	return family{
		valid: []validCase{
			{name: "direction in upper and lower case", in: "- swipe: {direction: UP}\n- swipe: {direction: down}\n- swipe: {direction: LEFT}\n- swipe: {direction: right}\n"},
			{name: "direction with every common key", in: "- swipe: {direction: LEFT, duration: 800, waitToSettleTimeoutMs: 50, label: Next page, optional: true}\n"},
			{name: "from an element", in: "- swipe: {from: {id: carousel}, direction: LEFT}\n- swipe: {from: Banner, direction: up, duration: 1000}\n"},
			{name: "from an optional element", in: "- swipe: {from: {id: carousel, optional: true}, direction: RIGHT}\n"},
			{name: "relative start and end (Maestro 027)", in: "- swipe: {start: \"90%, 50%\", end: \"10%, 50%\", waitToSettleTimeoutMs: 50}\n"},
			{name: "absolute start and end (Maestro 027)", in: "- swipe: {start: \"100, 200\", end: \"300,400\", duration: 500}\n"},
			{name: "relative start with a template", in: "- swipe:\n    start: ${X}%, 50%\n    end: 10%, 50%\n"},
			{name: "duration edges are kept", in: "- swipe: {direction: UP, duration: 16}\n- swipe: {direction: UP, duration: 10000}\n"},
			{name: "duration below 16 ms is clamped with a warning", in: "- swipe: {direction: UP, duration: 5}\n- swipe: {direction: UP, duration: 0}\n- swipe: {direction: UP, duration: -100}\n"},
			{name: "duration above 10000 ms is clamped with a warning", in: "- swipe: {start: \"1,2\", end: \"3,4\", duration: 20000}\n"},
			// Maestro builds these two forms by hand and ignores keys it
			// does not read; flow warns about each.
			{name: "direction swipe ignores unknown keys, with a warning", in: "- swipe: {direction: UP, speed: 80, <<: {duration: 9}}\n"},
			{name: "start/end swipe ignores unknown keys and from, with a warning", in: "- swipe: {start: \"90%, 50%\", end: \"10%, 50%\", speed: 3, from: {id: x}}\n"},
			{name: "direction swipe drops a waitToSettleTimeoutMs that is not a number, with a warning", in: "- swipe: {direction: UP, waitToSettleTimeoutMs: x}\n"},
			{name: "direction and start/end swipes read optional as Kotlin's toBoolean does, with a warning", in: "- swipe: {direction: UP, optional: maybe}\n- swipe: {start: \"1,2\", end: \"3,4\", optional: \"tRuE\"}\n- swipe: {direction: UP, optional: yes}\n"},
		},
		errors: []errorCase{
			{name: "swipe null", in: "- swipe:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: swipe has no value"},
			{name: "swipe scalar", in: "- swipe: UP\n",
				want: "flows/main.yaml:3:10: INVALID_ARGS: swipe takes a mapping of direction, from, start, end, duration, waitToSettleTimeoutMs here, got a scalar"},
			{name: "swipe empty mapping", in: "- swipe: {}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: swipe needs a direction, an element and a direction, or start and end"},
			{name: "swipe only label", in: "- swipe: {label: Swipe}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: swipe needs a direction, an element and a direction, or start and end"},
			{name: "swipe duration only", in: "- swipe: {duration: 400}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: swipe needs a direction, an element and a direction, or start and end"},
			{name: "swipe start without end", in: "- swipe: {start: \"1,2\"}\n",
				want: "flows/main.yaml:3:11: INVALID_ARGS: swipe needs both start and end; end is missing"},
			{name: "swipe end without start", in: "- swipe: {end: \"1,2\"}\n",
				want: "flows/main.yaml:3:11: INVALID_ARGS: swipe needs both start and end; start is missing"},
			{name: "swipe direction with start", in: "- swipe: {direction: UP, start: \"1,2\", end: \"3,4\"}\n",
				want: "flows/main.yaml:3:26: INVALID_ARGS: swipe cannot combine direction with start/end"},
			{name: "swipe direction with end", in: "- swipe: {direction: UP, end: \"3,4\"}\n",
				want: "flows/main.yaml:3:26: INVALID_ARGS: swipe cannot combine direction with start/end"},
			{name: "swipe from without direction", in: "- swipe: {from: {id: carousel}}\n",
				want: "flows/main.yaml:3:11: INVALID_ARGS: a swipe from an element needs a direction"},
			{name: "swipe mixed kinds", in: "- swipe: {start: \"10%,20%\", end: \"100,200\"}\n",
				want: "flows/main.yaml:3:34: INVALID_ARGS: swipe start and end must both be percentages or both be coordinates"},
			{name: "swipe percent above 100", in: "- swipe: {start: \"10%,120%\", end: \"1%,2%\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: swipe start "10%,120%" has a percentage above 100%`},
			{name: "swipe percent missing on one number", in: "- swipe: {start: \"10%,20\", end: \"1%,2%\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: swipe start "10%,20" is not "x%, y%"`},
			{name: "swipe absolute with a template", in: "- swipe:\n    start: ${X}, 5\n    end: 1, 2\n",
				want: `flows/main.yaml:4:12: INVALID_ARGS: swipe start "${X}, 5" is not "x, y"`, hint: "cannot use ${...}"},
			{name: "swipe absolute not a point", in: "- swipe: {start: \"1,2,3\", end: \"1,2\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: swipe start "1,2,3" is not "x, y"`},
			{name: "swipe absolute out of range", in: "- swipe: {start: \"99999999999999999999, 1\", end: \"1, 2\"}\n",
				want: `flows/main.yaml:3:18: INVALID_ARGS: swipe start "99999999999999999999, 1" is out of range`},
			{name: "swipe direction mixed case", in: "- swipe: {direction: Up}\n",
				want: `flows/main.yaml:3:22: INVALID_ARGS: unknown swipe direction "Up"`, hint: `write "UP"`},
			{name: "swipe direction unknown", in: "- swipe: {direction: diagonal}\n",
				want: `flows/main.yaml:3:22: INVALID_ARGS: unknown swipe direction "diagonal"`},
			{name: "swipe duration not a number", in: "- swipe: {direction: UP, duration: fast}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: duration must be a whole number, got "fast"`},
			{name: "swipe duration template", in: "- swipe:\n    direction: UP\n    duration: ${D}\n",
				want: `flows/main.yaml:5:15: INVALID_ARGS: duration must be a whole number, got "${D}"`, hint: "cannot use ${...}"},
			{name: "swipe from: waitToSettleTimeoutMs not a number", in: "- swipe: {from: a, direction: UP, waitToSettleTimeoutMs: x}\n",
				want: `flows/main.yaml:3:58: INVALID_ARGS: waitToSettleTimeoutMs must be a whole number, got "x"`},
			{name: "swipe from: unknown key (Maestro's strict form)", in: "- swipe: {from: a, direction: UP, speed: 3}\n",
				want: `flows/main.yaml:3:35: INVALID_ARGS: unknown key "speed" in swipe`},
			{name: "swipe from: merge key", in: "- swipe: {from: a, direction: UP, <<: {duration: 3}}\n",
				want: `flows/main.yaml:3:35: INVALID_ARGS: unknown key "<<" in swipe`, hint: "does not merge"},
			{name: "swipe from is a list", in: "- swipe: {from: [a], direction: UP}\n",
				want: "flows/main.yaml:3:17: INVALID_ARGS: from takes one selector, got a list"},
		},
	}
}

func scrollUntilVisibleFamily() family {
	return family{
		valid: []validCase{
			{name: "element only: defaults", in: "- scrollUntilVisible: {element: Footer}\n"},
			{name: "every field", in: `- scrollUntilVisible:
    element: {id: footer}
    direction: UP
    timeout: 10000
    speed: 100
    visibilityPercentage: 50
    centerElement: true
    waitToSettleTimeoutMs: 60000
    label: Find the footer
    optional: true
`},
			{name: "direction is case-insensitive", in: "- scrollUntilVisible: {element: x, direction: Left}\n- scrollUntilVisible: {element: x, direction: right}\n"},
			{name: "visibilityPercentage is clamped to 0..100", in: "- scrollUntilVisible: {element: x, visibilityPercentage: 150}\n- scrollUntilVisible: {element: x, visibilityPercentage: -3}\n"},
			{name: "speed and timeout templates", in: "- scrollUntilVisible:\n    element: x\n    speed: ${SPEED}\n    timeout: ${TIMEOUT}\n"},
			{name: "element optional makes the command optional", in: "- scrollUntilVisible: {element: {text: More, optional: true}}\n"},
		},
		errors: []errorCase{
			{name: "scrollUntilVisible without element", in: "- scrollUntilVisible: {direction: DOWN}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: scrollUntilVisible needs element"},
			{name: "scrollUntilVisible scalar", in: "- scrollUntilVisible: Footer\n",
				want: "flows/main.yaml:3:23: INVALID_ARGS: scrollUntilVisible takes a mapping of element, direction, timeout, speed, visibilityPercentage, centerElement, waitToSettleTimeoutMs here, got a scalar"},
			{name: "scrollUntilVisible null", in: "- scrollUntilVisible:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: scrollUntilVisible has no value"},
			{name: "scrollUntilVisible element null", in: "- scrollUntilVisible: {element: ~}\n",
				want: "flows/main.yaml:3:33: INVALID_ARGS: element needs an element selector"},
			{name: "scrollUntilVisible element list", in: "- scrollUntilVisible: {element: [a]}\n",
				want: "flows/main.yaml:3:33: INVALID_ARGS: element takes one selector, got a list"},
			{name: "scrollUntilVisible direction unknown", in: "- scrollUntilVisible: {element: x, direction: sideways}\n",
				want: `flows/main.yaml:3:47: INVALID_ARGS: unknown scroll direction "sideways"`},
			{name: "scrollUntilVisible speed not a number", in: "- scrollUntilVisible: {element: x, speed: fast}\n",
				want: `flows/main.yaml:3:43: INVALID_ARGS: speed "fast" is not a whole number: Maestro reads it with toLong and fails`, hint: "speed: 40"},
			{name: "scrollUntilVisible timeout not a number", in: "- scrollUntilVisible: {element: x, timeout: 1s}\n",
				want: `flows/main.yaml:3:45: INVALID_ARGS: timeout "1s" is not a whole number: Maestro reads it with toLong and fails`, hint: "timeout: 20000"},
			{name: "scrollUntilVisible visibilityPercentage not whole", in: "- scrollUntilVisible: {element: x, visibilityPercentage: \"50%\"}\n",
				want: `flows/main.yaml:3:58: INVALID_ARGS: visibilityPercentage must be a whole number, got "50%"`},
			{name: "scrollUntilVisible centerElement not a boolean", in: "- scrollUntilVisible: {element: x, centerElement: maybe}\n",
				want: `flows/main.yaml:3:51: INVALID_ARGS: centerElement must be true or false, got "maybe"`},
			{name: "scrollUntilVisible near-miss key", in: "- scrollUntilVisible: {element: x, timeOut: 5}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: unknown key "timeOut" in scrollUntilVisible`, hint: `did you mean "timeout"?`},
		},
	}
}

func appFamily() family {
	return family{
		valid: []validCase{
			{name: "bare forms use the flow appId", in: "- stopApp\n- killApp\n- clearState\n"},
			{name: "scalar forms name another app", in: "- stopApp: com.other\n- killApp: com.other\n- clearState: com.other\n"},
			{name: "long forms", in: `- stopApp: {appId: com.other, label: Stop it, optional: true}
- killApp: {label: Kill}
- clearState: {appId: com.other, label: Wipe}
`},
			{name: "appId template", in: "- stopApp: ${OTHER_APP}\n"},
		},
		errors: []errorCase{
			{name: "stopApp list", in: "- stopApp: [a]\n",
				want: "flows/main.yaml:3:12: INVALID_ARGS: stopApp takes a value or a mapping, got a list"},
			{name: "killApp unknown key", in: "- killApp: {package: com.other}\n",
				want: `flows/main.yaml:3:13: INVALID_ARGS: unknown key "package" in killApp`},
			{name: "clearState null", in: "- clearState:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: clearState has no value", hint: "without the colon"},
		},
	}
}

func openLinkFamily() family {
	return family{
		valid: []validCase{
			{name: "scalar", in: "- openLink: https://example.com/item/42\n"},
			{name: "long form", in: "- openLink: {link: \"myapp://cart\", browser: true, autoVerify: true, label: Open cart, optional: true}\n"},
			{name: "long form defaults", in: "- openLink: {link: \"https://example.com\"}\n"},
		},
		errors: []errorCase{
			{name: "openLink null", in: "- openLink:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: openLink has no value"},
			{name: "openLink without link", in: "- openLink: {browser: true}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: openLink needs link"},
			{name: "openLink browser not a boolean", in: "- openLink: {link: x, browser: chrome}\n",
				want: `flows/main.yaml:3:32: INVALID_ARGS: browser must be true or false, got "chrome"`},
			{name: "openLink list", in: "- openLink: [a]\n",
				want: "flows/main.yaml:3:13: INVALID_ARGS: openLink takes a value or a mapping, got a list"},
		},
	}
}

func recordingFamily() family {
	return family{
		valid: []validCase{
			{name: "takeScreenshot", in: "- takeScreenshot: after_login\n- takeScreenshot:\n    path: shots/${NAME}\n    label: Snap\n    optional: true\n"},
			{name: "startRecording and stopRecording", in: "- startRecording: run\n- startRecording: {path: clips/run}\n- stopRecording\n"},
		},
		errors: []errorCase{
			{name: "takeScreenshot null", in: "- takeScreenshot:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: takeScreenshot has no value"},
			{name: "takeScreenshot without path", in: "- takeScreenshot: {label: Snap}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: takeScreenshot needs path"},
			{name: "takeScreenshot path list", in: "- takeScreenshot: {path: [a]}\n",
				want: "flows/main.yaml:3:26: INVALID_ARGS: path must be text, got a list"},
			{name: "startRecording list", in: "- startRecording: [a]\n",
				want: "flows/main.yaml:3:19: INVALID_ARGS: startRecording takes a value or a mapping, got a list"},
			{name: "stopRecording scalar", in: "- stopRecording: run\n",
				want: "flows/main.yaml:3:18: INVALID_ARGS: stopRecording takes only label and optional here, got a scalar"},
		},
	}
}

func locationFamily() family {
	return family{
		valid: []validCase{
			{name: "setLocation numbers and text", in: "- setLocation: {latitude: 12.5266, longitude: \"78.2150\", label: Lab}\n"},
			{name: "setLocation templates", in: "- setLocation:\n    latitude: ${LAT}\n    longitude: ${LNG}\n"},
			{name: "travel default speed", in: "- travel: {points: [\"0.0,0.0\", \"0.1, 0.0\", \"0.1,0.1\"]}\n"},
			{name: "travel speed label optional", in: "- travel: {points: [\"52.52,13.405\"], speed: 2000, label: Run, optional: true}\n"},
		},
		errors: []errorCase{
			{name: "setLocation without latitude", in: "- setLocation: {longitude: 1}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: setLocation needs latitude"},
			{name: "setLocation longitude not a number", in: "- setLocation: {latitude: 1, longitude: east}\n",
				want: `flows/main.yaml:3:41: INVALID_ARGS: longitude "east" is not a number`},
			{name: "setLocation scalar (Maestro 026)", in: "- setLocation: 1,2\n",
				want: "flows/main.yaml:3:16: INVALID_ARGS: setLocation takes a mapping of latitude, longitude here, got a scalar"},
			{name: "travel without points", in: "- travel: {speed: 3}\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: travel needs points: a list of "latitude,longitude"`},
			{name: "travel empty points", in: "- travel: {points: []}\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: travel needs points: a list of "latitude,longitude"`},
			{name: "travel points scalar", in: "- travel: {points: \"1,2\"}\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: travel needs points: a list of "latitude,longitude"`},
			{name: "travel point latitude not a number", in: "- travel: {points: [\"1,2\", \"a,3\"]}\n",
				want: `flows/main.yaml:3:28: INVALID_ARGS: invalid travel point "a,3"`},
			{name: "travel point three numbers", in: "- travel: {points: [\"1,2,3\"]}\n",
				want: `flows/main.yaml:3:21: INVALID_ARGS: invalid travel point "1,2,3"`},
			{name: "travel point template", in: "- travel:\n    points:\n      - ${LAT},1\n",
				want: `flows/main.yaml:5:9: INVALID_ARGS: invalid travel point "${LAT},1"`, hint: "${...} cannot be used"},
			{name: "travel point infinite", in: "- travel: {points: [\"inf,1\"]}\n",
				want: `flows/main.yaml:3:21: INVALID_ARGS: invalid travel point "inf,1"`},
			{name: "travel speed not a number", in: "- travel: {points: [\"1,2\"], speed: fast}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: speed must be a number, got "fast"`},
			{name: "travel speed infinite", in: "- travel: {points: [\"1,2\"], speed: .inf}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: speed must be a number, got ".inf"`},
		},
	}
}

func addMediaFamily() family {
	return family{
		valid: []validCase{
			{name: "list of every allowed type", in: "- addMedia: [media/cat.png, media/dog.jpg, media/photo.jpeg, media/anim.gif, media/clip.mp4]\n"},
			{name: "long form", in: "- addMedia: {files: [./media/cat.png], label: Add a cat, optional: true}\n"},
		},
		errors: []errorCase{
			{name: "addMedia missing file (Maestro e013)", in: "- addMedia: [media/cat.png, media/missing.png]\n",
				want: `flows/main.yaml:3:29: INVALID_ARGS: addMedia file "media/missing.png" does not exist (looked for flows/media/missing.png)`},
			{name: "addMedia unsupported extension", in: "- addMedia: [setup.js]\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: addMedia cannot add "setup.js": only png, jpeg, jpg, gif and mp4 files`},
			{name: "addMedia no extension", in: "- addMedia: [media/cat]\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: addMedia cannot add "media/cat": only png, jpeg, jpg, gif and mp4 files`},
			{name: "addMedia folder", in: "- addMedia: [media/folder.png]\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: addMedia file "media/folder.png" is a folder, not a file`},
			{name: "addMedia scalar", in: "- addMedia: media/cat.png\n",
				want: "flows/main.yaml:3:13: INVALID_ARGS: addMedia takes a list of files, got a scalar"},
			{name: "addMedia long form without files", in: "- addMedia: {label: Add}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: addMedia needs files"},
			{name: "addMedia item is a list", in: "- addMedia: [[media/cat.png]]\n",
				want: "flows/main.yaml:3:14: INVALID_ARGS: addMedia file must be text, got a list"},
			{name: "addMedia null", in: "- addMedia:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: addMedia has no value"},
		},
	}
}

func airplaneModeFamily() family {
	return family{
		valid: []validCase{
			{name: "setAirplaneMode scalar", in: "- setAirplaneMode: enabled\n- setAirplaneMode: disabled\n"},
			{name: "setAirplaneMode long form", in: "- setAirplaneMode: {value: enabled, label: Offline}\n"},
			{name: "setAirplaneMode ignores optional", in: "- setAirplaneMode: {value: disabled, optional: true}\n"},
			{name: "setAirplaneMode ignores unknown keys, and a scalar containing the word counts, as in Maestro", in: "- setAirplaneMode: {value: enabled, state: on}\n- setAirplaneMode: airplane mode disabled\n"},
			{name: "toggleAirplaneMode", in: "- toggleAirplaneMode\n- toggleAirplaneMode: {label: Toggle, optional: true}\n"},
		},
		errors: []errorCase{
			{name: "setAirplaneMode unknown value", in: "- setAirplaneMode: on\n",
				want: `flows/main.yaml:3:20: INVALID_ARGS: setAirplaneMode takes enabled or disabled, got "on"`},
			{name: "setAirplaneMode long form without value", in: "- setAirplaneMode: {label: Offline}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: setAirplaneMode needs value"},
			{name: "setAirplaneMode list", in: "- setAirplaneMode: [enabled]\n",
				want: "flows/main.yaml:3:20: INVALID_ARGS: setAirplaneMode must be text, got a list"},
			{name: "setAirplaneMode value in upper case (Maestro compares exactly)", in: "- setAirplaneMode: {value: ENABLED}\n",
				want: `flows/main.yaml:3:28: INVALID_ARGS: setAirplaneMode takes enabled or disabled, got "ENABLED"`, hint: "lower case"},
			{name: "setAirplaneMode null", in: "- setAirplaneMode:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: setAirplaneMode has no value"},
		},
	}
}

func runFlowFamily() family {
	return family{
		valid: []validCase{
			{name: "file short form", in: "- runFlow: sub.yaml\n"},
			{name: "file long form with env when label optional", in: `- runFlow:
    file: sub.yaml
    env:
      USER: alice
      COUNT: 3
      NEXT: ${COUNT + 1}
      EMPTY:
    when:
      platform: iOS
      visible: Log in
      notVisible: {id: spinner}
      true: ${output.ready}
      label: Only when logged out
      optional: true
    label: Sign in
    optional: true
`},
			{name: "subflow in a folder resolves its own files there", in: "- runFlow: sub/inner.yaml\n"},
			{name: "the same subflow twice", in: "- runFlow: sub.yaml\n- runFlow: ./sub.yaml\n"},
			{name: "inline commands nest", in: `- runFlow:
    env: {A: b}
    commands:
      - back
      - runFlow:
          commands:
            - scroll
`},
			{name: "when with the true key (Maestro 065)", in: "- runFlow:\n    when:\n      true: ${maestro.platform == 'ios'}\n    commands: [back]\n"},
			{name: "platform names in any case", in: "- runFlow: {file: sub.yaml, when: {platform: ANDROID}}\n- runFlow: {file: sub.yaml, when: {platform: web}}\n"},
			{name: "empty when", in: "- runFlow: {file: sub.yaml, when: {}}\n"},
		},
		errors: []errorCase{
			{name: "runFlow null", in: "- runFlow:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: runFlow has no value"},
			{name: "runFlow missing file (Maestro e012)", in: "- runFlow: invalidpath.yaml\n",
				want: `flows/main.yaml:3:12: INVALID_ARGS: runFlow file "invalidpath.yaml" does not exist (looked for flows/invalidpath.yaml)`, hint: "relative to the folder"},
			{name: "runFlow runs itself", in: "- runFlow: main.yaml\n",
				want: "flows/main.yaml:3:12: INVALID_ARGS: runFlow runs the flow it is in"},
			{name: "runFlow runs a folder", in: "- runFlow: media\n",
				want: `flows/main.yaml:3:12: INVALID_ARGS: runFlow file "media" is a folder, not a file`},
			{name: "runFlow file and commands", in: "- runFlow: {file: sub.yaml, commands: [back]}\n",
				want: "flows/main.yaml:3:29: INVALID_ARGS: runFlow takes file or commands, not both"},
			{name: "runFlow neither file nor commands", in: "- runFlow: {label: Nothing}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: runFlow needs file or commands"},
			{name: "runFlow empty commands", in: "- runFlow: {commands: []}\n",
				want: "flows/main.yaml:3:23: INVALID_ARGS: runFlow commands is empty"},
			{name: "runFlow commands scalar", in: "- runFlow: {commands: back}\n",
				want: "flows/main.yaml:3:23: INVALID_ARGS: runFlow commands must be a list of commands, got a scalar"},
			{name: "runFlow when scalar", in: "- runFlow: {file: sub.yaml, when: visible}\n",
				want: "flows/main.yaml:3:35: INVALID_ARGS: when must be a mapping of platform, visible, notVisible or true, got a scalar"},
			{name: "runFlow when unknown key", in: "- runFlow: {file: sub.yaml, when: {visible: x, timeout: 3}}\n",
				want: `flows/main.yaml:3:48: INVALID_ARGS: unknown key "timeout" in when`},
			{name: "runFlow when True is not true", in: "- runFlow:\n    file: sub.yaml\n    when:\n      True: ${x}\n",
				want: `flows/main.yaml:6:7: INVALID_ARGS: unknown key "True" in when`, hint: `did you mean "true"?`},
			{name: "runFlow when unknown platform", in: "- runFlow: {file: sub.yaml, when: {platform: windows}}\n",
				want: `flows/main.yaml:3:46: INVALID_ARGS: unknown platform "windows"`},
			{name: "runFlow when visible list", in: "- runFlow: {file: sub.yaml, when: {visible: [a]}}\n",
				want: "flows/main.yaml:3:45: INVALID_ARGS: visible takes one selector, got a list"},
			{name: "runFlow env invalid name", in: "- runFlow: {file: sub.yaml, env: {1A: x}}\n",
				want: `flows/main.yaml:3:35: INVALID_ARGS: env name "1A" is not a valid variable name`},
			{name: "runFlow env value list", in: "- runFlow: {file: sub.yaml, env: {A: [x]}}\n",
				want: "flows/main.yaml:3:38: INVALID_ARGS: env A must be a single value, got a list"},
			{name: "runFlow env list", in: "- runFlow: {file: sub.yaml, env: [A]}\n",
				want: "flows/main.yaml:3:34: INVALID_ARGS: env must be a mapping of NAME: value, got a list"},
			{name: "runFlow file list", in: "- runFlow: {file: [sub.yaml]}\n",
				want: "flows/main.yaml:3:19: INVALID_ARGS: file must be text, got a list"},
		},
	}
}

// TestRunFlowSubflowProblems: a subflow's problems are reported in the
// subflow at their own lines, and the runFlow that names it is marked.
func TestRunFlowSubflowProblems(t *testing.T) {
	t.Parallel()
	r := loadBody(t, "- back\n- runFlow: broken.yaml\n", nil)
	got := renderProblems(r.problems)
	want := strings.Join([]string{
		`flows/broken.yaml:4:3: INVALID_ARGS: unknown command "frobnicate" | hint: see flow schema for every command`,
		`flows/main.yaml:4:12: INVALID_ARGS: runFlow file "broken.yaml" has errors (reported at its own lines) | hint: fix the errors reported in flows/broken.yaml`,
	}, "\n")
	if got != want {
		t.Errorf("problems\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunFlowCycle: A -> B -> A is refused (Maestro overflows its stack).
func TestRunFlowCycle(t *testing.T) {
	t.Parallel()
	r := loadBody(t, "- runFlow: cycle-b.yaml\n", nil)
	got := renderProblems(r.problems)
	want := strings.Join([]string{
		`flows/cycle-b.yaml:3:12: INVALID_ARGS: runFlow cycle: flows/main.yaml -> flows/cycle-b.yaml -> flows/main.yaml | hint: a flow cannot run itself, directly or through its subflows; Maestro overflows its stack here`,
		`flows/cycle-b.yaml:3:12: INVALID_ARGS: runFlow file "main.yaml" has errors (reported at its own lines) | hint: fix the errors reported in flows/main.yaml`,
		`flows/main.yaml:3:12: INVALID_ARGS: runFlow file "cycle-b.yaml" has errors (reported at its own lines) | hint: fix the errors reported in flows/cycle-b.yaml`,
	}, "\n")
	if got != want {
		t.Errorf("problems\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestSubflowLoadedOnce: a subflow named twice is one loaded flow, and a
// subflow's own subflow resolves against the subflow's folder.
func TestSubflowLoadedOnce(t *testing.T) {
	t.Parallel()
	r := loadBody(t, "- runFlow: sub.yaml\n- runFlow: sub/inner.yaml\n- runFlow: ./sub.yaml\n", nil)
	if r.err != nil {
		t.Fatal(renderProblems(r.problems))
	}
	var files []string
	for _, f := range r.loader.Flows() {
		files = append(files, f.File)
	}
	if got, want := strings.Join(files, " "), "flows/sub.yaml flows/sub/leaf.yaml flows/sub/inner.yaml flows/main.yaml"; got != want {
		t.Errorf("flows loaded %q, want %q", got, want)
	}
	first := r.flow.Commands[0].(*canonical.RunFlow).Flow
	third := r.flow.Commands[2].(*canonical.RunFlow).Flow
	if first == nil || first != third {
		t.Errorf("sub.yaml loaded twice: %p and %p", first, third)
	}
	leaf := r.flow.Commands[1].(*canonical.RunFlow).Flow.Commands[0].(*canonical.RunFlow).Flow
	if leaf == nil || leaf.AppID.Raw != "com.example.leaf" {
		t.Errorf("inner.yaml's runFlow: leaf.yaml did not load flows/sub/leaf.yaml: %+v", leaf)
	}
}

func repeatFamily() family {
	return family{
		valid: []validCase{
			{name: "times", in: "- repeat:\n    times: 3\n    commands:\n      - tapOn: Next\n"},
			{name: "while with the true key", in: "- repeat:\n    while:\n      true: ${output.more}\n    commands: [back]\n"},
			{name: "times and while with label and optional", in: `- repeat:
    times: ${COUNT}
    while:
      notVisible: Done
      platform: Android
    label: Page through
    optional: true
    commands:
      - swipe: {direction: LEFT}
      - repeat:
          times: 2
          commands: [back]
`},
			{name: "neither times nor while warns", in: "- repeat:\n    commands: [back]\n"},
		},
		errors: []errorCase{
			{name: "repeat without commands", in: "- repeat: {times: 3}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: repeat needs commands"},
			{name: "repeat empty commands", in: "- repeat: {times: 3, commands: []}\n",
				want: "flows/main.yaml:3:32: INVALID_ARGS: repeat commands is empty"},
			{name: "repeat while scalar", in: "- repeat: {while: true, commands: [back]}\n",
				want: "flows/main.yaml:3:19: INVALID_ARGS: while must be a mapping of platform, visible, notVisible or true, got a scalar"},
			{name: "repeat times list", in: "- repeat: {times: [3], commands: [back]}\n",
				want: "flows/main.yaml:3:19: INVALID_ARGS: times must be text, got a list"},
			{name: "repeat near-miss key", in: "- repeat: {time: 3, commands: [back]}\n",
				want: `flows/main.yaml:3:12: INVALID_ARGS: unknown key "time" in repeat`, hint: `did you mean "times"?`},
			{name: "repeat scalar", in: "- repeat: 3\n",
				want: "flows/main.yaml:3:11: INVALID_ARGS: repeat takes a mapping of times, while, commands here, got a scalar"},
			{name: "repeat bad inner command", in: "- repeat:\n    times: 2\n    commands:\n      - back\n      - tapOn: [a]\n",
				want: "flows/main.yaml:7:16: INVALID_ARGS: tapOn takes one selector, got a list"},
		},
	}
}

func retryFamily() family {
	return family{
		valid: []validCase{
			{name: "commands with the default maxRetries", in: "- retry:\n    commands:\n      - assertVisible: Synced\n"},
			{name: "file env maxRetries label optional", in: "- retry: {maxRetries: 5, file: sub.yaml, env: {A: b}, label: Try again, optional: true}\n"},
			{name: "maxRetries template", in: "- retry:\n    maxRetries: ${RETRIES}\n    commands: [back]\n"},
		},
		errors: []errorCase{
			{name: "retry neither file nor commands", in: "- retry: {maxRetries: 2}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: retry needs file or commands"},
			{name: "retry file and commands", in: "- retry: {file: sub.yaml, commands: [back]}\n",
				want: "flows/main.yaml:3:27: INVALID_ARGS: retry takes file or commands, not both"},
			{name: "retry missing file", in: "- retry: {file: gone.yaml}\n",
				want: `flows/main.yaml:3:17: INVALID_ARGS: retry file "gone.yaml" does not exist (looked for flows/gone.yaml)`},
			{name: "retry maxRetries list", in: "- retry: {maxRetries: [1], commands: [back]}\n",
				want: "flows/main.yaml:3:23: INVALID_ARGS: maxRetries must be text, got a list"},
			{name: "retry when is not a retry key", in: "- retry: {when: {platform: ios}, commands: [back]}\n",
				want: `flows/main.yaml:3:11: INVALID_ARGS: unknown key "when" in retry`},
		},
	}
}

func scriptFamily() family {
	return family{
		valid: []validCase{
			{name: "runScript short form", in: "- runScript: setup.js\n"},
			{name: "runScript long form", in: `- runScript:
    file: scripts/seed.js
    env:
      COUNT: 3
    when:
      platform: android
    label: Seed
    optional: true
`},
			{name: "runScript file without .js warns", in: "- runScript: notes.txt\n"},
			{name: "evalScript scalars (Maestro 024)", in: "- evalScript: ${output.n = 1}\n- evalScript: 2 + 1\n- evalScript: 2\n- evalScript: true\n"},
			{name: "evalScript long form", in: "- evalScript:\n    script: ${output.n = 2}\n    label: Set n\n"},
			{name: "evalScript long form ignores optional", in: "- evalScript:\n    script: ${x}\n    optional: true\n"},
			{name: "evalScript long form without script does nothing, with a warning", in: "- evalScript: {label: x}\n"},
		},
		errors: []errorCase{
			{name: "runScript missing file", in: "- runScript: gone.js\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: runScript file "gone.js" does not exist (looked for flows/gone.js)`},
			{name: "runScript long form without file", in: "- runScript: {env: {A: b}}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: runScript needs file"},
			{name: "runScript env invalid name", in: "- runScript: {file: setup.js, env: {my-var: 1}}\n",
				want: `flows/main.yaml:3:37: INVALID_ARGS: env name "my-var" is not a valid variable name`},
			{name: "runScript when scalar", in: "- runScript: {file: setup.js, when: android}\n",
				want: "flows/main.yaml:3:37: INVALID_ARGS: when must be a mapping of platform, visible, notVisible or true, got a scalar"},
			{name: "runScript list", in: "- runScript: [setup.js]\n",
				want: "flows/main.yaml:3:14: INVALID_ARGS: runScript takes a value or a mapping, got a list"},
			{name: "runScript folder", in: "- runScript: scripts\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: runScript file "scripts" is a folder, not a file`},
			{name: "evalScript null", in: "- evalScript:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: evalScript has no value"},
			{name: "evalScript script is a number (Maestro's cast to String fails)", in: "- evalScript: {script: 2}\n",
				want: `flows/main.yaml:3:24: INVALID_ARGS: evalScript script must be text, got a number "2": Maestro casts it to text and fails`},
			{name: "evalScript label is a number", in: "- evalScript: {script: x, label: 2.5}\n",
				want: `flows/main.yaml:3:34: INVALID_ARGS: evalScript label must be text, got a number "2.5": Maestro casts it to text and fails`},
			{name: "evalScript list", in: "- evalScript: [a]\n",
				want: "flows/main.yaml:3:15: INVALID_ARGS: evalScript must be text, got a list"},
		},
	}
}

// TestRunScriptReadsTheFileAtLoad: the script's source is read when the
// flow loads, from the path resolved against the flow's folder.
func TestRunScriptReadsTheFileAtLoad(t *testing.T) {
	t.Parallel()
	r := loadBody(t, "- runScript: scripts/seed.js\n- runScript: {file: setup.js}\n", nil)
	if r.err != nil {
		t.Fatal(renderProblems(r.problems))
	}
	files := fixtureFiles()
	for i, want := range []string{"flows/scripts/seed.js", "flows/setup.js"} {
		rs := r.flow.Commands[i].(*canonical.RunScript)
		if rs.Path != want || rs.Source != files[want] {
			t.Errorf("command %d: path %q source %q, want %q with %q", i, rs.Path, rs.Source, want, files[want])
		}
	}
}

func aiFamily() family {
	return family{
		valid: []validCase{
			{name: "assertWithAI short form is optional", in: "- assertWithAI: The cart shows one item\n"},
			{name: "assertWithAI long form", in: "- assertWithAI: {assertion: No error dialog, label: Check, optional: false}\n"},
			{name: "assertWithAI long form default optional", in: "- assertWithAI: {assertion: ok}\n"},
			{name: "assertNoDefectsWithAI", in: "- assertNoDefectsWithAI\n- assertNoDefectsWithAI: {optional: true}\n- assertNoDefectsWithAI: {label: Defects, optional: false}\n"},
			{name: "extractTextWithAI", in: "- extractTextWithAI: the order number\n- extractTextWithAI: {query: the total, outputVariable: total, optional: false}\n"},
		},
		errors: []errorCase{
			{name: "assertWithAI without assertion", in: "- assertWithAI: {optional: true}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: assertWithAI needs assertion"},
			{name: "assertWithAI list", in: "- assertWithAI: [a]\n",
				want: "flows/main.yaml:3:17: INVALID_ARGS: assertWithAI takes a value or a mapping, got a list"},
			{name: "assertNoDefectsWithAI scalar", in: "- assertNoDefectsWithAI: layout\n",
				want: "flows/main.yaml:3:26: INVALID_ARGS: assertNoDefectsWithAI takes no value"},
			{name: "extractTextWithAI without query", in: "- extractTextWithAI: {outputVariable: x}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: extractTextWithAI needs query"},
			{name: "extractTextWithAI null", in: "- extractTextWithAI:\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: extractTextWithAI has no value"},
		},
	}
}

func unknownFamily() family {
	return family{
		errors: []errorCase{
			{name: "unknown with a near miss", in: "- tapOnn: Buy\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "tapOnn"`, hint: `did you mean "tapOn"?`},
			{name: "unknown in the wrong case", in: "- TAPON: Buy\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "TAPON"`, hint: "case-sensitive"},
			{name: "unknown bare in the wrong case", in: "- LAUNCHAPP\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "LAUNCHAPP"`, hint: "case-sensitive"},
			{name: "unknown lower case near miss", in: "- inputtext: x\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "inputtext"`, hint: `did you mean "inputText"?`},
			{name: "unknown without a suggestion", in: "- frobnicate: 3\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "frobnicate"`},
			{name: "unknown bare string (Maestro 010)", in: "- invalid\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "invalid"`},
			{name: "unknown key next to a command (Maestro 009)", in: "- launchApp\n- tapOn: Buy\n  invalid: true\n",
				want: `flows/main.yaml:5:3: INVALID_ARGS: unknown command "invalid"`},
			{name: "openBrowser is removed", in: "- openBrowser: https://example.com\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: openBrowser is declared by Maestro but never worked: every Maestro version refuses it", hint: "openLink"},
			{name: "openBrowser bare", in: "- openBrowser\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: openBrowser is declared by Maestro but never worked: every Maestro version refuses it", hint: "openLink"},
			{name: "unknown inside onFlowStart-like nesting", in: "- repeat:\n    times: 1\n    commands:\n      - swip: {direction: UP}\n",
				want: `flows/main.yaml:6:9: INVALID_ARGS: unknown command "swip"`, hint: `did you mean "swipe"?`},
		},
	}
}

func structureFamily() family {
	return family{
		valid: []validCase{
			{name: "several command keys: Maestro's precedence picks one", in: `- tapOn: Buy
  launchApp: com.other
- back: {}
  scroll: {}
- doubleTapOn: Like
  toggleAirplaneMode: {}
- swipe: {direction: UP}
  inputText: typed
- runFlow: sub.yaml
  evalScript: ${x}
`},
			{name: "quoted keys and values", in: "- \"tapOn\": \"Buy\"\n- 'back'\n"},
			{name: "comments and blank lines", in: "# first\n\n- back # trailing\n\n# last\n"},
			// Maestro's Jackson reader keeps the last of duplicate keys in
			// every mapping: a tree, a map or a bean alike.
			{name: "duplicate command key: the last wins, with a warning", in: "- tapOn: Buy\n  tapOn: Sell\n"},
			{name: "duplicate selector key: the last wins, with a warning", in: "- tapOn: {text: Buy, id: buy, text: Sell}\n- assertVisible:\n    below: {id: a, id: b}\n"},
			{name: "duplicate option key: the last wins, with a warning", in: "- swipe: {direction: UP, duration: 100, duration: 300}\n- launchApp: {clearState: true, clearState: false}\n"},
			{name: "duplicate env key: the last wins, with a warning", in: "- runFlow:\n    file: sub.yaml\n    env:\n      A: 1\n      A: 2\n"},
		},
		errors: []errorCase{
			{name: "empty mapping item", in: "- {}\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: empty command"},
			{name: "null item", in: "-\n",
				want: "flows/main.yaml:3:2: INVALID_ARGS: empty command"},
			{name: "list item", in: "- [back]\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: a command must be a name or a name: value mapping, got a list"},
			{name: "number item", in: "- 42\n",
				want: `flows/main.yaml:3:3: INVALID_ARGS: unknown command "42"`},
			{name: "command key is a list", in: "- [a]: b\n",
				want: "flows/main.yaml:3:3: INVALID_ARGS: mapping keys must be plain names, got a list"},
		},
	}
}

// TestBareAndValueForms checks, for every command of maestro-reference
// §1.1, that the commands Maestro accepts bare (§1.3) load bare, that the
// others are refused bare, and that "name:" with no value is refused with
// the hint that fits.
func TestBareAndValueForms(t *testing.T) {
	t.Parallel()
	all := []string{"launchApp", "tapOn", "longPressOn", "assertVisible", "assertNotVisible", "assertTrue",
		"assertNoDefectsWithAI", "assertWithAI", "extractTextWithAI", "addMedia", "inputText", "inputRandomText",
		"inputRandomNumber", "inputRandomEmail", "inputRandomPersonName", "swipe", "openLink", "pressKey",
		"eraseText", "action", "back", "clearKeychain", "hideKeyboard", "pasteText", "scroll", "takeScreenshot",
		"extendedWaitUntil", "stopApp", "killApp", "clearState", "runFlow", "setLocation", "repeat", "retry",
		"copyTextFrom", "runScript", "waitForAnimationToEnd", "evalScript", "scrollUntilVisible", "travel",
		"startRecording", "stopRecording", "doubleTapOn", "setAirplaneMode", "toggleAirplaneMode"}
	bare := map[string]bool{}
	for _, name := range []string{"launchApp", "stopApp", "killApp", "clearState", "clearKeychain", "eraseText",
		"inputRandomText", "inputRandomNumber", "inputRandomEmail", "inputRandomPersonName", "back", "hideKeyboard",
		"pasteText", "scroll", "waitForAnimationToEnd", "stopRecording", "toggleAirplaneMode", "assertNoDefectsWithAI"} {
		bare[name] = true
	}
	for _, name := range all {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := loadBody(t, "- "+name+"\n", nil)
			if bare[name] {
				if r.err != nil {
					t.Errorf("bare %s refused: %s", name, renderProblems(r.problems))
				} else if n := len(r.flow.Commands); n != 1 {
					t.Errorf("bare %s gave %d commands", name, n)
				}
			} else {
				e := r.onlyProblem(t)
				if got, want := withoutHint(e), "flows/main.yaml:3:3: INVALID_ARGS: "+name+" needs a value"; got != want {
					t.Errorf("bare %s\n got: %s\nwant: %s", name, got, want)
				}
			}
			e := loadBody(t, "- "+name+":\n", nil).onlyProblem(t)
			if got, want := withoutHint(e), "flows/main.yaml:3:3: INVALID_ARGS: "+name+" has no value"; got != want {
				t.Errorf("null %s\n got: %s\nwant: %s", name, got, want)
			}
			wantHint := "give " + name + " a value"
			if bare[name] {
				wantHint = "write - " + name + " without the colon"
			}
			if !strings.Contains(e.Hint, wantHint) {
				t.Errorf("null %s hint %q, want it to contain %q", name, e.Hint, wantHint)
			}
		})
	}
}

// TestEveryCommandHasARow keeps the tables complete: every command name the
// loader accepts appears in some table row.
func TestEveryCommandHasARow(t *testing.T) {
	t.Parallel()
	var text strings.Builder
	for _, f := range families() {
		for _, c := range f.valid {
			text.WriteString(c.in)
		}
		for _, c := range f.errors {
			text.WriteString(c.in)
		}
	}
	for _, row := range currentRows() {
		text.WriteString(row)
	}
	for _, name := range maestro.CommandNames() {
		if !strings.Contains(text.String(), "- "+name) {
			t.Errorf("no table row uses %q", name)
		}
	}
}

// numbersFamily pins every number Maestro reads with a fixed meaning: where
// Maestro does something defined with a negative, huge or fractional value
// flow does the same and warns; where Maestro fails (a cast, toLong, a
// value past its Int or Long, a driver that disagrees) flow refuses it with
// its position. App ids are text: a number there is refused.
func numbersFamily() family {
	return family{
		valid: []validCase{
			{name: "a quoted number is an app id", in: "- launchApp: \"5\"\n- stopApp: {appId: \"5\"}\n"},
			{name: "tap waitToSettleTimeoutMs below 0 checks once, with a warning", in: "- tapOn: {text: a, waitToSettleTimeoutMs: -5}\n"},
			{name: "swipe waitToSettleTimeoutMs below 0 checks once, with a warning", in: "- swipe: {direction: UP, waitToSettleTimeoutMs: -1}\n"},
			{name: "swipe from: duration drops a fraction, with a warning", in: "- swipe: {from: a, direction: UP, duration: 300.7}\n"},
			{name: "extendedWaitUntil negative timeout checks once, with a warning", in: "- extendedWaitUntil: {visible: a, timeout: -5}\n- extendedWaitUntil: {visible: a, timeout: 10_000}\n"},
			{name: "waitForAnimationToEnd negative timeout compares once, with a warning", in: "- waitForAnimationToEnd: {timeout: -1}\n"},
			{name: "scrollUntilVisible negative timeout and speed past 100, with warnings", in: "- scrollUntilVisible: {element: a, timeout: -1, speed: 150}\n- scrollUntilVisible: {element: a, speed: -50}\n"},
			{name: "index as Maestro reads it, with warnings", in: "- tapOn: {text: a, index: -1}\n- tapOn: {text: a, index: 1e20}\n- tapOn: {text: a, index: 1.5}\n- tapOn: {text: a, index: NaN}\n- tapOn: {text: a, index: \" 2 \"}\n"},
			{name: "eraseText 0 erases nothing", in: "- eraseText: 0\n"},
		},
		errors: []errorCase{
			{name: "launchApp number", in: "- launchApp: 5\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: launchApp 5 is a number, not an app id: Maestro would look for an app named "5"`, hint: "com.example.app"},
			{name: "launchApp appId boolean", in: "- launchApp: {appId: yes}\n",
				want: `flows/main.yaml:3:22: INVALID_ARGS: appId yes is a boolean, not an app id: Maestro would look for an app named "yes"`},
			{name: "launchApp url number", in: "- launchApp: {url: 1.5}\n",
				want: `flows/main.yaml:3:20: INVALID_ARGS: url 1.5 is a number, not an app id: Maestro would look for an app named "1.5"`},
			{name: "stopApp number", in: "- stopApp: 42\n",
				want: `flows/main.yaml:3:12: INVALID_ARGS: stopApp 42 is a number, not an app id: Maestro would look for an app named "42"`},
			{name: "killApp appId number", in: "- killApp: {appId: 0x10}\n",
				want: `flows/main.yaml:3:20: INVALID_ARGS: appId 0x10 is a number, not an app id: Maestro would look for an app named "0x10"`},
			{name: "clearState number", in: "- clearState: 7\n",
				want: `flows/main.yaml:3:15: INVALID_ARGS: clearState 7 is a number, not an app id: Maestro would look for an app named "7"`},
			{name: "index is not a number (Maestro's toDouble fails)", in: "- tapOn: {text: a, index: first}\n",
				want: `flows/main.yaml:3:27: INVALID_ARGS: index "first" is not a number: Maestro reads it with toDouble and fails`},
			{name: "swipe duration with a fraction (Maestro's toLong fails)", in: "- swipe: {direction: UP, duration: 300.5}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: duration must be a whole number, got "300.5"`},
			{name: "swipe duration past a long", in: "- swipe: {direction: UP, duration: 9223372036854775808}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: duration 9223372036854775808 is out of range: Maestro reads it as a whole number from -9223372036854775808 to 9223372036854775807`},
			{name: "tap repeat past an Int", in: "- tapOn: {text: a, repeat: 1e10}\n",
				want: `flows/main.yaml:3:28: INVALID_ARGS: repeat 1e10 is out of range: Maestro reads it as a whole number from -2147483648 to 2147483647`},
			{name: "extendedWaitUntil timeout with a fraction", in: "- extendedWaitUntil: {visible: a, timeout: 1.5}\n",
				want: `flows/main.yaml:3:44: INVALID_ARGS: timeout "1.5" is not a whole number of milliseconds: Maestro reads it with toLong and fails`},
			{name: "scrollUntilVisible timeout with underscores (Maestro's toLong fails)", in: "- scrollUntilVisible: {element: a, timeout: 10_000}\n",
				want: `flows/main.yaml:3:45: INVALID_ARGS: timeout "10_000" is not a whole number: Maestro reads it with toLong and fails`},
			{name: "eraseText negative", in: "- eraseText: -1\n",
				want: `flows/main.yaml:3:14: INVALID_ARGS: charactersToErase -1 is negative: Maestro's drivers disagree on it (Android erases nothing, iOS fails)`},
			{name: "eraseText long form negative", in: "- eraseText: {charactersToErase: -3}\n",
				want: `flows/main.yaml:3:34: INVALID_ARGS: charactersToErase -3 is negative: Maestro's drivers disagree on it (Android erases nothing, iOS fails)`},
			{name: "travel speed 0", in: "- travel: {points: [\"1,2\", \"3,4\"], speed: 0}\n",
				want: `flows/main.yaml:3:43: INVALID_ARGS: travel speed 0 m/s does not move: Maestro fails on it or waits forever`},
			{name: "travel speed negative", in: "- travel: {points: [\"1,2\"], speed: -3}\n",
				want: `flows/main.yaml:3:36: INVALID_ARGS: travel speed -3 m/s does not move: Maestro fails on it or waits forever`},
		},
	}
}
