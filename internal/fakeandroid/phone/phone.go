package phone

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
)

// HelperPackage is the package flow installs and instruments.
const HelperPackage = "dev.flow.helper"

// HelperRunner is the instrumentation flow starts.
const HelperRunner = HelperPackage + "/.FlowInstrumentation"

// Files is the phone's file system as adb sync sees it: pushed files are
// read from it (push + pm install) and files the phone makes are written to
// it so a pull serves them (pm path + pull, screenrecord). The adbd package's
// MemFS is one; nil gives the phone a private one.
type Files interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
	Remove(name string) error
}

// Options configure a phone.
type Options struct {
	// Apps are the app models the phone hosts, installed as packages.
	Apps []*sim.App
	// Clock drives sim; nil is the wall clock, so a gesture takes its real
	// duration, as on a phone.
	Clock exec.Clock
	// Events receives what the apps observed (contracts §8).
	Events exec.EventLog
	// Files is the sync file system; nil is a private in-memory one.
	Files Files
	// Props override or extend the getprop table (ro.build.version.sdk is
	// 34 unless set here).
	Props map[string]string
	// HelperVersionCode is the versionCode of any helper APK installed on
	// the phone: the fake cannot read an APK, so the test says what its
	// manifest.json says. Zero means 1.
	HelperVersionCode int
	// SystemUIEvery, when set, has SystemUI emit an accessibility event
	// that often (the status bar's clock, battery and signal icons,
	// notifications), whatever the app does: on a phone the event stream
	// never goes quiet, and the helper's settle must wait for the app's
	// events only (issue 19 M8; Maestro waits per app,
	// waitForWindowUpdate(appId, …)).
	SystemUIEvery time.Duration
	// DownWaitAfterTransition, when set, is how long the first DOWN the
	// helper injects after a window transition (an app launched, a key
	// such as BACK) waits on API 30+ before it is dispatched: since
	// Android 11 UiAutomationConnection.injectInputEvent goes through
	// WindowManagerService.injectInputAfterTransactionsApplied, whose
	// syncInputTransactions waits for window animations to finish (up
	// to 5 s; 300–500 ms after a transition on a phone). The helper
	// re-anchors its schedule on the DOWN's return (issue 19 M2), so the
	// gesture keeps its timing and the touch answer reports the wait as
	// downWaitMs.
	DownWaitAfterTransition time.Duration
	// HelperAPK, when set, is installed before the phone starts.
	HelperAPK []byte
	// Packages name the package inside APKs other than the helper, by the
	// APK's sha256 (hex): the fake cannot read an APK's manifest, so the
	// test says what the package manager would read there. An installed
	// one is listed by pm as a package (flow test --app-file); bytes not
	// named here are the helper, as before.
	Packages map[string]string
	// Log, when set, receives one line per install: the size and sha256
	// of the bytes received, so a person can check what flow installed.
	Log io.Writer
	// Permissions are what each package requests (the helper's permissions
	// op); a package absent here requests none.
	Permissions map[string][]string
	// UiAutomationHeldBy, when set, is the package of another automation
	// that holds UiAutomation (a Maestro driver left running,
	// "dev.mobile.maestro.test"): the helper cannot register its own
	// (uiautomation.go). HoldUiAutomation changes it later.
	UiAutomationHeldBy string
	Faults             Faults
}

// Faults make the phone misbehave the way phones do, for tests of flow's
// error paths.
type Faults struct {
	// HelperNeverReady: am instrument runs but never prints the ready block
	// nor opens the socket; the stream stays open until the host closes it.
	HelperNeverReady bool
	// HelperDropAfter > 0: the helper closes its connection, unanswered, on
	// request number HelperDropAfter+1, and its instrumentation ends.
	HelperDropAfter int
	// InstallFailure, when set, fails every install with this reason
	// (Failure [REASON]).
	InstallFailure string
	// TouchRefusedAt > 0: the helper's touch number TouchRefusedAt (from
	// 1) fails midway, as when the system refuses an injected event: the
	// contacts are cancelled and nothing reaches the app.
	TouchRefusedAt int
	// IncompatibleUpdate: installing the helper over an installed one fails
	// with INSTALL_FAILED_UPDATE_INCOMPATIBLE until it is uninstalled.
	IncompatibleUpdate bool
}

