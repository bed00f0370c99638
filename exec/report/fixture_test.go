package report_test

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// screenshotB64 is a valid 2x2 PNG, fixed bytes so snapshots never depend on
// the image/png encoder of the Go release.
const screenshotB64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR42mP4z8DAAMIM/4EAAB/uBfvxq7p3AAAAAElFTkSuQmCC"

func screenshot(t *testing.T) []byte {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(screenshotB64)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const hierarchyJSON = `{
  "attributes": {"text": "Pay <later> & save"},
  "children": []
}
`

// artifacts is an artifacts folder for HTML tests.
func artifacts(t *testing.T) func(string) ([]byte, error) {
	files := map[string][]byte{
		"Checkout-failure.png":    screenshot(t),
		"Checkout-hierarchy.json": []byte(hierarchyJSON),
	}
	return func(name string) ([]byte, error) {
		if data, ok := files[name]; ok {
			return data, nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("no such file")}
	}
}

func pos(file string, line, col int) canonical.Pos {
	return canonical.Pos{File: file, Line: line, Col: col}
}

// fixture is a run with one flow of each status: passed, failed (error with
// position, hint, details and artifacts, nested steps), warned (a downgraded
// optional step; its name needs escaping everywhere) and skipped.
func fixture() exec.RunResult {
	const login, checkout, search, sub = "flows/login.yaml", "flows/checkout.yaml", "flows/search.yaml", "flows/subflows/pay.yaml"
	notFound := canonical.Errorf(canonical.CodeElementNotFound, "Element not found: Text matching regex: Pay now").
		At(pos(sub, 4, 3)).
		WithHint("check the text on screen, or wait for it with extendedWaitUntil").
		With("selector", map[string]any{"text": "Pay now"}).
		With("timeoutMs", 17000)
	flowErr := *notFound
	warn := canonical.Errorf(canonical.CodeElementNotFound, `Element not found: Text matching regex: "Accept" <cookies>`).
		At(pos(search, 5, 3))
	return exec.RunResult{
		Device:     exec.DeviceInfo{Platform: "android", Name: "Pixel 7 API 34", ID: "emulator-5554"},
		DurationMs: 9876,
		Flows: []exec.FlowResult{
			{
				Name: "Login", File: login, Status: exec.StatusPassed, DurationMs: 2500,
				Steps: []exec.StepResult{
					{Command: "launchApp", Description: `Launch app "com.example.shop"`, Status: exec.StatusPassed, DurationMs: 812, Pos: pos(login, 3, 3)},
					{Command: "tapOn", Label: "Open the login form", Description: "Open the login form", Status: exec.StatusPassed, DurationMs: 120, Pos: pos(login, 4, 3)},
					{Command: "inputText", Description: "Input text ${EMAIL}", Status: exec.StatusPassed, DurationMs: 1043, Pos: pos(login, 6, 3)},
					{Command: "assertVisible", Description: `Assert that "Welcome back" is visible`, Status: exec.StatusPassed, DurationMs: 35, Pos: pos(login, 7, 3)},
				},
			},
			{
				Name: "Checkout", File: checkout, Status: exec.StatusFailed, DurationMs: 4499,
				Error:     &flowErr,
				Artifacts: []string{"Checkout-failure.png", "Checkout-hierarchy.json"},
				Steps: []exec.StepResult{
					{Command: "launchApp", Description: `Launch app "com.example.shop"`, Status: exec.StatusPassed, DurationMs: 640, Pos: pos(checkout, 3, 3)},
					{Command: "runFlow", Label: "Dismiss onboarding", Description: "Dismiss onboarding", Status: exec.StatusSkipped, Pos: pos(checkout, 4, 3)},
					{Command: "evalScript", Description: "Run ${console.log(cart())}", Status: exec.StatusPassed, DurationMs: 3, Pos: pos(checkout, 7, 3),
						Logs: []string{"cart has 2 items", "total <= 100 & free shipping"}},
					{Command: "runFlow", Description: "Run subflows/pay.yaml", Status: exec.StatusFailed, DurationMs: 3700, Pos: pos(checkout, 8, 3), Error: notFound},
					{Command: "tapOn", Description: `Tap on "Checkout"`, Status: exec.StatusPassed, DurationMs: 150, Pos: pos(sub, 2, 3), Depth: 1},
					{Command: "repeat", Description: "Repeat 3 times", Status: exec.StatusFailed, DurationMs: 3500, Pos: pos(sub, 3, 3), Depth: 1, Error: notFound},
					{Command: "tapOn", Label: "Pay", Description: "Pay", Status: exec.StatusFailed, DurationMs: 3500, Pos: pos(sub, 4, 3), Depth: 2, Error: notFound},
				},
			},
			{
				Name: `Search "offers" & <deals>`, File: search, Status: exec.StatusWarned, DurationMs: 1500,
				Steps: []exec.StepResult{
					{Command: "tapOn", Label: "Accept cookies (optional)", Description: "Accept cookies (optional)", Status: exec.StatusWarned, DurationMs: 1400, Pos: pos(search, 5, 3), Error: warn},
					{Command: "assertVisible", Description: `Assert that "offers" is visible`, Status: exec.StatusPassed, DurationMs: 100, Pos: pos(search, 8, 3)},
				},
			},
			{Name: "Settings", File: "flows/settings.yaml", Status: exec.StatusSkipped},
		},
	}
}
