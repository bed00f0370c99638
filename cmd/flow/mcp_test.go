package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	flowapi "github.com/flow-runner/flow"
)

// mcpHarness runs `flow mcp` in process on pipes and connects the Go SDK's
// client to it, as an agent's MCP client connects to a server it spawned.
type mcpHarness struct {
	t        *testing.T
	cs       *mcp.ClientSession
	stdin    io.WriteCloser
	exit     chan int
	stateDir string
	stderr   *bytes.Buffer
}

func startMCP(t *testing.T) *mcpHarness {
	t.Helper()
	return startMCPWith(t, nil)
}

func startMCPWith(t *testing.T, opts *mcp.ClientOptions) *mcpHarness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &mcpHarness{t: t, stdin: inW, exit: make(chan int, 1), stateDir: t.TempDir(), stderr: &bytes.Buffer{}}
	env := Env{Stdin: inR, Stdout: outW, Stderr: h.stderr, Getenv: getenv139, StateDir: h.stateDir}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	go func() {
		code := run(ctx, env, []string{"flow", "mcp"})
		outW.Close()
		h.exit <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "flow-test", Version: "1"}, opts)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.cs = cs
	return h
}

// call runs a tool and returns its text content, parsed, and whether it
// was a tool error.
func (h *mcpHarness) call(name string, args map[string]any) (map[string]any, bool) {
	h.t.Helper()
	res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		h.t.Fatalf("%s: protocol error %v", name, err)
	}
	if len(res.Content) != 1 {
		h.t.Fatalf("%s: %d content items", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		h.t.Fatalf("%s: content is %T", name, res.Content[0])
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		h.t.Fatalf("%s: %v in %s", name, err, text.Text)
	}
	return out, res.IsError
}

func (h *mcpHarness) mustCall(name string, args map[string]any) map[string]any {
	h.t.Helper()
	out, isErr := h.call(name, args)
	if isErr {
		h.t.Fatalf("%s %v: tool error %v", name, args, out)
	}
	return out
}

func (h *mcpHarness) mustFail(name string, args map[string]any, code string) map[string]any {
	h.t.Helper()
	out, isErr := h.call(name, args)
	if !isErr || out["code"] != code || out["message"] == "" || out["hint"] == nil {
		h.t.Fatalf("%s %v: want a tool error %s with a message and a hint, got error=%v %v", name, args, code, isErr, out)
	}
	return out
}

