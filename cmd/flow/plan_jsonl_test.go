package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// referencePlanJSONLines is `flow plan --jsonl` as it was before plans were
// appended by hand and planned in parallel: one line at a time, every answer
// encoded by encoding/json as a one-key object. The differential tests below
// require the current implementation to write exactly these bytes.
func referencePlanJSONLines(r io.Reader, w io.Writer, o planOptions) error {
	br := bufio.NewReader(r)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	line := 0
	for {
		raw, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return canonical.Errorf(canonical.CodeInvalidArgs, "reading stdin: %v", err).Wrap(err)
		}
		if raw == "" && err == io.EOF {
			return nil
		}
		line++
		raw = strings.TrimSuffix(strings.TrimSuffix(raw, "\n"), "\r")
		text := strings.TrimSpace(raw)
		if text == "" && len(raw) <= maxLine {
			continue
		}
		var data []byte
		out, perr := planJSONLine([]byte(text), o)
		if len(raw) > maxLine {
			out, perr = nil, lineTooLong(len(raw))
		}
		if perr != nil {
			ce := canonical.Coded(perr)
			if !ce.Pos.Known() {
				ce.Pos = canonical.Pos{File: "<stdin>", Line: line}
			}
			data, _ = json.Marshal(map[string]any{"error": ce})
		} else {
			data, _ = json.Marshal(out)
		}
		bw.Write(data)
		bw.WriteByte('\n')
	}
}

// checkSameStream runs both implementations over input and requires the same
// bytes, line by line, and the same error.
func checkSameStream(t *testing.T, name string, input []byte, o planOptions) {
	t.Helper()
	var want, got bytes.Buffer
	wantErr := referencePlanJSONLines(bytes.NewReader(input), &want, o)
	gotErr := planJSONLines(context.Background(), bytes.NewReader(input), &got, o)
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		t.Fatalf("%s: error %v, reference %v", name, gotErr, wantErr)
	}
	if bytes.Equal(want.Bytes(), got.Bytes()) {
		return
	}
	wl, gl := strings.Split(want.String(), "\n"), strings.Split(got.String(), "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			t.Fatalf("%s: output line %d differs\n  got  %.600s\n  want %.600s", name, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: %d output lines, reference %d", name, len(gl), len(wl))
}

// jsonlOptions are the option sets --jsonl runs under: each platform's
// default phone, a --viewport that lines may override, and every lowering.
func jsonlOptions() map[string]planOptions {
	android, ios := planner.Android, planner.IOS
	return map[string]planOptions{
		"android":           {platform: android, viewport: flowapi.DefaultViewport(android)},
		"ios --viewport":    {platform: ios, viewport: canonical.Viewport{Y: 47, Width: 390, Height: 797}, viewportSet: true},
		"web":               {platform: planner.Web, viewport: flowapi.DefaultViewport(planner.Web)},
		"--lower android":   {platform: android, viewport: flowapi.DefaultViewport(android), lower: "android"},
		"--lower ios":       {platform: ios, viewport: flowapi.DefaultViewport(ios), lower: "ios", appID: "com.example.<app>"},
		"--lower webdriver": {platform: planner.Web, viewport: flowapi.DefaultViewport(planner.Web), lower: "webdriver"},
	}
}

// fixtureInputLines turns every public-input case of the agent-device
// fixture into a --jsonl line, as TestAgentDeviceAgreement does.
func fixtureInputLines(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var fl fixtureLine
		if err := json.Unmarshal(l, &fl); err != nil {
			t.Fatal(err)
		}
		if !hasKey(fl.Case, "input") {
			continue
		}
		line := map[string]any{"input": fl.Case["input"], "viewport": fl.Case["viewport"]}
		if hasKey(fl.Case, "platform") {
			line["platform"] = fl.Case["platform"]
		}
		enc, _ := json.Marshal(line)
		out.Write(enc)
		out.WriteByte('\n')
	}
	if out.Len() == 0 {
		t.Fatal("the fixture has no input cases")
	}
	return out.Bytes()
}

