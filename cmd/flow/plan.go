package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

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
		},
		Action: func(c *cli.Context) error {
			opts, err := planOptionsFrom(c)
			if err != nil {
				return err
			}
			if c.Bool("jsonl") {
				if c.Args().Len() > 0 {
					return canonical.NewError(canonical.CodeInvalidArgs, "--jsonl reads its inputs from stdin and takes no arguments").
						WithHint("drop the command line, or drop --jsonl")
				}
				return planJSONLines(env.Stdin, env.Stdout, opts)
			}
			args := c.Args().Slice()
			if len(args) == 0 {
				return canonical.NewError(canonical.CodeInvalidArgs, "nothing to plan").
					WithHint(`give a gesture command line after "--", for example: flow plan -- gesture pinch 0.5`)
			}
			if len(args) == 1 && looksLikeFile(args[0]) {
				return planFlowFile(env.Stdout, osSource{}, args[0], opts)
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
}

func defaultViewport(p planner.Platform) canonical.Viewport {
	if p == planner.Android {
		return canonical.Viewport{Width: 1080, Height: 2400}
	}
	return canonical.Viewport{Width: 390, Height: 844}
}

func planOptionsFrom(c *cli.Context) (planOptions, error) {
	p, err := planner.ParsePlatform(c.String("platform"))
	if err != nil {
		return planOptions{}, err
	}
	o := planOptions{platform: p, viewport: defaultViewport(p), lower: c.String("lower"), appID: c.String("app-id")}
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
	g, err := in.Gesture(canonical.Internal{})
	if err != nil {
		return nil, err
	}
	p, err := planner.Gesture(g, o.viewport, o.platform)
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
func planJSONLines(r io.Reader, w io.Writer, o planOptions) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		out, err := planJSONLine([]byte(text), o)
		var data []byte
		if err != nil {
			ce := canonical.Coded(err)
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
	if err := sc.Err(); err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "reading stdin: %v", err).Wrap(err)
	}
	return nil
}

func planJSONLine(text []byte, o planOptions) (map[string]any, error) {
	raw, err := canonical.DecodeJSON(text)
	if err != nil {
		return nil, err
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, canonical.NewError(canonical.CodeInvalidArgs, "each line must be a JSON object").
			WithHint(`write {"input":{...},"viewport":{"x":0,"y":0,"width":390,"height":844},"platform":"ios"}`)
	}
	if p, ok := m["platform"]; ok {
		s, _ := p.(string)
		if o.platform, err = planner.ParsePlatform(s); err != nil {
			return nil, err
		}
		if !o.viewportSet {
			o.viewport = defaultViewport(o.platform)
		}
	}
	if v, ok := m["viewport"]; ok {
		if _, isObject := v.(map[string]any); !isObject {
			return nil, canonical.NewError(canonical.CodeInvalidArgs, "viewport must be an object {x, y, width, height}").
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
			return nil, err
		}
		out, err := planSwipe(in, o)
		if err != nil {
			return nil, err
		}
		return map[string]any{"series": out}, nil
	}
	input, ok := m["input"]
	if !ok {
		return nil, canonical.NewError(canonical.CodeInvalidArgs, `the line has no "input"`).
			WithHint(`put the structured gesture under "input", for example {"input":{"kind":"pinch","scale":0.5}}`)
	}
	in, err := canonical.NormalizeGesture(input)
	if err != nil {
		return nil, err
	}
	out, err := planGesture(in, o)
	if err != nil {
		return nil, err
	}
	return map[string]any{key: out}, nil
}