// TestMCPDrivesTheDemoApp: an MCP client lists flow's tools (each with an
// object input schema), opens sim, logs in to the demo shop with
// selectors, pinches with structured input and reads back the plan flow
// plan makes of it, and gets coded errors — not crashes — for a removed
// form, a gesture that does not fit and a missing element. Closing stdin
// ends the server cleanly with sim's state saved.
func TestMCPDrivesTheDemoApp(t *testing.T) {
	h := startMCP(t)
	tools, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		var s map[string]any
		if json.Unmarshal(schema, &s) != nil || s["type"] != "object" {
			t.Errorf("%s: input schema %s", tool.Name, schema)
		}
	}
	sort.Strings(names)
	for _, want := range []string{"back", "close_device", "fill", "gesture", "home", "is", "launch_app", "open_device",
		"plan_gesture", "press", "screenshot", "scroll", "snapshot", "swipe", "type", "wait"} {
		if sort.SearchStrings(names, want) == len(names) || names[sort.SearchStrings(names, want)] != want {
			t.Errorf("no tool %s in %v", want, names)
		}
	}

	h.mustCall("open_device", map[string]any{"device": "sim"})
	h.mustCall("launch_app", map[string]any{"appId": "com.example.shop"})
	h.mustCall("press", map[string]any{"selector": `text="Log in"`})
	h.mustCall("fill", map[string]any{"selector": "id=email", "text": "ada@example.com"})
	h.mustCall("fill", map[string]any{"selector": "text=Password", "text": "correct-horse"})
	h.mustCall("press", map[string]any{"selector": "text=Submit"})
	h.mustCall("is", map[string]any{"predicate": "visible", "selector": "text=Catalog"})
	snap := h.mustCall("snapshot", nil)
	if refs, _ := snap["data"].(map[string]any)["refs"].(map[string]any); len(refs) == 0 {
		t.Errorf("a snapshot without refs: %v", snap)
	}

	pinch := map[string]any{"kind": "pinch", "scale": 0.5}
	did := h.mustCall("gesture", map[string]any{"input": pinch})["data"].(map[string]any)
	planned := h.mustCall("plan_gesture", map[string]any{"input": pinch, "platform": "android"})["plan"].(map[string]any)
	if did["kind"] != "pinch" || did["kind"] != planned["intent"] || did["durationMs"] != planned["durationMs"] ||
		did["pointerCount"] != float64(len(planned["pointers"].([]any))) {
		t.Errorf("the gesture performed %v is not the plan %v", did, planned)
	}

	// Removed form: a timed fling (contracts §3) is refused with the rewrite.
	removed := map[string]any{"kind": "fling", "direction": "up", "origin": map[string]any{"x": 540, "y": 1200}, "durationMs": 300}
	gotRemoved := h.mustFail("gesture", map[string]any{"input": removed}, "INVALID_ARGS")
	// The same input through flow plan --jsonl gives the same error JSON.
	cli := runFlow(t, `{"input":{"kind":"fling","direction":"up","origin":{"x":540,"y":1200},"durationMs":300}}`+"\n", "plan", "--jsonl")
	var cliLine map[string]map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(cli.stdout)), &cliLine); err != nil {
		t.Fatalf("flow plan --jsonl: %v %s", err, cli)
	}
	// Only the position differs: flow plan read it from stdin's line 1.
	delete(cliLine["error"], "pos")
	if a, b := mustJSON(t, gotRemoved), mustJSON(t, cliLine["error"]); a != b {
		t.Errorf("MCP and flow plan differ on a removed form:\nmcp: %s\ncli: %s", a, b)
	}
	h.mustFail("gesture", map[string]any{"input": map[string]any{"kind": "pan", "origin": map[string]any{"x": 99999, "y": 10},
		"delta": map[string]any{"x": 10, "y": 0}}}, "INVALID_ARGS")
	h.mustFail("press", map[string]any{"selector": `text="No such button"`}, "ELEMENT_NOT_FOUND")

	h.stdin.Close()
	select {
	case code := <-h.exit:
		if code != 0 {
			t.Fatalf("flow mcp exited %d\n%s", code, h.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("flow mcp did not end when stdin closed")
	}
	if _, err := os.Stat(filepath.Join(h.stateDir, flowapi.SimStateFile)); err != nil {
		t.Errorf("sim state not saved: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMCPServesPipelinedCallsInOrder: 100 tool calls written at once, none
// waiting for its answer, reach the device in the order they were sent —
// the typed text is their concatenation — and are answered in that order.
func TestMCPServesPipelinedCallsInOrder(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	state := t.TempDir()
	var stderr bytes.Buffer
	env := Env{Stdin: inR, Stdout: outW, Stderr: &stderr, Getenv: getenv139, StateDir: state}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, env, []string{"flow", "mcp"})
		outW.Close()
	}()
	answers := make(chan map[string]any, 256)
	go func() {
		dec := json.NewDecoder(outR)
		for {
			var m map[string]any
			if dec.Decode(&m) != nil {
				close(answers)
				return
			}
			answers <- m
		}
	}()
	id := 0
	send := func(method string, params any) int {
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		return id
	}
	call := func(name string, args map[string]any) int {
		return send("tools/call", map[string]any{"name": name, "arguments": args})
	}
	send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "pipeline", "version": "1"}})
	inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	call("launch_app", map[string]any{"appId": "com.example.shop"})
	call("press", map[string]any{"selector": `text="Log in"`})
	call("press", map[string]any{"selector": "id=email"})
	var want strings.Builder
	first := id + 1
	for i := 0; i < 100; i++ {
		text := fmt.Sprintf("%d,", i)
		want.WriteString(text)
		call("type", map[string]any{"text": text})
	}
	last := call("snapshot", nil)
	got := map[float64]map[string]any{}
	var order []float64
	for len(got) < last {
		select {
		case m, ok := <-answers:
			if !ok {
				t.Fatalf("the server stopped after %d answers\n%s", len(got), stderr.String())
			}
			if n, ok := m["id"].(float64); ok {
				got[n] = m
				order = append(order, n)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%d of %d answers", len(got), last)
		}
	}
	for i, n := range order {
		if n != float64(i+1) {
			t.Fatalf("answers out of order: %v", order)
		}
	}
	for n := first; n < last; n++ {
		if res, _ := got[float64(n)]["result"].(map[string]any); res == nil || res["isError"] == true {
			t.Fatalf("call %d: %v", n, got[float64(n)])
		}
	}
	snap := got[float64(last)]["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	if !strings.Contains(snap, `text=\"`+want.String()+`\"`) {
		t.Fatalf("the email field does not hold the typed calls in order %q:\n%s", want.String(), snap)
	}
	inW.Close()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("flow mcp did not end when stdin closed")
	}
}