// edgeLines are the error paths and odd values: broken JSON, non-objects,
// bad platforms and viewports, every kind valid and invalid on every
// platform, removed forms, swipe series, huge, tiny and negative-zero
// numbers, escapes and HTML-sensitive text that errors echo back.
func edgeLines() []string {
	lines := []string{
		``, `   `, "\t", `not json`, `{`, `{"input":`, `[]`, `[1,2]`, `"x"`, `42`, `null`, `{}`, `{}]`, `{} {}`,
		`{"input":{"kind":"pinch","scale":0.5}}` + "\r", "  {\"input\":{\"kind\":\"rotate\",\"degrees\":35}}  ",
		`{"input":null}`, `{"input":"pan"}`, `{"input":[]}`, `{"input":{}}`, `{"input":{"kind":"tap"}}`,
		`{"input":{"kind":"<script>&"}}`, `{"input":{"kind":"pan\u2028"}}`, "{\"input\":{\"kind\":\"\xff\"}}",
		`{"input":{"kind":"pinch","scale":0.5},"platform":"tvos"}`, `{"input":{"kind":"pinch","scale":0.5},"platform":7}`,
		`{"input":{"kind":"pinch","scale":0.5},"platform":null}`, `{"input":{"kind":"pinch","scale":0.5},"viewport":[0,0,1,1]}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":0,"y":0,"width":"wide","height":844}}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":0,"y":0,"width":1e308,"height":1e308}}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":-1e-300,"y":1e-7,"width":390.5,"height":844.25}}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":0,"y":0,"width":-390,"height":844}}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":-0,"y":-0.0,"width":390,"height":844}}`,
		`{"input":{"kind":"pinch","scale":0.5},"viewport":{"x":1e21,"y":0,"width":390,"height":844}}`,
		`{"input":{"kind":"pinch","scale":1e-300}}`, `{"input":{"kind":"pinch","scale":1e300}}`, `{"input":{"kind":"pinch","scale":-1}}`,
		`{"input":{"kind":"pinch","scale":1e999}}`, `{"input":{"kind":"pinch","scale":"0.5"}}`, `{"input":{"kind":"pinch"}}`,
		`{"input":{"kind":"pinch","scale":0.5,"origin":{"x":5,"y":5}}}`, `{"input":{"kind":"pinch","scale":0.5,"origin":null}}`,
		`{"input":{"kind":"pinch","scale":0.5,"origin":{"x":1e308,"y":-1e308}}}`,
		`{"input":{"kind":"rotate","degrees":-720,"origin":{"x":195.5,"y":422.123456789}}}`, `{"input":{"kind":"rotate","degrees":1e-9}}`,
		`{"input":{"kind":"rotate","degrees":35,"velocity":2}}`,
		`{"input":{"kind":"transform","origin":{"x":195,"y":450},"delta":{"x":40,"y":-30},"scale":1.3,"degrees":20,"durationMs":160}}`,
		`{"input":{"kind":"transform","origin":{"x":195,"y":450},"delta":{"x":0,"y":0},"scale":0.8,"degrees":-45}}`,
		`{"input":{"kind":"transform","origin":{"x":195,"y":450}}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80}}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"durationMs":5000}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":80,"y":-40},"pointerCount":2,"durationMs":100}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"pointerCount":3}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"durationMs":15}}`,
		`{"input":{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"executionProfile":"endpoint-hold"}}`,
		`{"input":{"kind":"pan","origin":{"x":0.000001,"y":0.0000001},"delta":{"x":1e-7,"y":0}}}`,
		`{"input":{"kind":"fling","direction":"up","origin":{"x":195,"y":600}}}`,
		`{"input":{"kind":"fling","direction":"left","origin":{"x":300,"y":500},"distance":120}}`,
		`{"input":{"kind":"fling","direction":"up","origin":{"x":1,"y":2},"durationMs":300}}`,
		`{"input":{"kind":"fling","direction":"sideways","origin":{"x":1,"y":2}}}`,
		`{"input":{"kind":"swipe","preset":"left"}}`, `{"input":{"kind":"swipe","preset":"right-edge"}}`, `{"input":{"kind":"swipe","preset":"up"}}`,
		`{"input":{"kind":"swipe","preset":"left","durationMs":300}}`,
		`{"input":{"kind":"drag","source":"id=a","destination":"@e2","sourceHoldMs":800}}`,
		`{"swipe":{"from":{"x":100,"y":800},"to":{"x":100,"y":200}}}`,
		`{"swipe":{"from":{"x":100,"y":800},"to":{"x":100,"y":200},"count":3,"pauseMs":50,"pattern":"ping-pong"}}`,
		`{"swipe":{"from":{"x":100,"y":800},"to":{"x":100,"y":200},"count":201}}`,
		`{"swipe":{"from":{"x":100,"y":800},"to":{"x":100,"y":200},"count":200,"pauseMs":10000}}`,
		`{"swipe":{"from":{"x":-5,"y":800},"to":{"x":100,"y":200}}}`, `{"swipe":null}`,
		`{"input":{"kind":"pinch","scale":0.5},"input":{"kind":"rotate","degrees":10}}`,
		`{"input":{"kind":"pinch","scale":0.5},"extra":{"deep":[[[[1]]]]}}`,
		`{"input":{"kind":"pinch","scale":0.5,"origin":{"x":1.7976931348623157e308,"y":5e-324}}}`,
	}
	for _, p := range []string{"android", "ios", "macos", "web", "harmonyos", "vega", "linux", ""} {
		for _, in := range []string{
			`{"kind":"pinch","scale":0.5}`, `{"kind":"pinch","scale":1.5,"origin":{"x":195,"y":450}}`,
			`{"kind":"rotate","degrees":35}`, `{"kind":"rotate","degrees":-90}`,
			`{"kind":"transform","origin":{"x":195,"y":450},"delta":{"x":40,"y":-30},"scale":1.3,"degrees":20,"durationMs":160}`,
			`{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":80,"y":-40},"pointerCount":2,"durationMs":100}`,
			`{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80}}`, `{"kind":"fling","direction":"down","origin":{"x":195,"y":300}}`,
			`{"kind":"swipe","preset":"left-edge"}`, `{"kind":"pinch","scale":0.2,"origin":{"x":5,"y":5}}`,
		} {
			lines = append(lines, fmt.Sprintf(`{"input":%s,"platform":%q}`, in, p))
		}
	}
	return lines
}

