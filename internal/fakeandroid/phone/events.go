package phone

import (
	"strconv"
	"time"
)

// toastShownFor is how long the helper shows a toast's node: Maestro's
// TOAST_LENGTH_LONG_DURATION (ToastAccessibilityListener.kt), which is
// AOSP's LONG_DELAY (NotificationManagerService, Toast.LENGTH_LONG), for
// every toast, short or long.
const toastShownFor = 3500 * time.Millisecond

// ShowToast is the app in front posting a text toast. A toast is not a
// window the helper can read: the system announces it with an
// AccessibilityEvent TYPE_NOTIFICATION_STATE_CHANGED whose class name is
// android.widget.Toast and whose text is the toast's (AOSP Toast.TN
// trySendAccessibilityEvent; from API 30 SystemUI's ToastUI sends it for
// text toasts), and the helper, as Maestro's ToastAccessibilityListener
// does, turns the last such event into a node of the hierarchy for 3.5 s.
func (p *Phone) ShowToast(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.toastText, p.toastAt = text, p.clock.Now()
	// The notification event is one more accessibility event the helper
	// has seen (its event counter; the hierarchy changes with it).
	p.eventSeq++
}

// toast is the text of the toast node to show now, "" when none.
func (p *Phone) toast() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.toastText == "" || p.clock.Now().Sub(p.toastAt) > toastShownFor {
		return ""
	}
	return p.toastText
}

// systemUIEvents is how many events SystemUI has emitted so far: one per
// SystemUIEvery since the phone started. They are counted from the clock
// rather than sent by a goroutine, so a virtual clock moves them too.
// The caller holds p.mu.
func (p *Phone) systemUIEvents() uint64 {
	if p.systemUIEvery <= 0 {
		return 0
	}
	return uint64(p.clock.Now().Sub(p.born) / p.systemUIEvery)
}

// transitioned records a window transition (a launch, an activity start,
// a key that moves between screens), after which the next injected DOWN
// waits for the animation on API 30+.
func (p *Phone) transitioned() {
	p.mu.Lock()
	p.transition = true
	p.mu.Unlock()
}

// takeDownWait is how long the next DOWN waits, and clears the pending
// transition: only the first DOWN after it waits.
func (p *Phone) takeDownWait() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	pending := p.transition
	p.transition = false
	if sdk, _ := strconv.Atoi(p.props["ro.build.version.sdk"]); !pending || sdk < 30 {
		return 0
	}
	return p.downWait
}
