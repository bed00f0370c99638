package dev.flow.helper;

import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the helper makes of UiAutomation's accessibility events: which of
 * them mean "the screen under test changed" for settle's quiet window
 * (EventCounter), and the toast they announce.
 *
 * Settle counts content and scroll events of the foreground app and of its
 * input method only (review row M8): SystemUI's clock and notifications and
 * other apps' tickers keep sending them while the app under test is still,
 * which would keep resetting the quiet window; Maestro likewise waits per
 * app (UiDevice.waitForWindowUpdate(appId, …)). A window coming, going or
 * changing state counts whoever sent it: that is a change a person sees, and
 * it may be a new foreground app, so the owner re-reads the packages.
 *
 * Toasts are not windows the hierarchy holds; the platform announces them as
 * TYPE_NOTIFICATION_STATE_CHANGED whose class name is android.widget.Toast
 * (or its inner classes), and flow shows one as a synthetic node for
 * TOAST_VISIBLE_MS, as Maestro does (review row M3).
 */
public final class ScreenEvents {
    // AccessibilityEvent types (developer.android.com/reference/android/view/accessibility/AccessibilityEvent).
    public static final int TYPE_WINDOW_STATE_CHANGED = 0x20;
    public static final int TYPE_NOTIFICATION_STATE_CHANGED = 0x40;
    public static final int TYPE_WINDOW_CONTENT_CHANGED = 0x800;
    public static final int TYPE_VIEW_SCROLLED = 0x1000;
    public static final int TYPE_WINDOWS_CHANGED = 0x400000;

    /**
     * How long a toast stays in the hierarchy after its event: Toast.LENGTH_LONG,
     * the bound Maestro uses (maestro-android ToastAccessibilityListener.kt,
     * TOAST_LENGTH_LONG_DURATION = 3500, checked in isTimedOut).
     */
    public static final long TOAST_VISIBLE_MS = 3500;
    /** Maestro matches the event's class name by containment (ToastAccessibilityListener.kt). */
    public static final String TOAST_CLASS = "android.widget.Toast";

    private final EventCounter counter;
    private final TouchInjector.Clock clock;
    private volatile Set<String> packages = Collections.emptySet();
    private String toastText;
    private boolean toastEnabled;
    private long toastAt;

    public ScreenEvents(EventCounter counter, TouchInjector.Clock clock) {
        this.counter = counter;
        this.clock = clock;
    }

    /**
     * The packages whose content events count: the foreground app and its
     * input method. Empty (not known yet) counts every package.
     */
    public void setPackages(Collection<String> pkgs) {
        Set<String> s = new HashSet<String>();
        for (String p : pkgs) {
            if (p != null && !p.isEmpty()) {
                s.add(p);
            }
        }
        packages = Collections.unmodifiableSet(s);
    }

    public Set<String> packages() {
        return packages;
    }

    /**
     * One accessibility event. Answers true when the set of windows or a
     * window's state changed, so the packages should be read again.
     */
    public boolean onEvent(int type, CharSequence pkg, CharSequence className, List<CharSequence> text, boolean enabled) {
        switch (type) {
            case TYPE_WINDOW_STATE_CHANGED:
            case TYPE_WINDOWS_CHANGED:
                counter.changed();
                return true;
            case TYPE_WINDOW_CONTENT_CHANGED:
            case TYPE_VIEW_SCROLLED:
                if (counts(pkg)) {
                    counter.changed();
                }
                return false;
            case TYPE_NOTIFICATION_STATE_CHANGED:
                if (className != null && className.toString().contains(TOAST_CLASS)) {
                    toast(text, enabled);
                    counter.changed();
                }
                return false;
            default:
                return false;
        }
    }

    private boolean counts(CharSequence pkg) {
        Set<String> p = packages;
        return p.isEmpty() || pkg == null || p.contains(pkg.toString());
    }

    private synchronized void toast(List<CharSequence> text, boolean enabled) {
        StringBuilder b = new StringBuilder();
        if (text != null) {
            for (CharSequence t : text) {
                if (t == null) {
                    continue;
                }
                if (b.length() > 0) {
                    b.append(", ");
                }
                b.append(t);
            }
        }
        toastText = b.toString();
        toastEnabled = enabled;
        toastAt = clock.uptimeMillis();
    }

    /** The toast's synthetic node while it is visible, else null. */
    public synchronized NodeSource toastNode() {
        if (toastText == null || clock.uptimeMillis() - toastAt > TOAST_VISIBLE_MS) {
            return null;
        }
        return new ToastNode(toastText, toastEnabled);
    }

    /**
     * The window roots with the toast's node after them while it is
     * visible, where Maestro's ViewHierarchy.dump adds it (addToastNode after
     * the roots).
     */
    public List<NodeSource> withToast(List<NodeSource> roots) {
        NodeSource toast = toastNode();
        if (toast != null) {
            roots.add(toast);
        }
        return roots;
    }

    /**
     * The node Maestro synthesizes (ToastAccessibilityListener.kt and
     * ViewHierarchy.kt addToastNode): class android.widget.Toast, the
     * event's text, visible, not clickable or checkable, empty resource id
     * and package, no bounds (so [0,0][0,0]), no children.
     */
    static final class ToastNode implements NodeSource {
        private final String text;
        private final boolean enabled;

        ToastNode(String text, boolean enabled) {
            this.text = text;
            this.enabled = enabled;
        }

        public CharSequence text() {
            return text;
        }

        public CharSequence resourceId() {
            return "";
        }

        public CharSequence className() {
            return TOAST_CLASS;
        }

        public CharSequence packageName() {
            return "";
        }

        public CharSequence contentDescription() {
            return "";
        }

        public CharSequence hintText() {
            return "";
        }

        public boolean checkable() {
            return false;
        }

        public boolean checked() {
            return false;
        }

        public boolean clickable() {
            return false;
        }

        public boolean enabled() {
            return enabled;
        }

        public boolean focusable() {
            return false;
        }

        public boolean focused() {
            return false;
        }

        public boolean scrollable() {
            return false;
        }

        public boolean longClickable() {
            return false;
        }

        public boolean password() {
            return false;
        }

        public boolean selected() {
            return false;
        }

        public boolean visibleToUser() {
            return true;
        }

        public void boundsInScreen(int[] ltrb) {
            ltrb[0] = 0;
            ltrb[1] = 0;
            ltrb[2] = 0;
            ltrb[3] = 0;
        }

        public int childCount() {
            return 0;
        }

        public NodeSource child(int index) {
            return null;
        }

        public void recycle() {
        }
    }
}
