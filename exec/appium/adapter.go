package appium

import (
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// Platform is the flow platform a native dialect is: android or ios.
func (d Dialect) Platform() string {
	if d == DialectXCUITest {
		return "ios"
	}
	return "android"
}

// parse reads a page source and the screen size its root states (zero
// when it states none). A source of another dialect than the session's
// (a web view context, another driver) is read as what it is.
func parse(src string) (*exec.Node, Dialect, canonical.Viewport, error) {
	data := []byte(src)
	root, dialect, err := ParseSource(data)
	if err != nil {
		return nil, dialect, canonical.Viewport{}, err
	}
	if dialect == DialectHTML {
		return nil, dialect, canonical.Viewport{}, canonical.NewError(canonical.CodeUnsupportedOperation,
			"the Appium session shows a web context, not the native app").
			WithHint("flow reads native screens here; switch back to NATIVE_APP, or run web flows on a browser session (--device web)")
	}
	screen, _, err := ParseScreen(data)
	if err != nil {
		return nil, dialect, canonical.Viewport{}, err
	}
	return root, dialect, screen.Viewport(), nil
}
