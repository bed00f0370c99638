package sim_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// shot is a screenshot; tests compare them to see the keyboard go up or
// down when nothing else moved.
func (r *rig) shot() []byte {
	r.t.Helper()
	b, err := r.dev.Screenshot(r.ctx)
	r.must(err)
	return b
}

func TestTypingIntoFocusedField(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://login")
	noKeyboard := r.shot()
	r.tap("email")
	if !r.node("email").Focused {
		t.Fatal("a tap focuses the field")
	}
	withKeyboard := r.shot()
	if string(withKeyboard) == string(noKeyboard) {
		t.Fatal("focusing must bring up the keyboard")
	}
	r.must(r.dev.InputText(r.ctx, "shopper@example.com"))
	email := r.node("email")
	if email.Text != "shopper@example.com" || email.Hint != "Email" {
		t.Fatalf("typed text shows as text and the hint stays: %+v", email)
	}
	r.tap("password")
	r.must(r.dev.InputText(r.ctx, "not-my-password"))
	r.must(r.dev.EraseText(r.ctx, 15))
	r.must(r.dev.InputText(r.ctx, "hunter2"))
	r.must(r.dev.PressKey(r.ctx, exec.Key{Name: "Backspace", AndroidCode: 67}))
	if r.text("password") != "hunter" || r.text("email") != "shopper@example.com" {
		t.Fatalf("password %q, email %q", r.text("password"), r.text("email"))
	}
	if r.node("email").Focused || !r.node("password").Focused {
		t.Fatal("focus moves with the tap")
	}
	r.must(r.dev.EraseText(r.ctx, 50))
	if r.text("password") != "" {
		t.Fatal("erasing more than there is clears the field")
	}
}

func TestInputTextWithoutFocusFails(t *testing.T) {
	t.Parallel()
	r := demo(t)
	err := r.dev.InputText(r.ctx, "lost")
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeCommandFailed || !strings.Contains(ce.Hint, "tap an editable field") {
		t.Fatalf("want COMMAND_FAILED with a hint, got %#v", err)
	}
	r.tap("login_button") // a button takes no focus either
	if err := r.dev.InputText(r.ctx, "lost"); codeOf(err) != canonical.CodeCommandFailed {
		t.Fatalf("got %v", err)
	}
	r.must(r.dev.EraseText(r.ctx, 3)) // erasing nothing is harmless
}

func TestKeyboardGoesDownFieldKeepsFocus(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://login")
	r.tap("email")
	typing := r.shot()
	r.must(r.dev.HideKeyboard(r.ctx))
	hidden := r.shot()
	if string(hidden) == string(typing) || !r.node("email").Focused {
		t.Fatal("hideKeyboard puts the keyboard down and keeps focus")
	}
	r.must(r.dev.InputText(r.ctx, "a@b.c")) // typing still reaches the field, as on Android
	if r.text("email") != "a@b.c" {
		t.Fatal("typing after hideKeyboard")
	}
	r.tap("email")
	r.must(r.dev.PressKey(r.ctx, exec.Key{Name: "Enter", AndroidCode: 66}))
	if string(r.shot()) == string(typing) || !r.has("login_title") {
		t.Fatal("Enter submits: the keyboard goes down, the screen stays")
	}
	r.tap("email")
	r.must(r.dev.Back(r.ctx))
	if !r.has("login_title") {
		t.Fatal("back with the keyboard up only hides the keyboard")
	}
	r.must(r.dev.Back(r.ctx))
	if !r.has("login_button") {
		t.Fatal("the second back returns to home")
	}
}

func TestSetTextAction(t *testing.T) {
	t.Parallel()
	model := `appId: com.example.form
platform: ios
viewport: {width: 390, height: 844}
start: a
screens:
  - name: a
    elements:
      - {id: status, text: Idle, bounds: [0, 0, 390, 50]}
      - {id: run, text: Run, bounds: [0, 100, 390, 150], onTap: [{setText: {element: status, text: Running}}, {hide: run}]}
`
	r := custom(t, model)
	r.tap("run")
	if r.text("status") != "Running" || r.has("run") {
		t.Fatalf("actions run in order: status %q", r.text("status"))
	}
}
