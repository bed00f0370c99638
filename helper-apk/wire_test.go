package helperapk

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	android "github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/planner"
)

// updateEnv rewrites generated test files (the plans inside the transcripts,
// the golden schedules) instead of failing on a difference.
const updateEnv = "FLOW_UPDATE_GOLDEN"

func f(v float64) *float64 { return &v }

func pt(x, y float64) *canonical.Point { return &canonical.Point{X: x, Y: y} }

// androidPhone is the viewport the transcripts' hello announces.
var androidPhone = canonical.Viewport{Width: 1080, Height: 2400}

// stationary is a tap or long press as exec/android builds one
// (android-ios-design.md §A3 "Tap / long press"): a one-contact plan that
// holds p from 0 to holdMs.
func stationary(p canonical.Point, holdMs int) planner.Plan {
	return planner.Plan{Topology: planner.Single, DurationMs: holdMs, Pointers: []planner.Pointer{{
		PointerID: 0,
		Samples:   []planner.Sample{{OffsetMs: 0, Point: p}, {OffsetMs: holdMs, Point: p}},
	}}}
}

// wirePlan is a plan a transcript's touch carries, named by the comment
// line before it ("plan NAME: …").
type wirePlan struct {
	plan func() (planner.Plan, error)
	// refused plans are ones android.Lower refuses: no flow sends them, but
	// a foreign client could, and the helper must refuse them with
	// exactly Lower's message.
	refused bool
}

func wirePlans() map[string]wirePlan {
	gesture := func(g canonical.Gesture) func() (planner.Plan, error) {
		return func() (planner.Plan, error) { return planner.Gesture(g, androidPhone, planner.Android) }
	}
	fixed := func(p planner.Plan) func() (planner.Plan, error) {
		return func() (planner.Plan, error) { return p, nil }
	}
	return map[string]wirePlan{
		"tap":        {plan: fixed(stationary(canonical.Point{X: 540, Y: 1200}, 50))},
		"swipe_up":   {plan: gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(540, 1600), Delta: pt(0, -800), DurationMs: f(100)})},
		"pinch_half": {plan: gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(540, 1200)})},
		"too_long":   {plan: fixed(stationary(canonical.Point{X: 540, Y: 1200}, 130000)), refused: true},
		"unsupported_kind": {plan: func() (planner.Plan, error) {
			p := stationary(canonical.Point{X: 540, Y: 1200}, 50)
			p.Topology = planner.Topology("tap")
			return p, nil
		}, refused: true},
	}
}

// rawPayload is the payload exec/android would write for a plan it
// refuses (TransportPlan's field order), so the refusal transcript carries
// what a client that skipped Lower's validation would send.
func rawPayload(p planner.Plan) ([]byte, error) {
	type sample struct {
		OffsetMs int     `json:"offsetMs"`
		X        float64 `json:"x"`
		Y        float64 `json:"y"`
	}
	type pointer struct {
		PointerID int      `json:"pointerId"`
		Samples   []sample `json:"samples"`
	}
	kind, known := map[planner.Topology]string{planner.Single: "swipe", planner.Two: "transform"}[p.Topology]
	if !known {
		kind = string(p.Topology)
	}
	out := struct {
		Protocol   string    `json:"protocol"`
		Kind       string    `json:"kind"`
		DurationMs int       `json:"durationMs"`
		Pointers   []pointer `json:"pointers"`
	}{Protocol: android.Protocol, Kind: kind, DurationMs: p.DurationMs}
	for _, ptr := range p.Pointers {
		pp := pointer{PointerID: ptr.PointerID}
		for _, s := range ptr.Samples {
			pp.Samples = append(pp.Samples, sample{s.OffsetMs, s.Point.X, s.Point.Y})
		}
		out.Pointers = append(out.Pointers, pp)
	}
	return json.Marshal(out)
}