// Phone is an adbd.Handler whose shell and helper are backed by a sim
// device. It is safe for concurrent use: adb runs many streams at once.
type Phone struct {
	dev    *sim.Device
	models []*sim.App
	apps   []string // sim app ids, in install order
	clock  exec.Clock
	files  Files
	props  map[string]string
	perms  map[string][]string
	pkgs   map[string]string // APK sha256 -> package (Options.Packages)
	faults Faults
	log    io.Writer

	mu         sync.Mutex
	installs   []Install
	extra      []string // packages installed from APKs (Options.Packages), in order
	helper     []byte   // installed helper APK; nil when not installed
	versionCd  int
	grants     []Grant
	appops     [][]string
	forbidden  []string
	recording  *recording
	sessions   map[string]*session // localabstract name -> running helper
	touches    [][]byte
	eventSeq   uint64
	lastXML    string
	mediaCount int
	front      string // the package last brought to the front
	closed     bool
	uiHolder   string // the package holding UiAutomation besides the helper
	// helperGranted are the runtime permissions granted to the helper
	// (the fake's package manager keeps them for the helper only).
	helperGranted map[string]bool
	// toastText and toastAt are the last toast and when it came
	// (events.go).
	toastText string
	toastAt   time.Time
	// downWait and transition model the DOWN delay (Options
	// DownWaitAfterTransition): transition is set by a launch, an am start
	// or a key, and taken by the next touch.
	downWait   time.Duration
	transition bool
	// systemUIEvery and born time SystemUI's events (systemUIEvents).
	systemUIEvery time.Duration
	born          time.Time
	// links are the symbolic links ln -s made: path -> target.
	links map[string]string
	// helperPid is the helper process's pid while it runs (0: not
	// running); pids counts up as the kernel's do.
	helperPid, pids int
}

// Install is one APK the package manager took: its size and sha256
// (hex), and the package it held.
type Install struct {
	Size    int
	SHA256  string
	Package string
}

// Installs are the APKs installed since the phone started, in order.
func (p *Phone) Installs() []Install {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.installs)
}

// Grant is one pm grant or pm revoke the phone received.
type Grant struct {
	Verb, Package, Permission string
}

// New builds a phone. The helper is not installed unless o.HelperAPK is set.
func New(o Options) *Phone {
	clock := o.Clock
	if clock == nil {
		clock = exec.WallClock{}
	}
	p := &Phone{
		dev:           sim.New(sim.Options{Platform: "android", Clock: clock, Events: o.Events, Apps: o.Apps}),
		clock:         clock,
		files:         o.Files,
		props:         defaultProps(),
		perms:         o.Permissions,
		pkgs:          o.Packages,
		faults:        o.Faults,
		log:           o.Log,
		helper:        o.HelperAPK,
		versionCd:     max(o.HelperVersionCode, 1),
		models:        models(o.Apps),
		sessions:      map[string]*session{},
		uiHolder:      o.UiAutomationHeldBy,
		links:         map[string]string{},
		helperGranted: map[string]bool{},
		systemUIEvery: o.SystemUIEvery,
		downWait:      o.DownWaitAfterTransition,
		born:          clock.Now(),
		pids:          4000,
	}
	for _, m := range p.models {
		p.apps = append(p.apps, m.AppID)
	}
	if p.files == nil {
		p.files = newMemFiles()
	}
	maps.Copy(p.props, o.Props)
	if p.helper != nil {
		_ = p.files.WriteFile(helperPath, p.helper)
	}
	return p
}

// defaultProps are an API 34 phone's. The sdk level is what Maestro reads;
// the product names are what adb devices -l shows for the fake.
func defaultProps() map[string]string {
	return map[string]string{
		"ro.build.version.sdk":     "34",
		"ro.build.version.release": "14",
		"ro.product.model":         "flow_fake",
		"ro.product.name":          "flow_fake",
		"ro.product.device":        "flow_fake",
		"ro.product.manufacturer":  "flow",
		"ro.sf.lcd_density":        "420",
		"ro.build.type":            "userdebug",
	}
}

// Props is the getprop table, for the adbd banner.
func (p *Phone) Props() map[string]string { return maps.Clone(p.props) }

// Device is the sim device behind the phone, for tests that look at what
// the app sees.
func (p *Phone) Device() *sim.Device { return p.dev }

// Grants are the pm grant / pm revoke commands received, in order.
func (p *Phone) Grants() []Grant {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.grants)
}

// AppOps are the appops set commands received (their arguments after set).
func (p *Phone) AppOps() [][]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.appops)
}

// Forbidden are the shell commands that flow must never send (input …),
// as received. A correct run leaves it empty.
func (p *Phone) Forbidden() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.forbidden)
}

