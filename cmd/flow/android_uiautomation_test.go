package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestAndroidUiAutomationHeldExits3: with a Maestro driver left holding
// UiAutomation on the fake phone, `flow test` ends with exit 3 naming the
// cause and how to stop it, never am's "Process crashed.".
func TestAndroidUiAutomationHeldExits3(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	p.HoldUiAutomation("dev.mobile.maestro.test")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "android:" + d.Serial, "--android-helper", apk})
	all := env.Stdout.(interface{ String() string }).String() + env.Stderr.(interface{ String() string }).String()
	for _, want := range []string{d.Serial, "another automation holds UiAutomation", "am force-stop dev.mobile.maestro.test", "io.appium.uiautomator2.server.test"} {
		if code != 3 || !strings.Contains(all, want) {
			t.Fatalf("want exit 3 saying %q; exit %d\n%s", want, code, all)
		}
	}
	if strings.Contains(all, "Process crashed") {
		t.Fatalf("the output quotes am's crash:\n%s", all)
	}
}
