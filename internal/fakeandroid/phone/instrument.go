package phone

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
)

// session is one running helper instrumentation: its abstract socket and
// the connection it serves.
type session struct {
	p    *Phone
	name string // the localabstract socket name
	done chan struct{}
	once sync.Once
	// crashed says the instrumentation died rather than finished (the
	// HelperDropAfter fault); am instrument reports the two differently.
	crashed bool
	// amKilled ends the am process that started the helper; uiDead says
	// the helper's UiAutomation died with it (uiautomation.go).
	amKilled chan struct{}
	killAm   sync.Once
	uiDead   atomic.Bool

	mu       sync.Mutex
	conn     net.Conn // the connection being served; nil when none
	requests int
}

// stop ends the instrumentation: its socket goes away and an open
// connection is closed under the host's feet, as a killed process's would be.
func (s *session) stop() {
	s.once.Do(func() {
		close(s.done)
		s.mu.Lock()
		if s.conn != nil {
			s.conn.Close()
		}
		s.mu.Unlock()
		s.p.mu.Lock()
		if s.p.sessions[s.name] == s {
			delete(s.p.sessions, s.name)
		}
		if len(s.p.sessions) == 0 {
			// The instrumentation was the helper process's only reason to
			// run: its process is gone with it.
			s.p.helperPid = 0
		}
		s.p.mu.Unlock()
	})
}

// stopHelper is am force-stop dev.flow.helper (and what an install or an
// uninstall does to a running helper).
func (p *Phone) stopHelper() {
	p.mu.Lock()
	var all []*session
	for _, s := range p.sessions {
		all = append(all, s)
	}
	p.mu.Unlock()
	for _, s := range all {
		s.stop()
	}
}

// instrument runs `am instrument [-w] [-r] [-m] [-e K V]… COMPONENT` for the
// helper: the stream stays open while the helper serves, prints the ready
// block of helper-apk/PROTOCOL.md once its socket accepts, and ends when the
// helper quits or is stopped.
//
// When the host closes the stream first, the helper keeps serving until
// quit or am force-stop: the instrumentation runs in the helper's own
// process, and the am process that the stream started only watches it.
// That is the fake's answer to the open question of
// shared/docs/android-ios-design.md; flow must not rely on the opposite.
func (p *Phone) instrument(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	wait := false
	extras := map[string]string{}
	component := ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-w":
			wait = true
		case "-r", "-m":
		case "-e":
			if i+2 >= len(args) {
				return p.notModelled("am instrument", args, stderr)
			}
			extras[args[i+1]] = args[i+2]
			i += 2
		default:
			if strings.HasPrefix(a, "-") {
				return p.notModelled("am instrument", args, stderr)
			}
			component = a
		}
	}
	full := strings.Replace(component, "/.", "/"+HelperPackage+".", 1)
	if (component != HelperRunner && full != HelperPackage+"/"+HelperPackage+".FlowInstrumentation") || !p.installed(HelperPackage) {
		fmt.Fprint(stdout, lines([]string{reply("am-instrument-missing", "component", expandComponent(component))}))
		fmt.Fprintln(stderr, reply("am-instrument-missing-stderr", "component", expandComponent(component)))
		return 1
	}
	name := extras["socket"]
	if name == "" {
		// The helper cannot open a socket it was not given a name for; it
		// reports why and finishes.
		fmt.Fprintln(stderr, "fakeandroid: the helper needs -e socket NAME (helper-apk/PROTOCOL.md)")
		return 1
	}
	if p.faults.HelperNeverReady {
		if wait {
			<-ctx.Done()
		}
		return 0
	}
	// AOSP ActivityManagerService.startInstrumentation force-stops the
	// target package before it starts the instrumentation
	// (forceStopPackageLocked(ii.targetPackage, …, "start instr")): a
	// helper that is already running, whoever started it and whatever
	// socket it serves, is killed, and its am instrument stream ends.
	p.stopHelper()
	if p.uiAutomationHolder() != "" {
		return p.uiAutomationBusy(wait, stdout)
	}
	s := &session{p: p, name: name, done: make(chan struct{}), amKilled: make(chan struct{})}
	p.mu.Lock()
	p.sessions[name] = s
	p.pids++
	p.helperPid = p.pids
	p.mu.Unlock()
	if !wait {
		return 0
	}
	fmt.Fprint(stdout, lines([]string{reply("am-instrument-ready",
		"versionCode", fmt.Sprint(p.versionCd), "sdk", p.props["ro.build.version.sdk"])}))
	select {
	case <-s.done:
		if s.crashed {
			fmt.Fprint(stdout, lines([]string{reply("am-instrument-crashed")}))
		} else {
			fmt.Fprint(stdout, lines([]string{reply("am-instrument-finished")}))
		}
	case <-s.amKilled:
		// am dies without a word; the helper process lives on.
		return killedExit
	case <-ctx.Done():
	}
	return 0
}

// expandComponent writes a component as ComponentInfo flattens it.
func expandComponent(c string) string {
	pkg, cls, ok := strings.Cut(c, "/")
	if ok && strings.HasPrefix(cls, ".") {
		return pkg + "/" + pkg + cls
	}
	return c
}

// Open connects to a device-side socket (adbd.Handler): the helper's
// localabstract socket while it runs. Anything else is refused.
func (p *Phone) Open(ctx context.Context, service string) (io.ReadWriteCloser, error) {
	name, ok := strings.CutPrefix(service, "localabstract:")
	if !ok {
		return nil, fmt.Errorf("fakeandroid: nothing listens on %s", service)
	}
	p.mu.Lock()
	s := p.sessions[name]
	closed := p.closed
	p.mu.Unlock()
	if s == nil || closed {
		return nil, fmt.Errorf("fakeandroid: no socket %s", service)
	}
	host, dev := net.Pipe()
	s.mu.Lock()
	busy := s.conn != nil
	if !busy {
		s.conn = dev
	}
	s.mu.Unlock()
	if busy {
		go s.refuseBusy(dev)
		return host, nil
	}
	go s.serve(dev)
	return host, nil
}

// refuseBusy answers a second connection with one error line and closes it
// (helper-apk/PROTOCOL.md "Start and stop").
func (s *session) refuseBusy(c net.Conn) {
	defer c.Close()
	line, _ := marshalLine(response{"id": 0, "ok": false, "code": "DEVICE_UNAVAILABLE", "message": "helper busy"})
	_, _ = c.Write(line)
}

var errDropped = errors.New("fakeandroid: the helper dropped the connection (fault)")
