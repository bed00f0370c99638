package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.Test;

/**
 * Events as UiAutomation delivers them on a phone: type, package, class
 * name and text of AccessibilityEvent (AOSP
 * frameworks/base/core/java/android/view/accessibility/AccessibilityEvent.java).
 * A toast is TYPE_NOTIFICATION_STATE_CHANGED with class android.widget.Toast
 * from the app (Toast.TN, API < 30) or android.widget.Toast$TN; its text is
 * the toast's message (NotificationManagerService / Toast.TN.trySendAccessibilityEvent).
 */
public class ScreenEventsTest {
    /** A clock the test moves. */
    static final class ManualClock implements TouchInjector.Clock {
        long now = 1000;

        public long uptimeMillis() {
            return now;
        }

        public void sleepUntil(long t) {
            now = Math.max(now, t);
        }
    }

    private static List<CharSequence> text(String... s) {
        return new ArrayList<CharSequence>(Arrays.asList(s));
    }

    @Test
    public void otherPackagesContentEventsDoNotCount() {
        ManualClock clock = new ManualClock();
        EventCounter c = new EventCounter(clock);
        ScreenEvents s = new ScreenEvents(c, clock);
        s.setPackages(Arrays.asList("com.example", "com.google.android.inputmethod.latin"));
        // SystemUI's clock ticking, another app's ticker.
        s.onEvent(ScreenEvents.TYPE_WINDOW_CONTENT_CHANGED, "com.android.systemui", "android.widget.TextView", text(), true);
        s.onEvent(ScreenEvents.TYPE_VIEW_SCROLLED, "com.other.news", "android.widget.ListView", text(), true);
        assertEquals(0, c.seq());
        s.onEvent(ScreenEvents.TYPE_WINDOW_CONTENT_CHANGED, "com.example", "android.widget.TextView", text(), true);
        s.onEvent(ScreenEvents.TYPE_WINDOW_CONTENT_CHANGED, "com.google.android.inputmethod.latin", "android.widget.FrameLayout", text(), true);
        assertEquals(2, c.seq());
    }

    @Test
    public void windowChangesCountWhoeverSendsThemAndAskForThePackagesAgain() {
        ManualClock clock = new ManualClock();
        EventCounter c = new EventCounter(clock);
        ScreenEvents s = new ScreenEvents(c, clock);
        s.setPackages(Collections.singletonList("com.example"));
        assertTrue(s.onEvent(ScreenEvents.TYPE_WINDOW_STATE_CHANGED, "com.android.permissioncontroller", "android.app.AlertDialog", text(), true));
        assertTrue(s.onEvent(ScreenEvents.TYPE_WINDOWS_CHANGED, null, null, text(), true));
        assertEquals(2, c.seq());
    }

    @Test
    public void beforeThePackagesAreKnownEveryEventCounts() {
        ManualClock clock = new ManualClock();
        EventCounter c = new EventCounter(clock);
        ScreenEvents s = new ScreenEvents(c, clock);
        s.onEvent(ScreenEvents.TYPE_WINDOW_CONTENT_CHANGED, "com.android.systemui", "android.widget.TextView", text(), true);
        assertEquals(1, c.seq());
    }

    @Test
    public void aSystemUiTickerDoesNotKeepSettleFromQuiet() throws Exception {
        ManualClock clock = new ManualClock();
        EventCounter c = new EventCounter(clock);
        ScreenEvents s = new ScreenEvents(c, clock);
        s.setPackages(Collections.singletonList("com.example"));
        clock.now += 300;
        s.onEvent(ScreenEvents.TYPE_WINDOW_CONTENT_CHANGED, "com.android.systemui", "android.widget.TextView", text(), true);
        assertTrue("quiet for 300 ms in the app, whatever SystemUI does", c.waitForQuiet(200, 0));
    }

    @Test
    public void aToastIsANodeFor3500Ms() {
        ManualClock clock = new ManualClock();
        EventCounter c = new EventCounter(clock);
        ScreenEvents s = new ScreenEvents(c, clock);
        assertNull(s.toastNode());
        s.onEvent(ScreenEvents.TYPE_NOTIFICATION_STATE_CHANGED, "com.example", "android.widget.Toast$TN", text("Saved"), true);
        assertEquals("a toast is a change of the screen", 1, c.seq());
        NodeSource n = s.toastNode();
        assertNotNull(n);
        XmlWriter.Result x = XmlWriter.write(0, Collections.singletonList(n), 1080, 2400, 10, 10);
        assertEquals("<hierarchy rotation=\"0\"><node index=\"0\" text=\"Saved\" resource-id=\"\" class=\"android.widget.Toast\""
                + " package=\"\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" enabled=\"true\""
                + " focusable=\"false\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\""
                + " selected=\"false\" visible-to-user=\"true\" bounds=\"[0,0][0,0]\" hintText=\"\"/></hierarchy>", x.xml);
        clock.now += 3500;
        assertNotNull("still there at 3.5 s", s.toastNode());
        clock.now += 1;
        assertNull("gone after 3.5 s", s.toastNode());
    }

    @Test
    public void theToastFollowsTheWindowsInTheHierarchy() throws Exception {
        ManualClock clock = new ManualClock();
        ScreenEvents s = new ScreenEvents(new EventCounter(clock), clock);
        List<NodeSource> windows = TestNode.fromXml("<hierarchy rotation=\"0\"><node index=\"0\" text=\"Save\" class=\"android.widget.Button\" bounds=\"[0,0][100,50]\"/></hierarchy>");
        assertEquals(1, s.withToast(new ArrayList<NodeSource>(windows)).size());
        s.onEvent(ScreenEvents.TYPE_NOTIFICATION_STATE_CHANGED, "com.example", "android.widget.Toast", text("Saved"), true);
        List<NodeSource> roots = s.withToast(new ArrayList<NodeSource>(windows));
        assertEquals(2, roots.size());
        assertEquals("Save", roots.get(0).text().toString());
        assertEquals("Saved", roots.get(1).text().toString());
        clock.now += ScreenEvents.TOAST_VISIBLE_MS + 1;
        assertEquals(1, s.withToast(new ArrayList<NodeSource>(windows)).size());
    }

    @Test
    public void notificationsThatAreNotToastsAreIgnored() {
        ManualClock clock = new ManualClock();
        EventCounter c = new EventCounter(clock);
        ScreenEvents s = new ScreenEvents(c, clock);
        s.onEvent(ScreenEvents.TYPE_NOTIFICATION_STATE_CHANGED, "com.whatsapp", "android.app.Notification", text("New message"), true);
        assertNull(s.toastNode());
        assertEquals(0, c.seq());
    }

    @Test
    public void aToastWithSeveralTextsJoinsThem() {
        ManualClock clock = new ManualClock();
        ScreenEvents s = new ScreenEvents(new EventCounter(clock), clock);
        s.onEvent(ScreenEvents.TYPE_NOTIFICATION_STATE_CHANGED, "com.example", "android.widget.Toast", text("Saved", "Undo"), true);
        assertEquals("Saved, Undo", s.toastNode().text().toString());
    }
}