// expectedPlan is what the transcript must carry for a named plan, and for
// a refused one the message the helper must answer with.
func expectedPlan(t *testing.T, name string) (payload []byte, refusal string) {
	t.Helper()
	wp, ok := wirePlans()[name]
	if !ok {
		t.Fatalf("no plan named %q", name)
	}
	p, err := wp.plan()
	if err != nil {
		t.Fatalf("plan %s: %v", name, err)
	}
	tp, err := android.Lower(p)
	if wp.refused {
		if err == nil {
			t.Fatalf("plan %s: android.Lower accepts it; it cannot show a refusal", name)
		}
		ce, _ := canonical.AsError(err)
		raw, err := rawPayload(p)
		if err != nil {
			t.Fatal(err)
		}
		return raw, ce.Message
	}
	if err != nil {
		t.Fatalf("plan %s: %v", name, err)
	}
	raw, err := tp.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return raw, ""
}

// transcriptLine is one line of a transcript (PROTOCOL.md "Transcripts").
type transcriptLine struct {
	Send       json.RawMessage `json:"send"`
	Recv       json.RawMessage `json:"recv"`
	SendBytes  *string         `json:"sendBytes"`
	RecvBytes  *string         `json:"recvBytes"`
	Comment    *string         `json:"comment"`
	Connection *int            `json:"connection"`
}

var (
	knownOps   = []string{"hello", "hierarchy", "settle", "viewport", "touch", "key", "text", "erase", "hideKeyboard", "screenshot", "launch", "permissions", "location", "media", "quit"}
	errorCodes = []string{"INVALID_ARGS", "COMMAND_FAILED", "UNSUPPORTED_OPERATION", "TIMEOUT", "DEVICE_UNAVAILABLE", "INTERNAL"}
)

func transcriptFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"testdata/wire/*.jsonl", "testdata/wire/raw/*.jsonl"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts in testdata/wire")
	}
	return files
}

