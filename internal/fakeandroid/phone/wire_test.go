package phone

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// wireApp is the app the transcripts talk to: com.example with one text
// field (the transcripts' keys and text go to a focused field) and the
// permissions app.jsonl reads.
const wireApp = `appId: com.example
platform: android
viewport: {width: 1080, height: 2400}
start: main
screens:
  - name: main
    elements:
      - {id: name, hint: "Name", bounds: [40, 300, 1040, 420], editable: true}
      - {id: ok, text: "OK", bounds: [40, 600, 1040, 720]}
`

// TestWireTranscripts replays every helper-apk/testdata/wire transcript
// against the fake helper (PROTOCOL.md "Transcripts": the fake must answer
// each request with a response of the same shape: the same ok, the same
// code, the same field names; values come from its sim model).
func TestWireTranscripts(t *testing.T) {
	files, _ := filepath.Glob("../../../helper-apk/testdata/wire/*.jsonl")
	raw, _ := filepath.Glob("../../../helper-apk/testdata/wire/raw/*.jsonl")
	files = append(files, raw...)
	if len(files) < 6 {
		t.Fatalf("found %d transcripts", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".jsonl"), func(t *testing.T) { replay(t, f) })
	}
}

type wireLine struct {
	Send       json.RawMessage `json:"send"`
	Recv       json.RawMessage `json:"recv"`
	SendBytes  *string         `json:"sendBytes"`
	RecvBytes  *string         `json:"recvBytes"`
	Connection int             `json:"connection"`
}

func replay(t *testing.T, file string) {
	app, err := sim.LoadApp("wire.yaml", []byte(wireApp))
	if err != nil {
		t.Fatal(err)
	}
	var faults Faults
	if strings.HasSuffix(file, "/touch.jsonl") {
		faults.TouchRefusedAt = 4 // the transcript's fourth touch is refused midway
	}
	p := New(Options{Apps: []*sim.App{app}, HelperAPK: []byte("helper"), Faults: faults, Permissions: map[string][]string{
		"com.example": {"android.permission.CAMERA", "android.permission.INTERNET", "android.permission.POST_NOTIFICATIONS"}}})
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The input transcript types into a focused field of a running app.
	if strings.HasSuffix(file, "input.jsonl") {
		dev := p.Device()
		if err := dev.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example", StopApp: true}); err != nil {
			t.Fatal(err)
		}
		p.setFront("com.example")
		if err := dev.Tap(ctx, canonical.Point{X: 540, Y: 360}); err != nil {
			t.Fatal(err)
		}
	}
	socket := "flow-helper-wire"
	go p.Shell(ctx, "am instrument -w -e socket "+socket+" dev.flow.helper/.FlowInstrumentation", strings.NewReader(""), io.Discard, io.Discard)
	conns := map[int]*bufio.ReadWriter{}
	conn := func(n int) *bufio.ReadWriter {
		if c := conns[n]; c != nil {
			return c
		}
		var c io.ReadWriteCloser
		for deadline := time.Now().Add(5 * time.Second); ; {
			if c, err = p.Open(ctx, "localabstract:"+socket); err == nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		rw := bufio.NewReadWriter(bufio.NewReader(c), bufio.NewWriter(c))
		conns[n] = rw
		return rw
	}
	// before runs right before a request, to put the phone in the state
	// the transcript's scripted device was in.
	before := map[string]func(){}
	if strings.HasSuffix(file, "/disconnected.jsonl") {
		// The am process that owns the helper's UiAutomation dies.
		before[`"id":2`] = p.KillAm
	}
	if strings.HasSuffix(file, "/input.jsonl") {
		// The scripted device of the transcript has no focused field at
		// its last text; on sim, focus stays after hideKeyboard (as on a
		// phone), so the app is started afresh, with nothing focused.
		before[`"id":10`] = func() {
			if err := p.Device().LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example", StopApp: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	current := 1
	for i, text := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l wireLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		switch {
		case l.Connection != 0:
			current = l.Connection
		case l.Send != nil:
			req := compact(t, l.Send)
			for k, f := range before {
				if strings.Contains(string(req), k+",") {
					f()
				}
			}
			rw := conn(current)
			rw.Write(append(req, '\n'))
			rw.Flush()
		case l.SendBytes != nil:
			b, _ := base64.StdEncoding.DecodeString(*l.SendBytes)
			rw := conn(current)
			rw.Write(b)
			rw.Flush()
		case l.Recv != nil:
			got, err := conn(current).ReadBytes('\n')
			if err != nil {
				t.Fatalf("line %d: no answer: %v", i+1, err)
			}
			if g, w := shape(t, got), shape(t, l.Recv); g != w {
				t.Errorf("line %d: the fake answered\n %s\nthe transcript\n %s\n(shape %s, want %s)", i+1, strings.TrimSpace(string(got)), l.Recv, g, w)
			}
			// A body follows the line that announces it: the fake's own
			// (a screenshot of its screen, not the transcript's).
			var head struct{ Bytes int }
			json.Unmarshal(got, &head)
			if head.Bytes > 0 {
				body := make([]byte, head.Bytes)
				if _, err := io.ReadFull(conn(current), body); err != nil {
					t.Fatalf("line %d: the announced %d bytes did not follow: %v", i+1, head.Bytes, err)
				}
			}
		case l.RecvBytes != nil:
			// Values (and so bodies) come from the fake's model.
		}
	}
}

func compact(t *testing.T, raw json.RawMessage) []byte {
	var m any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(m)
	return b
}

// shape is what must agree: ok, code and the field names.
func shape(t *testing.T, raw []byte) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %s", raw)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		// message and hint are text; keyboard is optional (PROTOCOL.md:
		// only while a keyboard is shown, which sim does not model).
		if k != "message" && k != "hint" && k != "keyboard" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := []string{strings.Join(keys, ",")}
	if ok, _ := m["ok"].(bool); !ok {
		out = append(out, "code="+m["code"].(string))
	}
	out = slices.Clip(out)
	return strings.Join(out, " ")
}