// Touches are the raw plan payloads the helper's touch op received, in
// order, byte for byte as they arrived.
func (p *Phone) Touches() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([][]byte, len(p.touches))
	for i, t := range p.touches {
		out[i] = slices.Clone(t)
	}
	return out
}

// HelperInstalled reports the installed helper APK, if any.
func (p *Phone) HelperInstalled() ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.helper), p.helper != nil
}

// Close ends every helper session and the sim device.
func (p *Phone) Close() error {
	p.mu.Lock()
	p.closed = true
	sessions := slices.Collect(maps.Values(p.sessions))
	p.sessions = map[string]*session{}
	p.mu.Unlock()
	for _, s := range sessions {
		s.stop()
	}
	return p.dev.Close(context.Background())
}

// bump records a change of what is on screen, so the helper's eventSeq
// moves as a real accessibility-event counter would.
func (p *Phone) bump() {
	p.mu.Lock()
	p.eventSeq++
	p.mu.Unlock()
}

// Shell runs one shell stream's command line (adbd.Handler). cmd arrives as
// the host sent it, still quoted.
func (p *Phone) Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	sc, err := parseScript(cmd)
	if err != nil {
		fmt.Fprintln(stderr, reply("sh-syntax", "message", err.Error()))
		return 1
	}
	code := 0
	for i, st := range sc {
		if i > 0 && (st.join == "&&" && code != 0 || st.join == "||" && code == 0) {
			continue
		}
		if st.argv[0] == "exit" {
			if len(st.argv) > 1 {
				n, _ := strconv.Atoi(st.argv[1])
				return n & 0xff
			}
			return code
		}
		code = p.run(ctx, st.argv, stdin, stdout, stderr)
		if ctx.Err() != nil {
			break
		}
	}
	return code
}

// Exec runs an exec: stream (adbd.Handler): no shell parsing beyond words,
// stdout only, with stderr merged into it as adbd does for raw
// subprocesses.
func (p *Phone) Exec(ctx context.Context, cmd string, stdin io.Reader, stdout io.Writer) int {
	words, err := tokenize(cmd)
	if err != nil || len(words) == 0 {
		fmt.Fprintln(stdout, reply("sh-syntax", "message", "exec: cannot read the command line"))
		return 1
	}
	var argv []string
	for _, w := range words {
		if w.op != "" {
			// exec: starts a process, not a shell: an operator is an argument.
			argv = append(argv, w.op)
			continue
		}
		argv = append(argv, w.text)
	}
	return p.run(ctx, argv, stdin, stdout, stdout)
}

// newMemFiles is the private file system of a phone built without one.
func newMemFiles() *memFiles { return &memFiles{m: map[string][]byte{}} }

type memFiles struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (f *memFiles) ReadFile(name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(b), nil
}

func (f *memFiles) WriteFile(name string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[name] = slices.Clone(data)
	return nil
}

func (f *memFiles) Remove(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.m[name]; !ok {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	delete(f.m, name)
	return nil
}

// lines joins rendered replies, one per line, each ended by a newline.
func lines(rs []string) string {
	if len(rs) == 0 {
		return ""
	}
	return strings.Join(rs, "\n") + "\n"
}

// models are the app models sim installs: the given ones, then the demo
// app unless one of them replaced it (sim.New's rule).
func models(apps []*sim.App) []*sim.App {
	seen := map[string]bool{}
	var out []*sim.App
	for _, a := range append(append([]*sim.App(nil), apps...), sim.DemoApp()) {
		if a != nil && !seen[a.AppID] {
			seen[a.AppID] = true
			out = append(out, a)
		}
	}
	return out
}

// launcherPackage is the home screen's package, what a phone shows when no
// app is in front.
const launcherPackage = "com.android.launcher3"

// frontPackage names the package of the window root for the XML: sim keeps
// its front app to itself, so the phone remembers the last app it brought
// forward and trusts sim's root class for the home screen.
func (p *Phone) frontPackage(root *exec.Node) string {
	if root.Class == "com.android.launcher3.Launcher" {
		return launcherPackage
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.front
}

func (p *Phone) setFront(pkg string) {
	p.mu.Lock()
	p.front = pkg
	p.mu.Unlock()
}

// linkApp is the app whose model opens link, the one in front first, as
// sim chooses.
func (p *Phone) linkApp(link string) string {
	p.mu.Lock()
	front := p.front
	p.mu.Unlock()
	owner := ""
	for _, m := range p.models {
		for _, l := range m.Links {
			if l.URL == link && (owner == "" || m.AppID == front) {
				owner = m.AppID
			}
		}
	}
	return owner
}

var _ adbd.Handler = (*Phone)(nil)
