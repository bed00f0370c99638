package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAndroidRecording: startRecording and stopRecording on an Android
// device run screenrecord and killall -INT screenrecord over adb and pull
// the video to <path>.mp4, as Maestro's AndroidDriver.startScreenRecording
// does; the fake phone's screenrecord leaves an MP4 header to pull.
func TestAndroidRecording(t *testing.T) {
	_, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	flow := filepath.Join(dir, "record.yaml")
	clip := filepath.Join(dir, "clip")
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp\n- startRecording: "+clip+"\n- assertVisible: Shop\n- stopRecording\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := run(ctx, env, []string{"flow", "test", flow, "--device", "android:" + d.Serial, "--android-helper", apk})
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	data, err := os.ReadFile(clip + ".mp4")
	if err != nil || !bytes.Contains(data, []byte("ftyp")) {
		t.Fatalf("no MP4 pulled to %s.mp4 (%v): %q", clip, err, data)
	}
}
