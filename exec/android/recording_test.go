package android

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordingPhone is a scripted phone whose screenrecord runs until
// killall -INT screenrecord and leaves an MP4 to pull (AOSP
// frameworks/av/cmds/screenrecord writes MPEG-4 through MediaMuxer and
// finishes the file on SIGINT).
type recordingPhone struct {
	*scriptedPhone
	screenrecord *scriptedStream
}

func (p *recordingPhone) StartShell(ctx context.Context, serial string, argv ...string) (shellStream, error) {
	s, err := p.scriptedPhone.StartShell(ctx, serial, argv...)
	if err == nil && argv[0] == "screenrecord" {
		p.screenrecord = s.(*scriptedStream)
	}
	return s, err
}

func (p *recordingPhone) Shell(ctx context.Context, serial string, argv ...string) (shellResult, error) {
	if strings.Join(argv, " ") == "killall -INT screenrecord" && p.screenrecord != nil {
		p.record(argv)
		p.screenrecord.Close()
		return shellResult{}, nil
	}
	return p.scriptedPhone.Shell(ctx, serial, argv...)
}

func (p *recordingPhone) Pull(ctx context.Context, serial, remote string, w io.Writer) error {
	if remote != recordingRemote {
		return p.scriptedPhone.Pull(ctx, serial, remote, w)
	}
	p.record([]string{"pull", remote})
	_, err := w.Write([]byte("\x00\x00\x00\x18ftypmp42"))
	return err
}

// TestRecordingArgumentsAsMaestro: screenrecord gets Maestro's arguments
// (AndroidDriver.startScreenRecording: --time-limit 0 from API 34,
// --bit-rate 100000), is stopped with SIGINT and the video is pulled to the
// path and removed from the device.
func TestRecordingArgumentsAsMaestro(t *testing.T) {
	for _, tc := range []struct{ sdk, want string }{
		{"34", "screenrecord --time-limit 0 --bit-rate 100000 " + recordingRemote},
		{"30", "screenrecord --bit-rate 100000 " + recordingRemote},
	} {
		t.Run("api"+tc.sdk, func(t *testing.T) {
			p := &recordingPhone{scriptedPhone: newPhone()}
			p.sdk = tc.sdk
			ctx := context.Background()
			d, err := open(ctx, testConfig(t), p)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close(ctx)
			path := filepath.Join(t.TempDir(), "clip.mp4")
			if err := d.StartRecording(ctx, path); err != nil {
				t.Fatal(err)
			}
			if err := d.StopRecording(ctx); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(p.log, "\n")
			for _, want := range []string{tc.want, "killall -INT screenrecord", "pull " + recordingRemote, "rm -f " + recordingRemote} {
				if !strings.Contains(got, want) {
					t.Errorf("no %q among the commands:\n%s", want, got)
				}
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Contains(b, []byte("ftyp")) {
				t.Errorf("the video was not pulled to %s: %v %q", path, err, b)
			}
		})
	}
}
