package phone

import "time"

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
