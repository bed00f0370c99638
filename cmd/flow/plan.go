package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

func planCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "plan",
		Usage:     "plan a gesture without a device and print the plan (or its transport payload)",
		ArgsUsage: "-- gesture <kind> ARGS... | -- swipe X1 Y1 X2 Y2 [--count N --pause-ms MS --pattern P] | FLOW.yaml",
		Description: `Plans exactly what a device would receive. Examples:
   flow plan --platform ios --viewport 0,0,390,844 -- gesture pinch 0.5
   flow plan -- swipe 540 1800 540 600 --count 3 --pattern ping-pong
   flow plan --lower android -- gesture pan 540 1500 0 -600 300
   echo '{"input":{"kind":"rotate","degrees":35},"platform":"ios"}' | flow plan --jsonl
   flow plan flows/gestures.yaml --platform ios    # every command, with the plan of each coordinate swipe`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "platform", Value: "android", Usage: "planning profile: android, ios or web"},
			&cli.StringFlag{Name: "viewport", Usage: "viewport X,Y,W,H (default: a phone of the platform: android 0,0,1080,2400; ios and web 0,0,390,844)"},
			&cli.StringFlag{Name: "lower", Usage: "print the transport payload instead of the plan: android, ios or webdriver"},
			&cli.StringFlag{Name: "app-id", Usage: "bundle id put in the iOS runner request (--lower ios); omitted targets the app in front"},
			&cli.BoolFlag{Name: "jsonl", Usage: `read JSON lines {"input":{...},"viewport":{...},"platform":"..."} from stdin; write {"plan":...} or {"error":...} per line`},
			&cli.BoolFlag{Name: "json", Usage: "print errors as JSON"},
			maestroVersionFlag(),
		},
		Action: func(c *cli.Context) error {
			opts, err := planOptionsFrom(c)
			if err != nil {
				return err
			}
			if opts.maestroVersion, err = maestroVersion(c, env); err != nil {
				return err
			}
			if c.Bool("jsonl") {
				if c.Args().Len() > 0 {
					return canonical.NewError(canonical.CodeInvalidArgs, "--jsonl reads its inputs from stdin and takes no arguments").
						WithHint("drop the command line, or drop --jsonl")
				}
				return planJSONLines(c.Context, env.Stdin, env.Stdout, opts)
			}
			args := c.Args().Slice()
			if len(args) == 0 {
				return canonical.NewError(canonical.CodeInvalidArgs, "nothing to plan").
					WithHint(`give a gesture command line after "--", for example: flow plan -- gesture pinch 0.5`)
			}
			if len(args) == 1 && looksLikeFile(args[0]) {
				return planFlowFile(c.Context, env.Stdout, flowapi.OSSource{}, args[0], opts)
			}
			out, err := planCommandLine(args, opts)
			if err != nil {
				return err
			}
			return writeIndented(env.Stdout, out)
		},
	}
}

func looksLikeFile(s string) bool {
	for _, ext := range []string{".yaml", ".yml", ".ad"} {
		if strings.HasSuffix(strings.ToLower(s), ext) {
			return true
		}
	}
	return false
}

type planOptions struct {
	platform    planner.Platform
	viewport    canonical.Viewport
	viewportSet bool
	lower       string
	appID       string
	// maestroVersion is how a flow file is read (--maestro-version).
	maestroVersion canonical.MaestroVersion
}

func planOptionsFrom(c *cli.Context) (planOptions, error) {
	p, err := planner.ParsePlatform(c.String("platform"))
	if err != nil {
		return planOptions{}, err
	}
	o := planOptions{platform: p, viewport: flowapi.DefaultViewport(p), lower: c.String("lower"), appID: c.String("app-id")}
	if s := c.String("viewport"); s != "" {
		if o.viewport, err = parseViewport(s); err != nil {
			return planOptions{}, err
		}
		o.viewportSet = true
	}
	switch o.lower {
	case "", "android", "ios", "webdriver":
	default:
		return planOptions{}, canonical.Errorf(canonical.CodeInvalidArgs, "unknown --lower target %q", o.lower).
			WithHint("use --lower android, --lower ios or --lower webdriver")
	}
	return o, nil
}

