package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

func mcpCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve flow to coding agents over the Model Context Protocol (stdio, or HTTP with --listen)",
		Description: `Runs an MCP server on stdin/stdout (or streamable HTTP on --listen 127.0.0.1:PORT). Its tools
   plan gestures from structured input and act on one device session kept between calls
   (open_device, then launch_app, press, fill, type, swipe, scroll, gesture, back, home, snapshot,
   screenshot, wait, is; close_device). Inputs go through the same normalization as the CLI and .ad;
   a failure is a tool error whose text is the coded error JSON.

   --listen on an address other than loopback (":7421", "0.0.0.0:7421", a LAN address) requires
   every request to carry "Authorization: Bearer TOKEN": the token of --token or $FLOW_MCP_TOKEN,
   else one made at start and printed on stderr. Other requests get 401.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Usage: "serve streamable HTTP on this address instead of stdio"},
			&cli.StringFlag{Name: "token", Usage: "with --listen: the bearer token every request must carry (default $" + mcpTokenEnv +
				"; off loopback, one is made and printed when none is given)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c, "flow mcp"); err != nil {
				return err
			}
			srv := newMCPServer(env)
			defer srv.closeSession(context.WithoutCancel(c.Context))
			token := c.String("token")
			if !c.IsSet("token") {
				token = env.Getenv(mcpTokenEnv)
			}
			if addr := c.String("listen"); addr != "" {
				return srv.serveHTTP(c.Context, addr, token)
			}
			if c.IsSet("token") {
				return canonical.NewError(canonical.CodeInvalidArgs, "--token is for --listen: stdio has no one else to keep out").
					WithHint("drop --token, or add --listen")
			}
			in := env.Stdin
			if in == nil {
				in = os.Stdin
			}
			err := srv.server.Run(c.Context, stdioTransport{in: in, out: env.Stdout})
			if err != nil && c.Context.Err() == nil && !isEOF(err) {
				return canonical.Errorf(canonical.CodeInternal, "flow mcp: %v", err)
			}
			return nil
		},
	}
}

func isEOF(err error) bool {
	return err == io.EOF || err != nil && (err.Error() == "EOF" || err.Error() == "server is closing: EOF")
}

// mcpServer keeps one device session between tool calls. Calls that touch
// it are served one at a time; a device does one thing at a time.
type mcpServer struct {
	env     Env
	server  *mcp.Server
	mu      sync.Mutex
	session *flowapi.Session
	calls   *httpCalls // the HTTP requests carrying calls, when serving HTTP
}

func newMCPServer(env Env) *mcpServer {
	s := &mcpServer{env: env}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "flow", Version: readVersion(debug.ReadBuildInfo()).Version}, nil)
	for _, t := range mcpTools() {
		tool := t
		s.server.AddTool(&mcp.Tool{Name: tool.name, Description: tool.description, InputSchema: json.RawMessage(tool.schema)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				args := map[string]any{}
				if len(req.Params.Arguments) > 0 {
					raw, err := canonical.DecodeJSON(req.Params.Arguments)
					if err != nil {
						return toolError(err), nil
					}
					m, ok := raw.(map[string]any)
					if raw == nil {
						m, ok = map[string]any{}, true
					}
					if !ok {
						return toolError(canonical.NewError(canonical.CodeInvalidArgs, "the arguments must be a JSON object")), nil
					}
					args = m
				}
				ctx, stop := s.calls.bind(ctx, req)
				defer stop()
				out, err := tool.run(context.WithValue(ctx, toolRequestKey{}, req), s, args)
				if err != nil {
					return toolError(err), nil
				}
				return toolResult(out), nil
			})
	}
	return s
}

func (s *mcpServer) serveHTTP(ctx context.Context, addr, token string) error {
	if token != "" {
		if err := checkToken(token); err != nil {
			return err
		}
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--listen %s: %v", addr, err).WithHint("use a free local address such as 127.0.0.1:7421")
	}
	note := fmt.Sprintf("flow mcp: serving http://%s\n", l.Addr())
	switch {
	case token != "":
		note += "flow mcp: every request must carry the header Authorization: Bearer <the token given>\n"
	case !isLoopback(l.Addr()):
		// Anyone who can reach the port could drive the device, run
		// flows with their JavaScript and read and write files.
		if token, err = newToken(); err != nil {
			l.Close()
			return err
		}
		note += "flow mcp: serving beyond this machine, so every request must carry the header\n" +
			"flow mcp: Authorization: Bearer " + token + "\n" +
			"flow mcp: (a token made for this run; give your own with --token or " + mcpTokenEnv + ")\n"
	}
	fmt.Fprint(s.env.Stderr, note)
	s.calls = &httpCalls{live: map[string]context.Context{}}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.server }, nil)
	h = s.calls.track(h)
	if token != "" {
		h = requireToken(token, h)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(l); err != nil && err != http.ErrServerClosed {
		return canonical.Errorf(canonical.CodeInternal, "flow mcp: %v", err)
	}
	return nil
}

// toolResult carries the CLI's --json answer both as text and as
// structured content.
func toolResult(out any) *mcp.CallToolResult {
	b, _ := json.Marshal(out)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

// toolError is a tool error whose text is the coded error JSON the CLI
// prints: code, message, details, hint.
func toolError(err error) *mcp.CallToolResult {
	b, _ := json.Marshal(canonical.Coded(err))
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

// open starts the session a device tool needs: the one open_device made,
// or sim.
func (s *mcpServer) open(ctx context.Context) (*flowapi.Session, error) {
	if s.session != nil {
		return s.session, nil
	}
	return s.openDevice(ctx, cliOptions{device: "sim"})
}

func (s *mcpServer) openDevice(ctx context.Context, o cliOptions) (*flowapi.Session, error) {
	s.closeSessionLocked(ctx)
	if err := checkCommandOutputs(o.record, o.events); err != nil {
		return nil, err
	}
	sess, err := flowapi.OpenSession(ctx, o.session(s.env))
	if err != nil {
		return nil, err
	}
	// The device opens now, so open_device answers for it.
	if _, err := sess.Device(ctx); err != nil {
		sess.Close(ctx)
		return nil, err
	}
	s.session = sess
	return sess, nil
}

func (s *mcpServer) closeSession(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeSessionLocked(ctx)
}

func (s *mcpServer) closeSessionLocked(ctx context.Context) error {
	if s.session == nil {
		return nil
	}
	err := s.session.Close(ctx)
	s.session = nil
	return err
}

// act runs one device command on the session, as the CLI's device command
// of that name would, and answers with the CLI's --json shape.
func (s *mcpServer) act(ctx context.Context, command string, args []string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	if command == "snapshot" {
		snap, err := sess.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		return map[string]any{"success": true, "data": map[string]any{"refs": snap.Refs, "lines": snap.Lines, "hierarchy": snap.Root}}, nil
	}
	return toolAnswer(command)(sess.Do(ctx, command, args...))
}

// toolAnswer is an action's tool answer: a failed action is a tool error.
func toolAnswer(command string) func(flowapi.Outcome, error) (any, error) {
	return func(out flowapi.Outcome, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		if out.Result.Error != nil {
			return nil, out.Result.Error
		}
		return out.Answer(command), nil
	}
}

// toolRequestKey carries the call's request to tools that answer with
// more than a result (run_flows' progress).
type toolRequestKey struct{}

// invokeJSON runs a flow command that prints JSON and returns it decoded;
// an error of the command is the tool's error.
func (s *mcpServer) invokeJSON(ctx context.Context, args ...string) (any, error) {
	var out, errb bytes.Buffer
	env := s.env
	env.Stdout, env.Stderr, env.Stdin = &out, &errb, strings.NewReader("")
	if err := invoke(ctx, env, append([]string{"flow"}, args...)); err != nil {
		var done reported
		if !errors.As(err, &done) {
			return nil, err
		}
	}
	v, err := canonical.DecodeJSON(out.Bytes())
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "flow %s printed no JSON: %v", args[0], err)
	}
	return v, nil
}

// stringList reads a JSON array of strings, refusing anything else.
func stringList(args map[string]any, name string) ([]string, error) {
	raw, ok := args[name]
	if !ok {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s must be a list of strings", name).WithHint(fmt.Sprintf(`pass "%s":["flows/demo"]`, name))
	}
	out := make([]string, len(list))
	for i, v := range list {
		if out[i], ok = v.(string); !ok {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s[%d] must be a string", name, i).WithHint(fmt.Sprintf(`pass "%s":["flows/demo"]`, name))
		}
	}
	return out, nil
}

// mcpTool is one tool: its JSON Schema and what it does with its
// arguments (already decoded as the CLI decodes JSON).
type mcpTool struct {
	name, description, schema string
	run                       func(ctx context.Context, s *mcpServer, args map[string]any) (any, error)
}

const selectorSchema = `{"type":"string","description":"an .ad selector (text=\"Log in\", id=email, label=…) or a ref from snapshot (@e3)"}`

func mcpTools() []mcpTool {
	point := func(args map[string]any, x, y string) ([]string, bool) {
		xv, xok := args[x].(float64)
		yv, yok := args[y].(float64)
		if !xok || !yok {
			return nil, false
		}
		return []string{numArg(xv), numArg(yv)}, true
	}
	target := func(command string) func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
		return func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
			if sel, ok := args["selector"].(string); ok && sel != "" {
				return s.act(ctx, command, []string{sel})
			}
			if p, ok := point(args, "x", "y"); ok {
				return s.act(ctx, command, p)
			}
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s needs a selector or x and y", command).
				WithHint(`pass {"selector":"text=\"Log in\""} or {"x":200,"y":400}`)
		}
	}
	simple := func(command string) func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
		return func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
			return s.act(ctx, command, nil)
		}
	}
	return []mcpTool{
		{name: "devices", description: "List the devices flow can run on (sim, web, adb devices, iOS simulators and iPhones), as flow devices --json.",
			schema: `{"type":"object","additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				return s.invokeJSON(ctx, "devices", "--json")
			}},
		{name: "check_flows", description: "Check Maestro flows and .ad scripts without a device (flow check --json): syntax, removed forms, gestures that cannot fit.",
			schema: `{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"},"minItems":1},"platform":{"type":"string","enum":["android","ios","web"]},"viewport":{"type":"string","description":"X,Y,W,H"}},"required":["paths"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				paths, err := stringList(args, "paths")
				if err != nil {
					return nil, err
				}
				line := append([]string{"check", "--json"}, paths...)
				for _, k := range []string{"platform", "viewport"} {
					if v, ok := args[k].(string); ok {
						line = append(line, "--"+k, v)
					}
				}
				return s.invokeJSON(ctx, line...)
			}},
		{name: "convert", description: "Convert a Maestro flow to an .ad script or back (flow convert); exact or refused with the position and reason.",
			schema: `{"type":"object","properties":{"path":{"type":"string"},"to":{"type":"string","enum":["ad","maestro"]},"appId":{"type":"string"}},"required":["path","to"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				path, _ := args["path"].(string)
				to, _ := args["to"].(string)
				line := []string{"flow", "convert", path, "--to", to}
				if a, ok := args["appId"].(string); ok {
					line = append(line, "--app-id", a)
				}
				var out, errb bytes.Buffer
				env := s.env
				env.Stdout, env.Stderr, env.Stdin = &out, &errb, strings.NewReader("")
				if err := invoke(ctx, env, line); err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "data": map[string]any{"output": out.String()}}, nil
			}},
		{name: "run_flows", description: "Run Maestro flows or .ad scripts (flow test) and return the JSON report; each finished step is sent as progress, and cancelling the call stops the run.",
			schema: `{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"},"minItems":1},"device":{"type":"string","default":"sim"},"env":{"type":"object","additionalProperties":{"type":"string"}},"includeTags":{"type":"string"},"excludeTags":{"type":"string"}},"required":["paths"],"additionalProperties":false}`,
			run:    runFlowsTool},
		{name: "open_device", description: "Open the device later tools act on (closing the one open): sim (default; its state is the CLI's), sim:android, sim:ios, android[:SERIAL], ios[:UDID], web, or appium (a phone through an Appium server or device farm: webdriverUrl, else FLOW_WEBDRIVER_URL, and capabilities). A web or Appium session lasts until close_device.",
			schema: `{"type":"object","properties":{"device":{"type":"string","default":"sim"},"apps":{"type":"array","items":{"type":"string"},"description":"app model files to install on sim"},"record":{"type":"string","description":"append each passed action to this .ad script"},"webdriverUrl":{"type":"string","description":"the WebDriver or Appium endpoint (web, appium)"},"capabilities":{"type":"string","description":"JSON file of session capabilities (docs/webdriver.md)"}},"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				o := cliOptions{device: "sim"}
				if d, ok := args["device"].(string); ok && d != "" {
					o.device = d
				}
				if r, ok := args["record"].(string); ok {
					o.record = r
				}
				o.webdriverURL, _ = args["webdriverUrl"].(string)
				o.capabilities, _ = args["capabilities"].(string)
				if o.webdriverURL == "" && o.device == "appium" {
					o.webdriverURL = s.env.Getenv("FLOW_WEBDRIVER_URL")
				}
				if apps, ok := args["apps"].([]any); ok {
					for _, a := range apps {
						if p, ok := a.(string); ok {
							o.apps = append(o.apps, p)
						}
					}
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				if _, err := s.openDevice(ctx, o); err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "data": map[string]any{"device": o.device}}, nil
			}},
		{name: "close_device", description: "Close the open device, keeping sim's state.", schema: `{"type":"object","additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				s.mu.Lock()
				defer s.mu.Unlock()
				if err := s.closeSessionLocked(ctx); err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "data": map[string]any{}}, nil
			}},
		{name: "plan_gesture", description: "Plan a gesture from structured input (contracts §3) without a device, as flow plan does.",
			schema: `{"type":"object","properties":{"input":{"type":"object","description":"structured gesture input, e.g. {\"kind\":\"pinch\",\"scale\":0.5}"},"platform":{"type":"string","enum":["android","ios","web"]},"viewport":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"},"width":{"type":"number"},"height":{"type":"number"}}}},"required":["input"]}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				line, err := json.Marshal(args)
				if err != nil {
					return nil, canonical.Errorf(canonical.CodeInvalidArgs, "arguments: %v", err)
				}
				o := planOptions{platform: planner.Android}
				o.viewport = flowapi.DefaultViewport(o.platform)
				key, out, err := planLine(line, o)
				if err != nil {
					return nil, err
				}
				return map[string]any{key: out}, nil
			}},
		{name: "launch_app", description: "Launch an app (Maestro's launchApp: stopped first, permissions allowed).",
			schema: `{"type":"object","properties":{"appId":{"type":"string"}},"required":["appId"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				id, _ := args["appId"].(string)
				return s.act(ctx, "open", []string{id})
			}},
		{name: "press", description: "Tap an element or a point.",
			schema: `{"type":"object","properties":{"selector":` + selectorSchema + `,"x":{"type":"number"},"y":{"type":"number"}},"additionalProperties":false}`,
			run:    target("press")},
		{name: "fill", description: "Tap a field and type text into it.",
			schema: `{"type":"object","properties":{"selector":` + selectorSchema + `,"text":{"type":"string"}},"required":["selector","text"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				sel, _ := args["selector"].(string)
				text, _ := args["text"].(string)
				return s.act(ctx, "fill", []string{sel, text})
			}},
		{name: "type", description: "Type text into the focused field.",
			schema: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				text, _ := args["text"].(string)
				return s.act(ctx, "type", []string{text})
			}},
		{name: "swipe", description: "Swipe from (x1,y1) to (x2,y2): a 100 ms fling, repeated count times.",
			schema: `{"type":"object","properties":{"x1":{"type":"number"},"y1":{"type":"number"},"x2":{"type":"number"},"y2":{"type":"number"},"count":{"type":"integer","minimum":1},"pauseMs":{"type":"integer","minimum":0},"pattern":{"type":"string","enum":["one-way","ping-pong"]}},"required":["x1","y1","x2","y2"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				a, ok1 := point(args, "x1", "y1")
				b, ok2 := point(args, "x2", "y2")
				if !ok1 || !ok2 {
					return nil, canonical.NewError(canonical.CodeInvalidArgs, "swipe needs numbers x1, y1, x2 and y2").WithHint(`pass {"x1":200,"y1":600,"x2":200,"y2":200}`)
				}
				line := append(a, b...)
				if c, ok := args["count"].(float64); ok {
					line = append(line, "--count", numArg(c))
				}
				if p, ok := args["pauseMs"].(float64); ok {
					line = append(line, "--pause-ms", numArg(p))
				}
				if p, ok := args["pattern"].(string); ok {
					line = append(line, "--pattern", p)
				}
				return s.act(ctx, "swipe", line)
			}},
		{name: "scroll", description: "Scroll up, down, left or right, optionally until an element is visible.",
			schema: `{"type":"object","properties":{"direction":{"type":"string","enum":["up","down","left","right"]},"amount":{"type":"number"},"until":` + selectorSchema + `},"required":["direction"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				dir, _ := args["direction"].(string)
				line := []string{dir}
				if a, ok := args["amount"].(float64); ok {
					line = append(line, numArg(a))
				}
				if u, ok := args["until"].(string); ok {
					line = append(line, "--until", u)
				}
				return s.act(ctx, "scroll", line)
			}},
		{name: "gesture", description: "Perform a gesture given as structured input (contracts §3: pan, fling, swipe, pinch, rotate, transform, drag).",
			schema: `{"type":"object","properties":{"input":{"type":"object","description":"structured gesture input, e.g. {\"kind\":\"pinch\",\"scale\":0.5}"}},"required":["input"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				raw, ok := args["input"]
				if !ok {
					return nil, canonical.NewError(canonical.CodeInvalidArgs, `gesture needs "input"`).WithHint(`pass {"input":{"kind":"pinch","scale":0.5}}`)
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				sess, err := s.open(ctx)
				if err != nil {
					return nil, err
				}
				return toolAnswer("gesture")(sess.Gesture(ctx, raw))
			}},
		{name: "back", description: "Press back (a no-op on iOS, as in Maestro).", schema: `{"type":"object","additionalProperties":false}`, run: simple("back")},
		{name: "home", description: "Leave the app for the home screen.", schema: `{"type":"object","additionalProperties":false}`, run: simple("home")},
		{name: "snapshot", description: "Read the screen: its elements, numbered @e1, @e2… for later selectors.", schema: `{"type":"object","additionalProperties":false}`, run: simple("snapshot")},
		{name: "screenshot", description: "Take a screenshot; with path, save it there, else return it as base64 PNG.",
			schema: `{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				if p, ok := args["path"].(string); ok && p != "" {
					return s.act(ctx, "screenshot", []string{p})
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				sess, err := s.open(ctx)
				if err != nil {
					return nil, err
				}
				dev, err := sess.Device(ctx)
				if err != nil {
					return nil, err
				}
				png, err := dev.Screenshot(ctx)
				if err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "data": map[string]any{"pngBase64": base64.StdEncoding.EncodeToString(png)}}, nil
			}},
		{name: "wait", description: "Wait until an element is visible.",
			schema: `{"type":"object","properties":{"selector":` + selectorSchema + `,"timeoutMs":{"type":"integer","minimum":0}},"required":["selector"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				sel, _ := args["selector"].(string)
				line := []string{sel}
				if t, ok := args["timeoutMs"].(float64); ok {
					line = append(line, numArg(t))
				}
				return s.act(ctx, "wait", line)
			}},
		{name: "is", description: "Check an element: visible, hidden, exists or absent; a check that fails is a tool error.",
			schema: `{"type":"object","properties":{"predicate":{"type":"string","enum":["visible","hidden","exists","absent"]},"selector":` + selectorSchema + `},"required":["predicate","selector"],"additionalProperties":false}`,
			run: func(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
				p, _ := args["predicate"].(string)
				sel, _ := args["selector"].(string)
				return s.act(ctx, "is", []string{p, sel})
			}},
	}
}

// runFlowsTool runs flow test in process. The device session is closed
// first: a run on sim reads and writes sim's saved state, as the CLI's
// does, and the next device tool reopens it from there.
func runFlowsTool(ctx context.Context, s *mcpServer, args map[string]any) (any, error) {
	paths, err := stringList(args, "paths")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "flow-mcp-run-")
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "no folder for the report: %v", err)
	}
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "report.json")
	device := "sim"
	if d, ok := args["device"].(string); ok && d != "" {
		device = d
	}
	line := append([]string{"flow", "test", "--device", device, "--format", "json", "--output", report}, paths...)
	if vars, ok := args["env"].(map[string]any); ok {
		keys := make([]string, 0, len(vars))
		for k := range vars {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, ok := vars[k].(string)
			if !ok {
				return nil, canonical.Errorf(canonical.CodeInvalidArgs, "env.%s must be a string", k).WithHint(`pass "env":{"EMAIL":"ada@example.com"}`)
			}
			line = append(line, "-e", k+"="+v)
		}
	}
	for _, k := range []string{"includeTags", "excludeTags"} {
		if v, ok := args[k].(string); ok {
			line = append(line, "--"+map[string]string{"includeTags": "include-tags", "excludeTags": "exclude-tags"}[k], v)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.closeSessionLocked(ctx); err != nil {
		return nil, err
	}
	var out, errb bytes.Buffer
	env := s.env
	env.Stdout, env.Stderr, env.Stdin = &out, &errb, strings.NewReader("")
	req, _ := ctx.Value(toolRequestKey{}).(*mcp.CallToolRequest)
	if req != nil && req.Session != nil && req.Params.GetProgressToken() != nil {
		token := req.Params.GetProgressToken()
		var n float64
		var mu sync.Mutex
		env.OnStep = func(flow string, step exec.StepResult, desc string) {
			mu.Lock()
			n++
			p := n
			mu.Unlock()
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: p,
				Message: fmt.Sprintf("%s: %s %s", flow, step.Status, desc)})
		}
	}
	runErr := invoke(ctx, env, line)
	var done reported
	if runErr != nil && !errors.As(runErr, &done) && ctx.Err() == nil {
		return nil, runErr
	}
	data, err := os.ReadFile(report)
	if err != nil {
		if ctx.Err() != nil {
			return nil, canonical.NewError(canonical.CodeInterrupted, "the run was cancelled before it wrote a report").WithHint("run it again to finish")
		}
		return nil, canonical.Coded(runErr)
	}
	rep, err := canonical.DecodeJSON(data)
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "the report is not JSON: %v", err)
	}
	code := exitOK
	if runErr != nil {
		code = exitCode(canonical.CodeOf(runErr))
	}
	if ctx.Err() != nil {
		code = exitCode(canonical.CodeInterrupted)
	}
	return map[string]any{"success": code == exitOK, "exitCode": code, "report": rep}, nil
}

func numArg(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
