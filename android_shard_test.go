package flow

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestAndroidPickFewerFlowsThanShards: --shard-split N with fewer flows
// than N runs one shard per flow. With one flow and several phones the
// error says so and asks which phone, instead of suggesting the
// --shard-split already given; with too few phones for the flows it
// counts flows, not the N typed.
func TestAndroidPickFewerFlowsThanShards(t *testing.T) {
	t.Parallel()
	emu := adbDevice{Serial: "emulator-5554", State: "device"}
	pixel := adbDevice{Serial: "1A2B3C", State: "device"}
	_, err := pickAndroid(androidRequest{device: "android", n: 1, shardFlag: "--shard-split", asked: 5}, []adbDevice{emu, pixel})
	ce, _ := canonical.AsError(err)
	if ce == nil || ce.Code != canonical.CodeInvalidArgs || !strings.Contains(ce.Message, "--shard-split 5 has only 1 flow") ||
		strings.Contains(ce.Hint, "with --shard-split") || !strings.Contains(ce.Hint, "--device android:1A2B3C") {
		t.Errorf("one flow, two phones, --shard-split 5: got %#v", err)
	}
	_, err = pickAndroid(androidRequest{device: "android", n: 3, shardFlag: "--shard-split", asked: 5}, []adbDevice{emu, pixel})
	ce, _ = canonical.AsError(err)
	if ce == nil || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "--shard-split 5 has 3 flows") ||
		!strings.Contains(ce.Message, "needs 3 online") || !strings.Contains(ce.Hint, "lower --shard-split to 2") {
		t.Errorf("three flows, two phones, --shard-split 5: got %#v", err)
	}
}

// TestAndroidPickListedDevices: --device a,b with --shard-split 2 runs
// shard i on the i-th device listed, in the list's order, not adb's
// (Maestro's TestCommand: deviceIds[shardIndex]); a listed device that is
// not online, or too short a list, is an error naming it.
func TestAndroidPickListedDevices(t *testing.T) {
	t.Parallel()
	a := adbDevice{Serial: "emulator-5554", State: "device"}
	b := adbDevice{Serial: "emulator-5556", State: "device"}
	c := adbDevice{Serial: "emulator-5558", State: "device"}
	off := adbDevice{Serial: "R58M", State: "offline"}
	seen := []adbDevice{a, b, c, off}
	req := androidRequest{device: "android:emulator-5558", n: 2, shardFlag: "--shard-split", asked: 2}
	got, err := pickAndroidList(req, []string{"android:emulator-5558", "android:emulator-5554"}, seen)
	if err != nil || strings.Join(got, ",") != "emulator-5558,emulator-5554" {
		t.Errorf("listed order: got %v, %v", got, err)
	}
	if _, err := pickAndroidList(req, []string{"android:emulator-5558", "android:R58M"}, seen); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable || !strings.Contains(err.Error(), "R58M") {
		t.Errorf("an offline listed device: %v", err)
	}
	req.n = 3
	if _, err := pickAndroidList(req, []string{"android:emulator-5558", "android:emulator-5554"}, seen); canonical.CodeOf(err) != canonical.CodeInvalidArgs {
		t.Errorf("a list shorter than the shards: %v", err)
	}
}
