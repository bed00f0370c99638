package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/flow-runner/flow/exec/sim"
)

// TestWireTranscripts replays every ios-runner/testdata/wire transcript
// against the fake runner (PROTOCOL.md "Transcripts": the same ok, the
// same error code and the same data field names; values come from sim).
func TestWireTranscripts(t *testing.T) {
	files, _ := filepath.Glob("../../../ios-runner/testdata/wire/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	// Each transcript's device: the session is a simulator with the demo
	// shop; iphone is a real iPhone with the notes app in points.
	devices := map[string]func(t *testing.T) Options{
		// session.jsonl was written with the demo shop's Android grid
		// (1080x2400, a tap at 540,320), which the runner, reporting
		// points, never answers; the fake now shows the built-in shop in
		// points, so the session replays against the same model given as
		// an app in its own pixel units until the transcript (with
		// exec/ios TestClientTranscript and FlowRunnerCore WireTests, which
		// read its values) is redone in points.
		"session.jsonl": func(t *testing.T) Options {
			shop, err := sim.LoadApp(sim.DemoAppFile, sim.DemoAppYAML())
			if err != nil {
				t.Fatal(err)
			}
			return Options{Simulator: true, Apps: []*sim.App{shop}}
		},
		"iphone.jsonl": func(t *testing.T) Options {
			return Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml")}}
		},
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			o := Options{Simulator: true}
			if dev, ok := devices[filepath.Base(file)]; ok {
				o = dev(t)
			}
			r := New(o)
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go r.Serve(ctx, l)
			f, _ := os.Open(file)
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			var pending json.RawMessage
			n := 0
			for sc.Scan() {
				n++
				var line struct {
					Request  json.RawMessage `json:"request"`
					Response json.RawMessage `json:"response"`
				}
				if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				switch {
				case line.Request != nil:
					pending = line.Request
				case line.Response != nil:
					resp, err := http.Post("http://"+l.Addr().String()+"/command", "application/json", bytes.NewReader(pending))
					if err != nil {
						t.Fatalf("line %d: %v", n, err)
					}
					got, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if g, w := shape(t, got), shape(t, line.Response); g != w {
						t.Errorf("line %d: the fake answered\n %s\nthe transcript\n %s\n(%s, want %s)", n, got, line.Response, g, w)
					}
				}
			}
		})
	}
}

func shape(t *testing.T, raw []byte) string {
	var m struct {
		OK        bool                   `json:"ok"`
		CommandID int                    `json:"commandId"`
		Data      map[string]any         `json:"data"`
		Error     *struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an answer: %s", raw)
	}
	keys := []string{}
	for k := range m.Data {
		keys = append(keys, k) // keyboard too: present exactly while one is up
	}
	sort.Strings(keys)
	s := strings.Join(keys, ",")
	if m.Error != nil {
		s += " code=" + m.Error.Code
	}
	if m.OK {
		s += " ok"
	}
	return s
}