func parseViewport(s string) (canonical.Viewport, error) {
	parts := strings.Split(s, ",")
	bad := canonical.Errorf(canonical.CodeInvalidArgs, "--viewport %q is not X,Y,W,H", s).
		WithHint("give four numbers separated by commas, for example --viewport 0,0,390,844")
	if len(parts) != 4 {
		return canonical.Viewport{}, bad
	}
	var f [4]float64
	for i, p := range parts {
		f[i] = canonical.ParseNumber(p)
		if !canonical.IsFinite(f[i]) || strings.TrimSpace(p) == "" {
			return canonical.Viewport{}, bad
		}
	}
	if f[2] <= 0 || f[3] <= 0 {
		return canonical.Viewport{}, canonical.Errorf(canonical.CodeInvalidArgs, "--viewport %q has a non-positive width or height", s).
			WithHint("width and height must be greater than 0")
	}
	return canonical.Viewport{X: f[0], Y: f[1], Width: f[2], Height: f[3]}, nil
}

// planCommandLine plans one "gesture ..." or "swipe ..." command line.
func planCommandLine(tokens []string, o planOptions) (any, error) {
	cmd, err := canonical.ParseGestureCommand(tokens)
	if err != nil {
		return nil, err
	}
	if cmd.Swipe != nil {
		return planSwipe(*cmd.Swipe, o)
	}
	return planGesture(*cmd.Gesture, o)
}

func planGesture(in canonical.GestureInput, o planOptions) (any, error) {
	p, err := flowapi.PlanInput(in, flowapi.PlanOptions{Platform: o.platform, Viewport: &o.viewport})
	if err != nil {
		return nil, err
	}
	if o.lower == "" {
		return p, nil
	}
	return lowerPlan(o.lower, p, o.appID)
}

func planSwipe(in canonical.SwipeInput, o planOptions) (any, error) {
	s, err := planner.SwipeSeries(in, o.viewport, o.platform)
	if err != nil {
		return nil, err
	}
	if o.lower == "" {
		return s, nil
	}
	lowered := make([]any, len(s.Steps))
	for i, st := range s.Steps {
		if lowered[i], err = lowerPlan(o.lower, st.Plan, o.appID); err != nil {
			return nil, err
		}
	}
	return map[string]any{"count": s.Count, "pauseMs": s.PauseMs, "pattern": s.Pattern,
		"durationMs": s.DurationMs, "steps": lowered}, nil
}

func writeIndented(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return canonical.Errorf(canonical.CodeInternal, "encode output: %v", err).Wrap(err)
	}
	_, err = fmt.Fprintln(w, string(data))
	return err
}

// jsonLine is one --jsonl request. "input" is a structured gesture
// (contracts §3); "swipe" a structured repeated swipe.
type jsonLine struct {
	Input    any
	Swipe    any
	Viewport any
	Platform any
}

// planJSONLines answers one output line per input line, in order; a bad line
// becomes an error line and never stops the stream.
//
// Lines are planned in batches by one worker per CPU and written in input
// order, each answer appended straight into the batch's buffer (see
// appendPlanAnswer): a stream of plans is mostly numbers, and encoding them
// by reflection used to cost ten times the planning. A batch is handed on
// when it is full or when no more input is waiting, so a caller that writes
// one line and waits for its answer gets it at once. When ctx ends it
// returns at once with INTERRUPTED, also while the input stays open; the
// answers written so far stand.
func planJSONLines(ctx context.Context, r io.Reader, w io.Writer, o planOptions) error {
	// The stream keeps little alive (a few batches) but makes every plan
	// anew; collecting after each 4 MB of garbage, the default for a small
	// heap, spent a tenth of the CPU on collection. A goal of five times
	// the live heap costs a few MB.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	workers := runtime.GOMAXPROCS(0)
	work := make(chan *jsonlBatch, workers)
	ordered := make(chan *jsonlBatch, 2*workers)
	free := make(chan *jsonlBatch, 3*workers+1)
	stop := make(chan struct{})
	var readErr error
	go func() {
		readErr = readJSONLBatches(r, ordered, work, free, stop)
		close(work)
		close(ordered)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				b.answer(o)
				close(b.done)
			}
		}()
	}
	var writeErr error
	halt := sync.OnceFunc(func() { close(stop) })
	interrupted := func() error {
		// A read of stdin cannot be interrupted; the reader stops at its
		// next line, and the process is ending anyway.
		halt()
		return canonical.Interrupted(ctx.Err())
	}
	for {
		var b *jsonlBatch
		select {
		case next, ok := <-ordered:
			if !ok {
				wg.Wait()
				return jsonlResult(writeErr, readErr)
			}
			b = next
		case <-ctx.Done():
			return interrupted()
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			return interrupted()
		}
		if writeErr == nil {
			if _, writeErr = w.Write(b.out); writeErr != nil {
				halt()
			}
		}
		select {
		case free <- b:
		default:
		}
	}
}