// TestWireTranscripts holds every transcript to PROTOCOL.md's framing, and
// every touch plan in them to the bytes android.Lower writes today, so the
// Java tests, the Go client and the fake helper replay what flow really
// sends. FLOW_UPDATE_GOLDEN=1 rewrites drifted plans in place.
func TestWireTranscripts(t *testing.T) {
	update := os.Getenv(updateEnv) != ""
	okOps := map[string]bool{}
	refusedCodes := map[string]bool{}
	for _, file := range transcriptFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		changed := false
		raw := strings.HasPrefix(filepath.ToSlash(file), "testdata/wire/raw/")
		lastID := map[int]int{}
		conn := 1
		var pendingSend map[string]any
		var pendingPlan string
		var expectBytes *int // bytes announced by the previous line
		expectKind := ""
		for i, line := range lines {
			at := func(format string, args ...any) {
				t.Helper()
				t.Errorf("%s:%d: "+format, append([]any{file, i + 1}, args...)...)
			}
			var l transcriptLine
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&l); err != nil {
				at("not a transcript line: %v", err)
				continue
			}
			if expectBytes != nil {
				var b *string
				if expectKind == "send" {
					b = l.SendBytes
				} else {
					b = l.RecvBytes
				}
				if b == nil {
					at("the previous line announced %d bytes; want a %sBytes line", *expectBytes, expectKind)
				} else if body, err := base64.StdEncoding.DecodeString(*b); err != nil || len(body) != *expectBytes {
					at("%sBytes holds %d bytes (%v), the line announced %d", expectKind, len(body), err, *expectBytes)
				}
				expectBytes = nil
				if b != nil {
					continue
				}
			}
			switch {
			case l.Comment != nil:
				if name, ok := strings.CutPrefix(*l.Comment, "plan "); ok {
					pendingPlan, _, _ = strings.Cut(name, ":")
				}
			case l.Connection != nil:
				if !raw {
					at("a second connection is a raw transcript (testdata/wire/raw)")
				}
				conn = *l.Connection
			case l.Send != nil:
				var req map[string]any
				if err := json.Unmarshal(l.Send, &req); err != nil {
					at("send is not an object: %v", err)
					continue
				}
				id, _ := req["id"].(float64)
				op, _ := req["op"].(string)
				if id < 1 || float64(int(id)) != id {
					at("send id %v is not a positive integer", req["id"])
				}
				if int(id) != lastID[conn]+1 {
					at("send id %v, want %d (ids count up per connection)", id, lastID[conn]+1)
				}
				lastID[conn] = int(id)
				if !slices.Contains(knownOps, op) && !raw {
					at("op %q is not in PROTOCOL.md; unknown ops belong in testdata/wire/raw", op)
				}
				if pendingSend != nil {
					at("a send before the answer to the previous one (requests are sequential)")
				}
				pendingSend = req
				if n, ok := req["bytes"].(float64); ok {
					nb := int(n)
					expectBytes, expectKind = &nb, "send"
				}
				if op == "touch" {
					var args struct {
						Plan json.RawMessage `json:"plan"`
					}
					if err := json.Unmarshal(l.Send, &args); err != nil || args.Plan == nil {
						if !raw {
							at("touch without a plan")
						}
						break
					}
					if pendingPlan == "" {
						at(`touch without a {"comment":"plan NAME: …"} line before it`)
						break
					}
					want, refusal := expectedPlan(t, pendingPlan)
					req["refusal"] = refusal
					if !bytes.Equal(args.Plan, want) {
						if update {
							lines[i] = strings.Replace(line, string(args.Plan), string(want), 1)
							changed = true
						} else {
							at("plan %s is not what android.Lower writes today (run with %s=1 to rewrite)\n got %s\nwant %s", pendingPlan, updateEnv, args.Plan, want)
						}
					}
					pendingPlan = ""
				}
			case l.Recv != nil:
				var resp map[string]any
				if err := json.Unmarshal(l.Recv, &resp); err != nil {
					at("recv is not an object: %v", err)
					continue
				}
				id, _ := resp["id"].(float64)
				ok, isBool := resp["ok"].(bool)
				if !isBool {
					at("recv without ok")
				}
				if pendingSend == nil {
					// Only the helper's busy line answers no request.
					if !raw || id != 0 || ok {
						at("recv without a send before it")
					}
				} else if want := pendingSend["id"]; id != want {
					at("recv id %v answers send id %v", id, want)
				}
				if !ok {
					code, _ := resp["code"].(string)
					msg, _ := resp["message"].(string)
					if !slices.Contains(errorCodes, code) || msg == "" {
						at("error answer needs a PROTOCOL.md code and a message: %s", l.Recv)
					}
					refusedCodes[code] = true
					if pendingSend != nil && pendingSend["refusal"] != nil && pendingSend["refusal"] != "" {
						if code != "INVALID_ARGS" || msg != pendingSend["refusal"] {
							at("the refusal is %s %q; exec/android's validate says INVALID_ARGS %q", code, msg, pendingSend["refusal"])
						}
					}
				} else if pendingSend != nil {
					if pendingSend["refusal"] != nil && pendingSend["refusal"] != "" {
						at("the helper must refuse a plan android.Lower refuses")
					}
					op, _ := pendingSend["op"].(string)
					okOps[op] = true
				}
				if n, has := resp["bytes"].(float64); has {
					nb := int(n)
					expectBytes, expectKind = &nb, "recv"
				}
				pendingSend = nil
			default:
				at("an empty transcript line")
			}
		}
		if expectBytes != nil {
			t.Errorf("%s: ends before the %d announced bytes", file, *expectBytes)
		}
		if pendingSend != nil {
			t.Errorf("%s: ends with an unanswered send", file)
		}
		if changed {
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the plans of %s", file)
		}
	}
	for _, op := range knownOps {
		if !okOps[op] {
			t.Errorf("no transcript answers %s successfully", op)
		}
	}
	for _, code := range []string{"INVALID_ARGS", "COMMAND_FAILED", "UNSUPPORTED_OPERATION", "DEVICE_UNAVAILABLE"} {
		if !refusedCodes[code] {
			t.Errorf("no transcript shows a %s answer", code)
		}
	}
}
