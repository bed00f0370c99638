package flow

import (
	"slices"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestAndroidPick pins --device android's choice over adb's device list:
// which serials a run gets, or the coded error, message and hint it stops
// with. States are adb's own words (adb/adb.cpp connection_state_name in
// AOSP: device, offline, unauthorized, authorizing, connecting,
// no permissions, bootloader, recovery, sideload, rescue).
func TestAndroidPick(t *testing.T) {
	t.Parallel()
	emu := adbDevice{Serial: "emulator-5554", State: "device", Model: "sdk_gphone64_x86_64"}
	pixel := adbDevice{Serial: "1A2B3C", State: "device", Model: "Pixel_7"}
	tcp := adbDevice{Serial: "127.0.0.1:5585", State: "device", Model: "fake"}
	locked := adbDevice{Serial: "R58M", State: "unauthorized"}
	gone := adbDevice{Serial: "emulator-5556", State: "offline"}
	perms := adbDevice{Serial: "0123", State: "no permissions"}
	one := func(device string) androidRequest { return androidRequest{device: device, n: 1} }
	split := func(device string, n int) androidRequest {
		return androidRequest{device: device, n: n, shardFlag: "--shard-split"}
	}
	for _, tc := range []struct {
		name string
		req  androidRequest
		seen []adbDevice
		want []string
		code canonical.Code
		msg  string
		hint string // a part of the hint
	}{
		{name: "the one online device", req: one("android"), seen: []adbDevice{emu}, want: []string{"emulator-5554"}},
		{name: "offline and locked devices do not count", req: one("android"), seen: []adbDevice{gone, pixel, locked}, want: []string{"1A2B3C"}},
		{name: "by serial", req: one("android:1A2B3C"), seen: []adbDevice{emu, pixel}, want: []string{"1A2B3C"}},
		{name: "by host:port serial", req: one("android:127.0.0.1:5585"), seen: []adbDevice{emu, tcp}, want: []string{"127.0.0.1:5585"}},
		{name: "n shards take the first n online in adb's order", req: split("android", 2), seen: []adbDevice{gone, pixel, emu, tcp}, want: []string{"1A2B3C", "emulator-5554"}},
		{name: "a named device with one shard's work", req: androidRequest{device: "android:emulator-5554", n: 1, shardFlag: "--shard-split"}, seen: []adbDevice{emu}, want: []string{"emulator-5554"}},

		{name: "no device", req: one("android"), seen: nil, code: canonical.CodeDeviceUnavailable,
			msg: "no Android device: adb lists none", hint: "start an emulator"},
		{name: "several without a serial", req: one("android"), seen: []adbDevice{emu, pixel}, code: canonical.CodeInvalidArgs,
			msg:  "--device android matches 2 online Android devices: emulator-5554 (sdk_gphone64_x86_64), 1A2B3C (Pixel_7)",
			hint: "name one: --device android:emulator-5554 or --device android:1A2B3C"},
		{name: "only an unauthorized one", req: one("android"), seen: []adbDevice{locked}, code: canonical.CodeDeviceUnavailable,
			msg: `Android device "R58M" is unauthorized`, hint: "Allow USB debugging?"},
		{name: "none online of several", req: one("android"), seen: []adbDevice{gone, locked}, code: canonical.CodeDeviceUnavailable,
			msg: "no Android device is online; adb lists emulator-5556 (offline), R58M (unauthorized)", hint: "emulator still booting"},
		{name: "named but unauthorized", req: one("android:R58M"), seen: []adbDevice{emu, locked}, code: canonical.CodeDeviceUnavailable,
			msg: `Android device "R58M" is unauthorized`, hint: "accept its"},
		{name: "named but offline", req: one("android:emulator-5556"), seen: []adbDevice{gone}, code: canonical.CodeDeviceUnavailable,
			msg: `Android device "emulator-5556" is offline`, hint: "adb reconnect offline"},
		{name: "named without USB permission", req: one("android:0123"), seen: []adbDevice{perms}, code: canonical.CodeDeviceUnavailable,
			msg: `Android device "0123" cannot be opened by adb (no permissions)`, hint: "udev rule"},
		{name: "unknown serial", req: one("android:nope"), seen: []adbDevice{emu, gone}, code: canonical.CodeDeviceUnavailable,
			msg: `Android device "nope" is not connected; adb lists emulator-5554 (device), emulator-5556 (offline)`, hint: "adb connect HOST:PORT"},
		{name: "unknown serial, nothing listed", req: one("android:nope"), seen: nil, code: canonical.CodeDeviceUnavailable,
			msg: `Android device "nope" is not connected; adb lists no devices`, hint: "flow devices"},
		{name: "an empty serial", req: one("android:"), seen: []adbDevice{emu}, code: canonical.CodeInvalidArgs,
			msg: "--device android: needs a serial after the colon", hint: "--device android:SERIAL"},
		{name: "fewer online devices than shards", req: split("android", 3), seen: []adbDevice{emu, locked, pixel}, code: canonical.CodeDeviceUnavailable,
			msg:  "--shard-split 3 needs 3 online Android devices; adb lists emulator-5554 (device), R58M (unauthorized), 1A2B3C (device)",
			hint: "start or connect 1 more"},
		{name: "one serial cannot carry shards", req: androidRequest{device: "android:emulator-5554", n: 2, shardFlag: "--shard-all"}, seen: []adbDevice{emu, pixel},
			code: canonical.CodeInvalidArgs, msg: "--device android:emulator-5554 is one device; --shard-all 2 needs 2", hint: "--device android --shard-all 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pickAndroid(tc.req, tc.seen)
			if tc.code == "" {
				if err != nil || !slices.Equal(got, tc.want) {
					t.Fatalf("got %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			ce, ok := canonical.AsError(err)
			if !ok || got != nil {
				t.Fatalf("got %q, %v; want a %s error", got, err, tc.code)
			}
			if ce.Code != tc.code || ce.Message != tc.msg || !strings.Contains(ce.Hint, tc.hint) {
				t.Errorf("got %s: %s (hint %q)\nwant %s: %s (hint with %q)", ce.Code, ce.Message, ce.Hint, tc.code, tc.msg, tc.hint)
			}
			if ce.Code == canonical.CodeDeviceUnavailable && ce.Hint == "" {
				t.Error("a device error without a hint")
			}
		})
	}
}