func jsonlResult(writeErr, readErr error) error {
	if writeErr != nil {
		return canonical.Errorf(canonical.CodeInternal, "writing stdout: %v", writeErr).Wrap(writeErr)
	}
	if readErr != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "reading stdin: %v", readErr).Wrap(readErr)
	}
	return nil
}

// jsonlBatch is a run of non-blank input lines and, once a worker has
// answered them, their output lines.
type jsonlBatch struct {
	in    []byte // the lines' trimmed text, back to back
	ends  []int  // where each line ends in in
	lines []int  // each line's number in the input, for error positions
	// tooLong is a line's size when it is over maxLine (its text is
	// not kept), else 0
	tooLong []int
	out     []byte
	done    chan struct{} // closed when out is complete
}

// A batch is handed to a worker at this many lines or input bytes.
const (
	jsonlBatchLines = 64
	jsonlBatchBytes = 64 << 10
)

func (b *jsonlBatch) answer(o planOptions) {
	start := 0
	for i, end := range b.ends {
		if b.tooLong[i] > 0 {
			b.out = appendErrorAnswer(b.out, lineTooLong(b.tooLong[i]), b.lines[i])
		} else {
			b.out = appendPlanAnswer(b.out, b.in[start:end], b.lines[i], o)
		}
		b.out = append(b.out, '\n')
		start = end
	}
}