// TestPlanJSONLinesMatchesReference: over the benchmark corpus, every
// public-input case of the agent-device fixture, the edge lines and random
// mutations of them, under every option set, `flow plan --jsonl` writes the
// reference's bytes.
func TestPlanJSONLinesMatchesReference(t *testing.T) {
	t.Parallel()
	bench := twoContactLines(t, 600)
	benchRaw, err := os.ReadFile("../../bench/inputs/two-contact.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	edges := []byte(strings.Join(edgeLines(), "\n"))
	fixture := fixtureInputLines(t)
	rng := rand.New(rand.NewPCG(11, 12))
	var mutated bytes.Buffer
	src := bytes.Split(append(append([]byte{}, edges...), bench[:20000]...), []byte("\n"))
	for range 3000 {
		l := append([]byte{}, src[rng.IntN(len(src))]...)
		for range 1 + rng.IntN(2) {
			if len(l) > 0 {
				l[rng.IntN(len(l))] = `{}[]":,.-0123456789e `[rng.IntN(21)]
			}
		}
		mutated.Write(l)
		mutated.WriteString([]string{"\n", "\r\n", "\n\n"}[rng.IntN(3)])
	}
	for optName, o := range jsonlOptions() {
		checkSameStream(t, optName+" edges", edges, o)
		checkSameStream(t, optName+" mutations", mutated.Bytes(), o)
		if o.lower == "" {
			checkSameStream(t, optName+" bench corpus", bench, o)
			checkSameStream(t, optName+" bench intents", benchRaw, o)
			checkSameStream(t, optName+" fixture", fixture, o)
		}
	}
	checkSameStream(t, "lowered fixture", fixture, jsonlOptions()["--lower webdriver"])
}

// TestPlanJSONLinesStreamEdges: line splitting and numbering behave as
// before (CRLF, blank lines, no final newline), a line of 16 MiB is
// planned, and a line over 16 MiB, blank or not, is answered with an error
// and the stream goes on.
func TestPlanJSONLinesStreamEdges(t *testing.T) {
	t.Parallel()
	o := jsonlOptions()["android"]
	pinch := `{"input":{"kind":"pinch","scale":0.5}}`
	for name, in := range map[string]string{
		"empty":            "",
		"only blanks":      "\n\n \r\n\t\n",
		"crlf":             pinch + "\r\n" + "bad\r\n" + pinch + "\r\n",
		"no final newline": pinch + "\n" + "bad",
		"blank lines":      "\n\n" + "bad" + "\n\n\n" + "bad" + "\n",
		"many":             strings.Repeat(pinch+"\nbad\n\n", 700),
	} {
		checkSameStream(t, name, []byte(in), o)
	}
	if testing.Short() {
		return
	}
	long := pinch + "\n" + "bad\n" + `{"pad":"` + strings.Repeat("x", 16*1024*1024) + `"}` + "\n" + pinch + "\n"
	checkSameStream(t, "too long", []byte(long), o)
	justFits := pinch + "\n" + strings.Repeat(" ", 16*1024*1024-len(pinch)) + pinch + "\r\n" + "bad\n"
	checkSameStream(t, "longest line", []byte(justFits), o)
	overByOne := pinch + "\n" + strings.Repeat(" ", 16*1024*1024-len(pinch)+1) + pinch + "\r\n" + "bad"
	checkSameStream(t, "one byte over", []byte(overByOne), o)
	blank := strings.Repeat(" ", 16*1024*1024+1) + "\r"
	checkSameStream(t, "long blank line at the end", []byte(blank), o)
}

// TestPlanJSONLinesAnswersEachLineAtOnce: a caller that writes one line and
// waits for its answer gets it before writing the next.
func TestPlanJSONLinesAnswersEachLineAtOnce(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- planJSONLines(context.Background(), inR, outW, jsonlOptions()["android"])
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	for i, line := range []string{`{"input":{"kind":"pinch","scale":0.5}}`, `bad`, `{"input":{"kind":"rotate","degrees":35}}`} {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { s, _ := answers.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if !strings.HasPrefix(s, `{"plan":`) && !strings.HasPrefix(s, `{"error":`) {
				t.Fatalf("answer %d: %.200q", i+1, s)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to line %d while the input stays open", i+1)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errors.New("no space left on device")
	}
	w.after--
	return len(p), nil
}

// TestPlanJSONLinesWriteFailure: output that cannot be written is an
// INTERNAL error, not a silent success, and the stream stops.
func TestPlanJSONLinesWriteFailure(t *testing.T) {
	t.Parallel()
	err := planJSONLines(context.Background(), bytes.NewReader(twoContactLines(t, 2000)), &failingWriter{after: 1}, jsonlOptions()["android"])
	if canonical.CodeOf(err) != canonical.CodeInternal || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("got %v", err)
	}
}

// TestPlanJSONLinesStopsWhenCancelled: a stream whose input stays open stops
// with INTERRUPTED as soon as its context ends (the first Ctrl-C), after the
// answers it already wrote.
func TestPlanJSONLinesStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- planJSONLines(ctx, inR, outW, jsonlOptions()["android"])
		outW.Close()
	}()
	if _, err := io.WriteString(inW, `{"input":{"kind":"pinch","scale":0.5}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	answer, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.HasPrefix(answer, `{"plan":`) {
		t.Fatalf("first answer %.100q, %v", answer, err)
	}
	cancel()
	select {
	case err := <-done:
		if canonical.CodeOf(err) != canonical.CodeInterrupted {
			t.Fatalf("got %v, want INTERRUPTED", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still waiting for input after the context ended")
	}
}

// TestPlanJSONLinesAnswersALineTooLong: a line over 16 MiB is answered with
// an INVALID_ARGS error line at its line number, and the lines after it are
// answered as usual; the stream does not end.
func TestPlanJSONLinesAnswersALineTooLong(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes a 17 MiB line")
	}
	pinch, rotate := `{"input":{"kind":"pinch","scale":0.5}}`, `{"input":{"kind":"rotate","degrees":35}}`
	long := `{"input":{"kind":"pinch","scale":0.5},"pad":"` + strings.Repeat("x", 17<<20) + `"}`
	in := pinch + "\n\n" + long + "\r\n" + rotate + "\n" + "bad"
	var out bytes.Buffer
	if err := planJSONLines(context.Background(), strings.NewReader(in), &out, jsonlOptions()["android"]); err != nil {
		t.Fatalf("the stream ended with %v after %q", err, out.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d answers for 4 lines: %.2000s", len(lines), out.String())
	}
	var tooLong struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Pos     canonical.Pos  `json:"pos"`
			Details map[string]any `json:"details"`
			Hint    string         `json:"hint"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &tooLong); err != nil {
		t.Fatalf("answer 2: %v: %.300s", err, lines[1])
	}
	e := tooLong.Error
	if e.Code != "INVALID_ARGS" || e.Pos != (canonical.Pos{File: "<stdin>", Line: 3}) || !strings.Contains(e.Message, "16 MiB") ||
		e.Details["bytes"] != float64(len(long)) || e.Hint == "" {
		t.Errorf("answer to the long line: %s", lines[1])
	}
	intent := func(line string) any {
		var a struct{ Plan map[string]any }
		json.Unmarshal([]byte(line), &a)
		return a.Plan["intent"]
	}
	if intent(lines[0]) != "pinch" || intent(lines[2]) != "rotate" || !strings.Contains(lines[3], `"line":5}`) {
		t.Errorf("answers around the long line:\n%.200s\n%.200s\n%s", lines[0], lines[2], lines[3])
	}
}

// repeatByte reads as an endless run of one byte.
type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestPlanJSONLinesDiscardsALineTooLong: the part of a line past 16 MiB is
// read and dropped, not kept: a 512 MiB line costs a small part of its
// size. Not parallel, so that the allocation count is this test's.
func TestPlanJSONLinesDiscardsALineTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 512 MiB line")
	}
	const size = 512 << 20
	in := io.MultiReader(strings.NewReader(`{"pad":"`), io.LimitReader(repeatByte('x'), size),
		strings.NewReader("\"}\n"+`{"input":{"kind":"pinch","scale":0.5}}`+"\n"))
	var out bytes.Buffer
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := planJSONLines(context.Background(), in, &out, jsonlOptions()["android"])
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("the stream ended with %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"error":{"code":"INVALID_ARGS"`) || !strings.HasPrefix(lines[1], `{"plan":`) {
		t.Fatalf("answers: %.600s", out.String())
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > size/4 {
		t.Errorf("reading a %d MiB line allocated %d MiB", size>>20, grew>>20)
	}
}
