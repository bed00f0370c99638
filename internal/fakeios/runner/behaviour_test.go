package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec/sim"
)

// The answers these tests expect are the real runner's, read from its
// code (ios-runner/FlowRunnerUITests/Commands.swift), not the fake's:
// each test names the function it follows.

func loadApp(t *testing.T, file string) *sim.App {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	app, err := sim.LoadApp(file, data)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

type answer struct {
	OK    bool           `json:"ok"`
	Data  map[string]any `json:"data"`
	Error *struct {
		Code, Message, Hint string
	} `json:"error"`
}

// serve starts a runner and returns a function that sends one command.
func serve(t *testing.T, o Options) (*Runner, func(command string, fields map[string]any) answer) {
	t.Helper()
	r := New(o)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Serve(ctx, l) }()
	t.Cleanup(func() { cancel(); <-done })
	id := 0
	var mu sync.Mutex
	return r, func(command string, fields map[string]any) answer {
		mu.Lock()
		id++
		body := map[string]any{"command": command, "commandId": id}
		mu.Unlock()
		for k, v := range fields {
			body[k] = v
		}
		b, _ := json.Marshal(body)
		resp, err := http.Post("http://"+l.Addr().String()+"/command", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var a answer
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("%s: %s", command, raw)
		}
		return a
	}
}

func launch(t *testing.T, send func(string, map[string]any) answer, app string) {
	t.Helper()
	if a := send("launch", map[string]any{"appId": app, "arguments": map[string]any{}, "stop": true}); !a.OK {
		t.Fatalf("launch %s: %+v", app, a.Error)
	}
}