// readJSONLBatches splits r into lines as bufio.ScanLines does, numbers
// them, drops blank ones and sends batches to ordered and then to work,
// until the input ends or stop closes. A line over maxLine is not kept: it
// goes in the batch as its size, to be answered with an error.
func readJSONLBatches(r io.Reader, ordered, work chan<- *jsonlBatch, free chan *jsonlBatch, stop <-chan struct{}) error {
	lines := newLineReader(r, maxLine)
	var b *jsonlBatch
	send := func() bool {
		if b == nil {
			return true
		}
		select {
		case ordered <- b:
		case <-stop:
			return false
		}
		work <- b
		b = nil
		return true
	}
	for line := 1; ; line++ {
		text, size, err := lines.next()
		if err != nil {
			if !send() || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		tooLong := 0
		if size > maxLine {
			text, tooLong = nil, size
		} else {
			text = bytes.TrimSpace(text)
		}
		if len(text) > 0 || tooLong > 0 {
			if b == nil {
				b = newJSONLBatch(free)
			}
			b.in = append(b.in, text...)
			b.ends = append(b.ends, len(b.in))
			b.lines = append(b.lines, line)
			b.tooLong = append(b.tooLong, tooLong)
		}
		// Nothing left in the buffer means the next line needs a read,
		// and a read may wait for the caller: answer what we have first.
		if b != nil && (lines.idle() || len(b.ends) >= jsonlBatchLines || len(b.in) >= jsonlBatchBytes) && !send() {
			return nil
		}
	}
}

func newJSONLBatch(free chan *jsonlBatch) *jsonlBatch {
	select {
	case b := <-free:
		b.in, b.ends, b.lines, b.tooLong, b.out = b.in[:0], b.ends[:0], b.lines[:0], b.tooLong[:0], b.out[:0]
		b.done = make(chan struct{})
		return b
	default:
		// Room for a batch of two-contact plans (about 4 KB each), so the
		// buffer rarely grows.
		return &jsonlBatch{out: make([]byte, 0, jsonlBatchLines*4096), done: make(chan struct{})}
	}
}

// appendPlanAnswer appends the answer to one input line, without the
// newline: {"plan":...}, {"lowered":...}, {"series":...} or {"error":...},
// byte for byte what encoding/json writes for the one-key object. Where
// encoding/json would fail (a non-finite number), the answer is empty, as
// it has always been.
func appendPlanAnswer(b []byte, text []byte, line int, o planOptions) []byte {
	start := len(b)
	key, out, err := planLine(text, o)
	if err != nil {
		return appendErrorAnswer(b, err, line)
	}
	if p, ok := out.(planner.Plan); ok {
		b = append(b, `{"`...)
		b = append(b, key...)
		b = append(b, `":`...)
		if b, err = p.AppendJSON(b); err != nil {
			return b[:start]
		}
		return append(b, '}')
	}
	// Lowered payloads and swipe series are rare here; encoding/json
	// writes them.
	data, err := json.Marshal(map[string]any{key: out})
	if err != nil {
		return b
	}
	return append(b, data...)
}

// appendErrorAnswer appends {"error":...} for a line, placed at the line
// when the error has no position of its own.
func appendErrorAnswer(b []byte, err error, line int) []byte {
	start := len(b)
	ce := canonical.Coded(err)
	if !ce.Pos.Known() {
		ce.Pos = canonical.Pos{File: "<stdin>", Line: line}
	}
	b = append(b, `{"error":`...)
	if b, err = ce.AppendJSON(b); err != nil {
		return b[:start]
	}
	return append(b, '}')
}

// lineTooLong is the answer to a line over maxLine. Its text is gone by
// then, so the error tells only its size.
func lineTooLong(size int) error {
	return canonical.Errorf(canonical.CodeInvalidArgs, "the line is %d bytes, over the 16 MiB a line may have", size).
		With("bytes", size).With("limit", maxLine).
		WithHint("send one request per line; a gesture request is a few hundred bytes")
}

// planJSONLine answers one --jsonl line as the one-key object that is
// printed for it.
func planJSONLine(text []byte, o planOptions) (map[string]any, error) {
	key, out, err := planLine(text, o)
	if err != nil {
		return nil, err
	}
	return map[string]any{key: out}, nil
}

// planLine plans one --jsonl line and names the key its answer goes under.
func planLine(text []byte, o planOptions) (string, any, error) {
	raw, err := canonical.DecodeJSON(text)
	if err != nil {
		return "", nil, err
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return "", nil, canonical.NewError(canonical.CodeInvalidArgs, "each line must be a JSON object").
			WithHint(`write {"input":{...},"viewport":{"x":0,"y":0,"width":390,"height":844},"platform":"ios"}`)
	}
	if p, ok := m["platform"]; ok {
		s, _ := p.(string)
		if o.platform, err = planner.ParsePlatform(s); err != nil {
			return "", nil, err
		}
		if !o.viewportSet {
			o.viewport = flowapi.DefaultViewport(o.platform)
		}
	}
	if v, ok := m["viewport"]; ok {
		if _, isObject := v.(map[string]any); !isObject {
			return "", nil, canonical.NewError(canonical.CodeInvalidArgs, "viewport must be an object {x, y, width, height}").
				WithHint(`write "viewport":{"x":0,"y":0,"width":390,"height":844}`)
		}
		o.viewport = planner.DecodeViewport(v)
	}
	key := "plan"
	if o.lower != "" {
		key = "lowered"
	}
	if s, ok := m["swipe"]; ok {
		in, err := canonical.NormalizeSwipe(s)
		if err != nil {
			return "", nil, err
		}
		out, err := planSwipe(in, o)
		if err != nil {
			return "", nil, err
		}
		return "series", out, nil
	}
	input, ok := m["input"]
	if !ok {
		return "", nil, canonical.NewError(canonical.CodeInvalidArgs, `the line has no "input"`).
			WithHint(`put the structured gesture under "input", for example {"input":{"kind":"pinch","scale":0.5}}`)
	}
	in, err := canonical.NormalizeGesture(input)
	if err != nil {
		return "", nil, err
	}
	out, err := planGesture(in, o)
	if err != nil {
		return "", nil, err
	}
	return key, out, nil
}
