package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// staticTapFlow taps an element that does nothing when tapped (the login
// screen's "Welcome back" title): with retryTapIfNoChange, Maestro's
// default, Maestro taps it twice (Maestro.kt hierarchyBasedTap: same
// hierarchy, same screenshot).
const staticTapFlow = `appId: com.example.shop
---
- launchApp
- tapOn: Log in
- tapOn: Welcome back
- assertVisible: Welcome back
`

// countTaps is the number of tap events the runtime logged.
func countTaps(t *testing.T, file string) int {
	t.Helper()
	return strings.Count(runnerEvents(t, file), `"type":"tap"`)
}

// TestAndroidTapsAStaticElementAsSimDoes is issue 19's Deliver 5: the
// fake phone's settled reads move their version with the tap itself (its
// touch bumps the accessibility event counter, as the touch's own events
// do on a phone), and before the fix the runtime took that for a change,
// so the phone got one tap on a static element where sim got two. Now
// both decide as Maestro does, and the fake helper received exactly as
// many touches as sim logged taps.
func TestAndroidTapsAStaticElementAsSimDoes(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	flow := filepath.Join(dir, "static.yaml")
	os.WriteFile(flow, []byte(staticTapFlow), 0o644)
	androidEvents, simEvents := filepath.Join(dir, "android.jsonl"), filepath.Join(dir, "sim.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", flow, "--device", "android:" + d.Serial,
		"--android-helper", apk, "--events", androidEvents}); code != 0 {
		t.Fatalf("android: exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	if r := runFlow(t, "", "test", flow, "--device", "sim:android", "--events", simEvents); r.code != 0 {
		t.Fatalf("sim: %s", r)
	}
	simTaps, androidTaps := countTaps(t, simEvents), countTaps(t, androidEvents)
	if simTaps != 3 {
		t.Fatalf("sim tapped %d times; want 3 (Log in once, the static title twice)", simTaps)
	}
	if androidTaps != simTaps || len(p.Touches()) != simTaps {
		t.Fatalf("sim tapped %d times; the Android run logged %d taps and the phone's helper received %d touches",
			simTaps, androidTaps, len(p.Touches()))
	}
}
