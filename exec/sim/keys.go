package sim

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// InputText types into the focused field. With no field focused it fails
// with COMMAND_FAILED: on a real device Maestro types into whatever has
// focus, so the text would silently go nowhere and the flow would fail
// later, far from its cause. Failing here names the cause; a field keeps
// focus after hideKeyboard, so typing after it works as on Android.
func (d *Device) InputText(ctx context.Context, text string) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	var field *Element
	if d.front != nil {
		field = d.front.focusedField()
	}
	if field == nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "no text field has focus, so %q would go nowhere", text).
			WithHint("tap an editable field first (tapOn: {id: email}); a real device types into whatever has focus")
	}
	if err := d.spend(ctx, keyCostMs*utf8.RuneCountInString(text)); err != nil {
		return err
	}
	st := d.front.of(field)
	st.text += text
	d.observe(field, "text", map[string]any{"text": st.text})
	return nil
}

// EraseText deletes up to count characters at the end of the focused
// field. With no field focused the key presses go nowhere, as on a device:
// erasing is often defensive, so this is not an error.
func (d *Device) EraseText(ctx context.Context, count int) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if count < 0 {
		return canonical.Errorf(canonical.CodeInvalidArgs, "cannot erase %d characters", count).
			WithHint("erase a count of 0 or more characters")
	}
	if err := d.spend(ctx, keyCostMs*count); err != nil {
		return err
	}
	d.erase(count)
	return nil
}

func (d *Device) erase(count int) {
	if d.front == nil || d.front.focusedField() == nil || count == 0 {
		return
	}
	field := d.front.focusedField()
	st := d.front.of(field)
	r := []rune(st.text)
	if len(r) == 0 {
		return
	}
	st.text = string(r[:len(r)-min(count, len(r))])
	d.observe(field, "text", map[string]any{"text": st.text})
}

// PressKey presses a Maestro key. Enter submits the focused field (the
// keyboard goes down), Backspace deletes one character, Back is Back and
// Home leaves the app for the home screen; every other key does nothing
// on sim, as most keys do on iOS.
func (d *Device) PressKey(ctx context.Context, key exec.Key) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := d.spend(ctx, keyCostMs); err != nil {
		return err
	}
	if d.platform() == "ios" && !exec.IOSKey(key.Name) {
		// Maestro's iOS driver ignores every key but these four.
		return nil
	}
	switch name := strings.ToLower(key.Name); {
	case name == "enter" || key.AndroidCode == 66:
		d.submit()
	case name == "backspace" || key.AndroidCode == 67:
		d.erase(1)
	case name == "back" || key.AndroidCode == 4:
		d.back()
	case name == "home" || key.AndroidCode == 3:
		if d.front != nil {
			d.front.keyboard = false
			d.leave(d.front, nil)
		}
	}
	return nil
}

func (d *Device) submit() {
	if d.front == nil {
		return
	}
	d.front.keyboard = false
	if f := d.front.focusedField(); f != nil {
		d.observe(f, "submit", nil)
	}
}

// KeyboardShown reports whether the app in front has its keyboard up (the
// bottom 38% of the screen, as Screenshot draws it), for a runner that
// answers what a device shows.
func (d *Device) KeyboardShown(ctx context.Context) (bool, error) {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return false, err
	}
	return d.front != nil && d.front.keyboard, nil
}

// HideKeyboard puts the keyboard down; the field keeps focus.
func (d *Device) HideKeyboard(ctx context.Context) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := d.spend(ctx, keyCostMs); err != nil {
		return err
	}
	if d.front != nil {
		d.front.keyboard = false
	}
	return nil
}

// Back is the system back: it first puts the keyboard down, as on
// Android, then goes back one screen, leaving the app from its first. iOS
// has no back button: there, as Maestro's iOS driver and flow's iOS
// runner, it does nothing (taking a key press's time still).
func (d *Device) Back(ctx context.Context) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := d.spend(ctx, keyCostMs); err != nil {
		return err
	}
	if d.platform() == "ios" {
		return nil
	}
	d.back()
	return nil
}

func (d *Device) back() {
	switch {
	case d.front == nil:
	case d.front.keyboard:
		d.front.keyboard = false
	default:
		d.pop(d.front, nil)
	}
}
