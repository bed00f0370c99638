package phone

import (
	"fmt"
	"io"
)

// UiAutomation on the fake phone: one automation at a time, bound to the
// process that registered it.
//
// AOSP UiAutomationManager.registerUiTestAutomationServiceLocked refuses a
// second registration with IllegalStateException("UiAutomationService …
// already registered!") while another automation holds it (a Maestro or
// Appium driver left running, `uiautomator dump`, Studio's layout
// inspector). The helper catches it in FlowInstrumentation and reports its
// failed status block (helper-apk/PROTOCOL.md "Start and stop").
//
// The helper's UiAutomation connection belongs to the `am instrument`
// process that started it (AOSP UiAutomationConnection: system_server
// unregisters the automation when that process's binder token dies). When
// am dies the helper process lives on, but sees no window and has every
// injection refused; the Java helper notices (helper-apk UiConnection),
// answers DEVICE_UNAVAILABLE "UiAutomation disconnected" and ends its
// session. The fake helper answers so for every op that needs UiAutomation.

// killedExit is what a shell reports for a process killed by SIGKILL.
const killedExit = 137

// needsUiAutomation are the ops the Java helper serves through UiAutomation;
// the others (launch, permissions, location, media) use the helper's
// Context and work without it.
var needsUiAutomation = map[string]bool{
	"hierarchy": true, "settle": true, "viewport": true, "touch": true, "key": true,
	"text": true, "erase": true, "hideKeyboard": true, "screenshot": true,
}

// errUiDisconnected is helper-apk UiConnection.disconnected.
var errUiDisconnected = &opError{code: "DEVICE_UNAVAILABLE", message: "UiAutomation disconnected",
	hint: "the UiAutomation connection ended with the `am instrument` process that owned it (the adb connection" +
		" dropped or am was killed); flow starts a new helper session once per run"}

// HoldUiAutomation makes another automation hold UiAutomation (pkg names
// it, "" releases it): later helper starts fail as AOSP fails them.
func (p *Phone) HoldUiAutomation(pkg string) {
	p.mu.Lock()
	p.uiHolder = pkg
	p.mu.Unlock()
}

func (p *Phone) uiAutomationHolder() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.uiHolder
}

// KillAm kills the `am instrument` process of every running helper, as a
// reset adb link or `kill` on the device would: each instrument stream
// ends, and each helper's UiAutomation dies with it while the helper
// keeps its socket.
func (p *Phone) KillAm() {
	p.mu.Lock()
	var all []*session
	for _, s := range p.sessions {
		all = append(all, s)
	}
	p.mu.Unlock()
	for _, s := range all {
		s.killAm.Do(func() {
			s.uiDead.Store(true)
			close(s.amKilled)
		})
	}
}

// uiAutomationBusy is what the helper prints when getUiAutomation throws
// because another automation has it: its failed status block, then its
// finish. The platform does not say who holds it.
func (p *Phone) uiAutomationBusy(wait bool, stdout io.Writer) int {
	if !wait {
		return 0
	}
	// The client is an IAccessibilityServiceClient proxy; its identity
	// hash is made up.
	fmt.Fprint(stdout, lines([]string{reply("am-instrument-uiautomation-busy",
		"client", "android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5e2c1f0")}))
	return 0
}