// TestMCPRecordsAsTheCLI: a session opened with a record path appends the
// same .ad lines as the CLI's --record for the same commands, structured
// gesture input included, so an agent's exploration replays.
func TestMCPRecordsAsTheCLI(t *testing.T) {
	dir := t.TempDir()
	viaMCP, viaCLI := filepath.Join(dir, "mcp.ad"), filepath.Join(dir, "cli.ad")

	h := startMCP(t)
	h.mustCall("open_device", map[string]any{"record": viaMCP})
	h.mustCall("launch_app", map[string]any{"appId": "com.example.shop"})
	h.mustCall("press", map[string]any{"selector": `text="Log in"`})
	h.mustCall("fill", map[string]any{"selector": "id=email", "text": "ada@example.com"})
	h.mustCall("gesture", map[string]any{"input": map[string]any{"kind": "pinch", "scale": 0.5}})
	h.mustCall("gesture", map[string]any{"input": map[string]any{"kind": "drag", "source": "id=email", "destination": `text="Remember me"`, "moveMs": 64}})
	h.mustCall("close_device", nil)
	h.stdin.Close()
	<-h.exit

	state := t.TempDir()
	cli := func(args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: state}
		if code := run(context.Background(), env, append(append([]string{"flow"}, args...), "--record", viaCLI)); code != 0 {
			t.Fatalf("flow %v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
	}
	cli("open", "com.example.shop")
	cli("press", `text=Log in`)
	cli("fill", "id=email", "ada@example.com")
	cli("gesture", "pinch", "0.5")
	cli("gesture", "drag", "id=email", `text=Remember me`, "800", "64")
	a, errA := os.ReadFile(viaMCP)
	b, errB := os.ReadFile(viaCLI)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if string(a) != string(b) || strings.Count(string(a), "\n") < 5 {
		t.Fatalf("MCP recorded:\n%s\nthe CLI recorded:\n%s", a, b)
	}
}

// TestMCPRunFlowsReportsAndProgresses: run_flows returns the JSON report
// flow test writes, with one progress notification per finished step;
// check_flows, convert and devices answer as their CLI commands' --json.
func TestMCPRunFlowsReportsAndProgresses(t *testing.T) {
	var mu sync.Mutex
	var notes []string
	h := startMCPWith(t, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		notes = append(notes, r.Params.Message)
		mu.Unlock()
	}})
	params := &mcp.CallToolParams{Name: "run_flows", Arguments: map[string]any{"paths": []string{"../../flows/demo"}}}
	params.SetProgressToken("run-1")
	res, err := h.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("run_flows: %v %v", err, res)
	}
	var out struct {
		Success  bool `json:"success"`
		ExitCode int  `json:"exitCode"`
		Report   struct {
			Flows []struct {
				Name   string `json:"name"`
				Status string `json:"status"`
				Steps  []any  `json:"steps"`
			} `json:"flows"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, f := range out.Report.Flows {
		steps += len(f.Steps)
		if f.Status != "passed" {
			t.Errorf("%s: %s", f.Name, f.Status)
		}
	}
	if !out.Success || out.ExitCode != 0 || len(out.Report.Flows) != 5 || steps == 0 {
		t.Fatalf("run_flows answered %+v", out)
	}
	// Notifications may trail the answer by a moment.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(notes)
		mu.Unlock()
		if n >= steps || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	if len(notes) < steps || !strings.Contains(strings.Join(notes, "\n"), "passed") {
		t.Errorf("%d progress notifications for %d steps: %q", len(notes), steps, notes)
	}
	mu.Unlock()

	check := h.mustCall("check_flows", map[string]any{"paths": []any{"../../flows/demo"}})
	cli := runFlow(t, "", "check", "--json", "../../flows/demo")
	if mustJSON(t, check) != strings.TrimSpace(mustJSONText(t, cli.stdout)) {
		t.Errorf("check_flows differs from flow check --json:\n%v\n%s", check, cli.stdout)
	}
	conv := h.mustCall("convert", map[string]any{"path": "testdata/convert/convertible.yaml", "to": "ad"})
	cliConv := runFlow(t, "", "convert", "testdata/convert/convertible.yaml", "--to", "ad")
	if conv["data"].(map[string]any)["output"] != cliConv.stdout || cliConv.code != 0 {
		t.Errorf("convert differs from flow convert:\n%v\n%s", conv, cliConv.stdout)
	}
	if _, isErr := h.call("devices", nil); isErr {
		t.Error("devices failed")
	}
	h.mustFail("run_flows", map[string]any{"paths": []any{"no/such/flows"}}, "INVALID_ARGS")
}

// mustJSONText re-encodes a JSON text compactly, for comparing values.
func mustJSONText(t *testing.T, text string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	return mustJSON(t, v)
}

// TestMCPRunFlowsCancels: cancelling a long run_flows call stops the run
// at once; the server goes on serving.
func TestMCPRunFlowsCancels(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.yaml")
	os.WriteFile(long, []byte("appId: com.example.shop\n---\n- launchApp\n- repeat:\n    times: 1000000\n    commands:\n      - tapOn: Log in\n      - back\n"), 0o644)
	started := make(chan struct{}, 1)
	h := startMCPWith(t, &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		select {
		case started <- struct{}{}:
		default:
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	params := &mcp.CallToolParams{Name: "run_flows", Arguments: map[string]any{"paths": []string{long}}}
	params.SetProgressToken("long")
	errc := make(chan error, 1)
	go func() {
		_, err := h.cs.CallTool(ctx, params)
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the run never progressed")
	}
	begin := time.Now()
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("a cancelled call answered")
	}
	// The run stops and gives the device back: a snapshot needs the
	// session (and sim's state lock) the run held.
	h.mustCall("snapshot", nil)
	if d := time.Since(begin); d > 20*time.Second {
		t.Errorf("the cancelled run went on for %v", d)
	}
}

// TestMCPOverHTTP: --listen serves the same tools over streamable HTTP.
func TestMCPOverHTTP(t *testing.T) {
	var stderr syncBuffer
	env := Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr, Getenv: getenv139, StateDir: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() { exit <- run(ctx, env, []string{"flow", "mcp", "--listen", "127.0.0.1:0"}) }()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; {
		if _, after, ok := strings.Cut(stderr.String(), "serving "); ok {
			url = strings.TrimSpace(after)
		} else if time.Now().After(deadline) {
			t.Fatalf("no address: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_gesture",
		Arguments: map[string]any{"input": map[string]any{"kind": "rotate", "degrees": 35}, "platform": "ios"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"intent":"rotate"`) {
		t.Fatalf("plan_gesture over HTTP: %v %+v", err, res)
	}
	cs.Close()
	cancel()
	select {
	case <-exit:
	case <-time.After(10 * time.Second):
		t.Fatal("flow mcp --listen did not stop")
	}
}
