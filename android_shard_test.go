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
