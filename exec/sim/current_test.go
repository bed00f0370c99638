package sim_test

import (
	"maps"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// sim takes the current Maestro's setOrientation and setPermissions and
// reads back what they set (its screens keep their layout).
func TestOrientationAndPermissions(t *testing.T) {
	r := demo(t)
	var _ exec.Orienter = r.dev
	var _ exec.PermissionSetter = r.dev
	o, err := r.dev.Orientation(r.ctx)
	if err != nil || o != "PORTRAIT" {
		t.Fatalf("a fresh sim is %q %v, want PORTRAIT", o, err)
	}
	r.must(r.dev.SetOrientation(r.ctx, "UPSIDE_DOWN"))
	if o, _ := r.dev.Orientation(r.ctx); o != "UPSIDE_DOWN" {
		t.Errorf("orientation %q after UPSIDE_DOWN", o)
	}
	err = r.dev.SetOrientation(r.ctx, "landscape")
	if ce, _ := canonical.AsError(err); ce == nil || ce.Code != canonical.CodeInvalidArgs {
		t.Errorf("an unknown orientation: want INVALID_ARGS, got %v", err)
	}

	r.must(r.dev.SetPermissions(r.ctx, shop, map[string]string{"camera": "allow"}))
	r.must(r.dev.SetPermissions(r.ctx, shop, map[string]string{"location": "deny"}))
	got, _ := r.dev.Permissions(r.ctx, shop)
	if want := map[string]string{"camera": "allow", "location": "deny"}; !maps.Equal(got, want) {
		t.Errorf("permissions %v, want %v (merged)", got, want)
	}
	r.must(r.dev.SetPermissions(r.ctx, shop, map[string]string{"all": "deny", "camera": "allow"}))
	got, _ = r.dev.Permissions(r.ctx, shop)
	if want := map[string]string{"all": "deny", "camera": "allow"}; !maps.Equal(got, want) {
		t.Errorf("permissions %v, want %v (all replaces what was set)", got, want)
	}
	if other, _ := r.dev.Permissions(r.ctx, "com.other"); len(other) != 0 {
		t.Errorf("another app's permissions: %v", other)
	}
}
