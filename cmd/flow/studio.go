package main

import (
	"context"
	"fmt"
	"net"
	osexec "os/exec"
	"runtime"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/studio"
)

// studioTokenEnv gives flow studio its token when --token does not.
const studioTokenEnv = "FLOW_STUDIO_TOKEN"

func studioCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "studio",
		Usage:     "a local page to inspect the screen, get selectors that work, run steps and build a flow",
		ArgsUsage: "[FLOW.yaml]",
		Description: `Serves a page on 127.0.0.1 (a free port unless --listen says) and prints its address.
   The page shows the device's screen and element tree, suggests selectors that find the element
   clicked and nothing else, runs one Maestro command or .ad line at a time, and appends the steps
   that passed to FLOW.yaml (or the file named on the page), which it reloads when edited elsewhere.
   One device session is kept for the page's life (--device sim by default).

   --listen on an address other than loopback needs a token with every request: the token of
   --token or $FLOW_STUDIO_TOKEN, else one made at start; the printed address carries it.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "device", Value: "sim", Usage: "sim, sim:android, sim:ios, web, android[:SERIAL], ios[:UDID], appium"},
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:0", Usage: "the address to serve on"},
			&cli.BoolFlag{Name: "no-open", Usage: "print the address without opening a browser"},
			&cli.StringFlag{Name: "token", Usage: "the token every request must carry (default $" + studioTokenEnv + "; off loopback one is made when none is given)"},
			&cli.StringFlag{Name: "app-id", Usage: "the appId that heads a new flow file and that launchApp launches when the flow file names none"},
			&cli.StringSliceFlag{Name: "app", Usage: "app model installed on sim (repeatable); the demo app is always installed"},
			&cli.StringFlag{Name: "android-helper", Usage: "a helper APK to install instead of the embedded one (android)"},
			&cli.StringFlag{Name: "webdriver-url", Usage: "a remote W3C WebDriver or Appium endpoint (web, appium)", EnvVars: []string{"FLOW_WEBDRIVER_URL"}},
			&cli.StringFlag{Name: "capabilities", Usage: "JSON file of session capabilities for --webdriver-url"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Usage: "KEY=VALUE passed to the commands run, as flow test passes it to flows (repeatable); the flow file's header env: wins, as in flow test"},
			maestroVersionFlag(),
			&cli.StringFlag{Name: "ios-runner-url", Usage: "attach to a flow iOS runner already running (http://HOST:PORT); implies --device ios", EnvVars: []string{"FLOW_IOS_RUNNER_URL"}},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return canonical.Errorf(canonical.CodeInvalidArgs, "flow studio takes one flow file, not %d arguments", c.NArg()).
					WithHint("flow studio flows/new.yaml")
			}
			token := c.String("token")
			if !c.IsSet("token") {
				token = env.Getenv(studioTokenEnv)
			}
			if token != "" {
				if err := checkToken(token); err != nil {
					return err
				}
			}
			version, err := maestroVersion(c, env)
			if err != nil {
				return err
			}
			o := cliOptions{device: c.String("device"), apps: c.StringSlice("app"), androidHelper: c.String("android-helper"),
				webdriverURL: c.String("webdriver-url"), capabilities: c.String("capabilities")}
			vars, err := maestroVars(env, c.StringSlice("env"))
			if err != nil {
				return err
			}
			so := o.session(env)
			so.Vars = vars
			if u := c.String("ios-runner-url"); u != "" {
				if !c.IsSet("device") {
					so.Device = "ios"
				}
				so.IOSRunnerURL = u
			}
			sess := &studioSession{o: so}
			defer sess.close(context.WithoutCancel(c.Context))
			// The device opens before the address is printed: a device that
			// cannot open is the command's error (exit 3), not a page that
			// never shows a screen.
			if err := sess.Reopen(c.Context); err != nil {
				return err
			}
			addr := c.String("listen")
			l, err := net.Listen("tcp", addr)
			if err != nil {
				return canonical.Errorf(canonical.CodeInvalidArgs, "--listen %s: %v", addr, err).WithHint("use a free local address such as 127.0.0.1:7422")
			}
			if token == "" && !isLoopback(l.Addr()) {
				// Anyone who reaches the port could drive the device and
				// write files.
				if token, err = newToken(); err != nil {
					l.Close()
					return err
				}
			}
			url := "http://" + l.Addr().String() + "/"
			if token != "" {
				url += "?token=" + token
			}
			fmt.Fprintf(env.Stderr, "flow studio: serving %s on %s\n", url, so.Device)
			if !c.Bool("no-open") {
				openBrowser(url)
			}
			srv := studio.New(studio.Options{Session: sess, FlowFile: c.Args().First(), AppID: c.String("app-id"), Token: token,
				MaestroVersion: version})
			return srv.Serve(c.Context, l)
		},
	}
}

// openBrowser shows the page in the user's browser; failing that, the
// printed address is enough.
func openBrowser(url string) {
	var cmd *osexec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = osexec.Command("open", url)
	case "windows":
		cmd = osexec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = osexec.Command("xdg-open", url)
	}
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}

// studioSession is studio's device: one Go API session, opened again by
// Reopen after the device was lost.
type studioSession struct {
	o    flowapi.SessionOptions
	sess *flowapi.Session
}

func (s *studioSession) session(ctx context.Context) (*flowapi.Session, error) {
	if s.sess == nil {
		sess, err := flowapi.OpenSession(ctx, s.o)
		if err != nil {
			return nil, err
		}
		s.sess = sess
	}
	return s.sess, nil
}

func (s *studioSession) close(ctx context.Context) {
	if s.sess != nil {
		_ = s.sess.Close(ctx)
		s.sess = nil
	}
}

func (s *studioSession) Screenshot(ctx context.Context) ([]byte, error) {
	sess, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	png, err := sess.Screenshot(ctx)
	return png, lost(err, "take a screenshot")
}

func (s *studioSession) Hierarchy(ctx context.Context) (*exec.Node, canonical.Viewport, error) {
	sess, err := s.session(ctx)
	if err != nil {
		return nil, canonical.Viewport{}, err
	}
	dev, err := sess.Device(ctx)
	if err != nil {
		return nil, canonical.Viewport{}, err
	}
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		return nil, canonical.Viewport{}, lost(err, "read the screen")
	}
	vp, err := dev.Viewport(ctx)
	if err != nil {
		return nil, canonical.Viewport{}, lost(err, "read the viewport")
	}
	return root, vp, nil
}

func (s *studioSession) ParseLine(line string) (*canonical.Flow, error) {
	sess, err := s.session(context.Background())
	if err != nil {
		return nil, err
	}
	return sess.ParseLine(line)
}

func (s *studioSession) Run(ctx context.Context, f *canonical.Flow) (exec.FlowResult, error) {
	sess, err := s.session(ctx)
	if err != nil {
		return exec.FlowResult{}, err
	}
	out, err := sess.RunFlow(ctx, f)
	return out.Result, err
}

func (s *studioSession) Reopen(ctx context.Context) error {
	s.close(ctx)
	sess, err := s.session(ctx)
	if err != nil {
		return err
	}
	if _, err := sess.Device(ctx); err != nil {
		s.close(ctx)
		return err
	}
	return nil
}

// lost codes an adapter's uncoded failure as the device being gone, which
// the page answers with its reconnect button.
func lost(err error, what string) error {
	if err == nil {
		return nil
	}
	if _, ok := canonical.AsError(err); ok {
		return err
	}
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "could not %s: %v", what, err).Wrap(err).
		WithHint("check the device, then press Reconnect")
}
