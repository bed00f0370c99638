package android_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android"
)

// The parser lives in exec/uiautomator; what is the helper's own is the
// hint an unreadable dump carries.
func TestParseHierarchyHelperHint(t *testing.T) {
	_, err := android.ParseHierarchy([]byte("<hierarchy><node>"))
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Hint, "adb uninstall dev.flow.helper") {
		t.Fatalf("err = %#v", err)
	}
	root, err := android.ParseHierarchy([]byte(`<hierarchy rotation="0"><node text="Hi" hintText="Name" bounds="[0,0][10,20]"/></hierarchy>`))
	if err != nil || len(root.Children) != 1 || root.Children[0].Text != "Hi" || root.Children[0].Hint != "Name" {
		t.Fatalf("root = %+v, err = %v", root, err)
	}
}