// TestViewportIsPointsAndOrientation: the viewport is the app's window in
// points, 390x844 for an iPhone 14 model, with the orientation its shape
// gives (Commands.swift viewport and interfaceOrientation: a wide window is
// landscapeRight when the app's own orientation cannot be read).
func TestViewportIsPointsAndOrientation(t *testing.T) {
	_, send := serve(t, Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml"), loadApp(t, "testdata/notes-landscape.yaml")}})
	for _, c := range []struct {
		app, orientation string
		w, h             float64
	}{{"com.example.notes", "portrait", 390, 844}, {"com.example.wide", "landscapeRight", 844, 390}} {
		launch(t, send, c.app)
		a := send("viewport", map[string]any{"appIds": []string{c.app}})
		if !a.OK || a.Data["w"] != c.w || a.Data["h"] != c.h || a.Data["orientation"] != c.orientation {
			t.Fatalf("%s: viewport %+v, want %gx%g %s", c.app, a.Data, c.w, c.h, c.orientation)
		}
	}
}

// TestSetOrientationTurnsTheViewport: after setOrientation the viewport
// names the interface orientation the device turned to (landscapeLeft
// device, landscapeRight interface: UIKit's raw values coincide), and sim
// remembers Maestro's name for it.
func TestSetOrientationTurnsTheViewport(t *testing.T) {
	r, send := serve(t, Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml")}})
	launch(t, send, "com.example.notes")
	for _, c := range []struct{ turn, maestro, shows string }{
		{"landscapeLeft", "LANDSCAPE_LEFT", "landscapeRight"}, {"landscapeRight", "LANDSCAPE_RIGHT", "landscapeLeft"},
		{"upsideDown", "UPSIDE_DOWN", "portraitUpsideDown"}, {"portrait", "PORTRAIT", "portrait"},
	} {
		if a := send("setOrientation", map[string]any{"orientation": c.turn}); !a.OK {
			t.Fatalf("%s: %+v", c.turn, a.Error)
		}
		if a := send("viewport", map[string]any{"appIds": []string{"com.example.notes"}}); a.Data["orientation"] != c.shows {
			t.Errorf("%s: viewport %+v, want orientation %s", c.turn, a.Data, c.shows)
		}
		if o, _ := r.dev.Orientation(context.Background()); o != c.maestro {
			t.Errorf("%s: sim holds %s, want %s", c.turn, o, c.maestro)
		}
	}
	if a := send("setOrientation", map[string]any{"orientation": "sideways"}); a.OK || a.Error.Code != "INVALID_ARGS" {
		t.Fatalf("an unknown orientation: %+v", a)
	}
}

// TestTypingNeedsFocusAndTheKeyboard: type with no focused field is
// COMMAND_FAILED and erase is nothing, successfully (FlowRunnerCore
// Typing.swift focusPolicy, noFocusError); tapping a field
// raises the keyboard, which viewport reports; hideKeyboard reports
// wasShown true, then false once it is down (Commands.swift hideKeyboard);
// a keyboard that stays up after the two swipes is COMMAND_FAILED.
func TestTypingNeedsFocusAndTheKeyboard(t *testing.T) {
	for _, stays := range []bool{false, true} {
		_, send := serve(t, Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml")}, KeyboardStays: stays})
		launch(t, send, "com.example.notes")
		if a := send("type", map[string]any{"text": "hello"}); a.OK || a.Error.Code != "COMMAND_FAILED" || a.Error.Message != "type: no element has keyboard focus" {
			t.Fatalf("type without focus: %+v", a)
		}
		if a := send("erase", map[string]any{"count": 3}); !a.OK {
			t.Fatalf("erase without focus erases nothing, successfully (Typing.swift focusPolicy): %+v", a.Error)
		}
		if a := send("hideKeyboard", nil); !a.OK || a.Data["wasShown"] != false {
			t.Fatalf("hideKeyboard with no keyboard: %+v", a)
		}
		send("tap", map[string]any{"x": 195, "y": 142})
		if a := send("type", map[string]any{"text": "hello ✓"}); !a.OK {
			t.Fatalf("type into the focused field: %+v", a.Error)
		}
		kb, _ := send("viewport", map[string]any{"appIds": []string{"com.example.notes"}}).Data["keyboard"].(map[string]any)
		if kb == nil || kb["y"].(float64) <= 0 || kb["y"].(float64) >= 844 || kb["w"] != 390.0 {
			t.Fatalf("a shown keyboard has its frame in the viewport answer: %v", kb)
		}
		a := send("hideKeyboard", nil)
		if stays {
			if a.OK || a.Error.Code != "COMMAND_FAILED" || !strings.Contains(a.Error.Message, "still shown after two short swipes") {
				t.Fatalf("a keyboard that stays: %+v", a)
			}
			continue
		}
		if !a.OK || a.Data["wasShown"] != true {
			t.Fatalf("hideKeyboard with the keyboard up: %+v", a)
		}
		if _, up := send("viewport", map[string]any{"appIds": []string{"com.example.notes"}}).Data["keyboard"]; up {
			t.Fatal("the keyboard is still reported after hideKeyboard")
		}
	}
}

// TestOneRequestAtATime: a request that arrives while another runs waits
// for it (Commands.swift: everything runs on the main thread, one command
// at a time), status included.
func TestOneRequestAtATime(t *testing.T) {
	_, send := serve(t, Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml")}})
	launch(t, send, "com.example.notes")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		send("longPress", map[string]any{"x": 195, "y": 230, "holdMs": 600})
	}()
	time.Sleep(100 * time.Millisecond)
	sent := time.Now()
	send("status", nil)
	waited := time.Since(sent)
	wg.Wait()
	// The press holds 600 ms and started 100 ms before: a status served
	// beside it would come back in a few milliseconds.
	if waited < 300*time.Millisecond {
		t.Fatalf("status was answered after %s, while the 600 ms longPress sent before it still ran", waited)
	}
}

// TestSystemAlertBlocksUntilAnswered: an app's permission alert shows on
// its first launch beside the app's tree (review M4: the runner includes
// SpringBoard's alerts), taps elsewhere reach nothing while it shows, and
// a tap on its button answers it.
func TestSystemAlertBlocksUntilAnswered(t *testing.T) {
	alert := Alert{AppID: "com.example.notes", Title: "“Notes” Would Like to Send You Notifications", Message: "Notifications may include alerts.",
		Buttons: []string{"Don’t Allow", "Allow"}}
	r, send := serve(t, Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml")}, Alerts: []Alert{alert}})
	launch(t, send, "com.example.notes")
	find := func(label string) map[string]any {
		var walk func(e map[string]any) map[string]any
		walk = func(e map[string]any) map[string]any {
			if e["label"] == label || e["title"] == label {
				return e
			}
			kids, _ := e["children"].([]any)
			for _, k := range kids {
				if f := walk(k.(map[string]any)); f != nil {
					return f
				}
			}
			return nil
		}
		root, _ := send("hierarchy", map[string]any{"appIds": []string{"com.example.notes"}, "maxDepth": 60}).Data["root"].(map[string]any)
		return walk(root)
	}
	allow := find("Allow")
	if allow == nil || allow["type"] != "button" || find(alert.Title)["type"] != "alert" {
		t.Fatalf("the alert and its Allow button are in the hierarchy: %v", allow)
	}
	send("tap", map[string]any{"x": 195, "y": 322}) // Open, under the alert
	if find("Detail") != nil || find("Allow") == nil {
		t.Fatal("a tap outside the alert reached the app")
	}
	f := allow["frame"].(map[string]any)
	send("tap", map[string]any{"x": f["x"].(float64) + f["w"].(float64)/2, "y": f["y"].(float64) + f["h"].(float64)/2})
	if got := r.Answers(); len(got) != 1 || got[0] != "Allow" || find("Allow") != nil {
		t.Fatalf("tapping Allow answers the alert: answers %q", got)
	}
	send("tap", map[string]any{"x": 195, "y": 322})
	if find("Detail") == nil {
		t.Fatal("once answered, taps reach the app")
	}
	launch(t, send, "com.example.notes")
	if find("Allow") != nil {
		t.Fatal("a permission prompt shows once per session")
	}
}

// TestMissingAppIsCommandFailed: launch and terminate of an app the device
// lacks answer COMMAND_FAILED "<id> is not installed" (Commands.swift
// installed(), which both call first).
func TestMissingAppIsCommandFailed(t *testing.T) {
	_, send := serve(t, Options{})
	for _, c := range []string{"launch", "terminate"} {
		a := send(c, map[string]any{"appId": "com.example.missing", "arguments": map[string]any{}, "stop": true})
		if a.OK || a.Error.Code != "COMMAND_FAILED" || a.Error.Message != "com.example.missing is not installed" || a.Error.Hint != "check the appId" {
			t.Fatalf("%s of a missing app: %+v", c, a)
		}
	}
}

// TestBoundsAsTheRunner: a hold over 10 s or an erase over 500 characters
// is INVALID_ARGS naming the bounds, as the runner's decoder refuses them
// (FlowRunnerCore Protocol.swift Fields.int(_:in:unit:)).
func TestBoundsAsTheRunner(t *testing.T) {
	_, send := serve(t, Options{Apps: []*sim.App{loadApp(t, "testdata/notes.yaml")}})
	launch(t, send, "com.example.notes")
	for _, c := range []struct {
		command string
		fields  map[string]any
		message string
	}{
		{"longPress", map[string]any{"x": 10, "y": 10, "holdMs": 20000}, `longPress: field "holdMs" must be between 0 and 10000 ms, not 20000`},
		{"erase", map[string]any{"count": 501}, `erase: field "count" must be between 0 and 500 characters, not 501`},
	} {
		if a := send(c.command, c.fields); a.OK || a.Error.Code != "INVALID_ARGS" || a.Error.Message != c.message {
			t.Errorf("%s %v: %+v", c.command, c.fields, a)
		}
	}
}

// TestDemoShopIsInPoints: the built-in demo shop answers as the runner
// would on an iPhone 14 (Commands.swift viewport and hierarchy report
// XCUIElement frames, which are points): a 390x844 viewport, every
// element of the window inside it, and the scroll containers' children
// at least partly on it (sim leaves out the ones wholly off). A model in
// Android's 1080x2400 pixels puts its full-width rows at x 1080.
func TestDemoShopIsInPoints(t *testing.T) {
	_, send := serve(t, Options{})
	launch(t, send, "com.example.shop")
	a := send("viewport", map[string]any{"appIds": []string{"com.example.shop"}})
	if !a.OK || a.Data["w"] != 390.0 || a.Data["h"] != 844.0 || a.Data["orientation"] != "portrait" {
		t.Fatalf("viewport %+v, want a 390x844 portrait iPhone", a.Data)
	}
	for _, link := range []string{"", "shop://login", "shop://catalog", "shop://item/trail-running-shoes", "shop://cart"} {
		if link != "" {
			if a := send("openLink", map[string]any{"link": link}); !a.OK {
				t.Fatalf("openLink %s: %+v", link, a.Error)
			}
		}
		root := send("hierarchy", nil).Data["root"].(map[string]any)
		kids, _ := root["children"].([]any)
		if len(kids) < 4 {
			t.Fatalf("%s: the window has %d elements", link, len(kids))
		}
		var check func(e map[string]any, inScroll bool)
		check = func(e map[string]any, inScroll bool) {
			f := e["frame"].(map[string]any)
			x, y, w, h := f["x"].(float64), f["y"].(float64), f["w"].(float64), f["h"].(float64)
			inside := x >= 0 && y >= 0 && x+w <= 390 && y+h <= 844
			onScreen := x < 390 && y < 844 && x+w > 0 && y+h > 0
			if w <= 0 || h <= 0 || (!inScroll && !inside) || (inScroll && !onScreen) {
				t.Errorf("%s: %s %q frame %v is not on a 390x844 screen", link, e["identifier"], e["title"], f)
			}
			kids, _ := e["children"].([]any)
			for _, k := range kids {
				check(k.(map[string]any), inScroll || e["scrollable"] != nil)
			}
		}
		for _, k := range kids {
			check(k.(map[string]any), false)
		}
	}
}
