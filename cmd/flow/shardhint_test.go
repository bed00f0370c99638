package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// TestShardSplitWithFewerFlowsThanShards: two phones on the real adb
// server and --shard-split 5 with a single flow. One flow needs one
// device, so flow asks which: the hint says that there are fewer flows
// than shards and names the phones, and does not tell the user to use
// the --shard-split they already gave.
func TestShardSplitWithFewerFlowsThanShards(t *testing.T) {
	_, d1, env, apk := fakeAndroid(t)
	fs := adbd.NewMemFS()
	p2 := phone.New(phone.Options{Files: fs})
	t.Cleanup(func() { p2.Close() })
	d2 := d1.Add(t, p2, adbd.Options{Props: p2.Props(), FS: fs})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	code := run(ctx, env, []string{"flow", "test", "../../flows/demo/01-launch.yaml", "--android-helper", apk, "--device", "android", "--shard-split", "5"})
	text := out.String() + errb.String()
	if code != 2 || !strings.Contains(text, "android:"+d1.Serial) || !strings.Contains(text, "android:"+d2.Serial) {
		t.Fatalf("want exit 2 naming both phones, got %d\n%s", code, text)
	}
	_, hint, _ := strings.Cut(text, "hint:")
	if strings.Contains(hint, "with --shard-split") || !strings.Contains(text, "1 flow") || !strings.Contains(text, "--shard-split 5") {
		t.Fatalf("the error must say that 1 flow cannot use 5 shards, not to use --shard-split:\n%s", text)
	}
}
