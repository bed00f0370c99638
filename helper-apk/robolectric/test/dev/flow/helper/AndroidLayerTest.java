package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import android.app.Activity;
import android.app.Instrumentation;
import android.content.ClipboardManager;
import android.content.Context;
import android.os.Bundle;
import android.os.SystemClock;
import android.text.InputType;
import android.view.KeyEvent;
import android.view.MotionEvent;
import android.view.View;
import android.view.ViewGroup;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityManager;
import android.view.accessibility.AccessibilityNodeInfo;
import android.widget.ArrayAdapter;
import android.widget.Button;
import android.widget.EditText;
import android.widget.LinearLayout;
import android.widget.ListView;
import android.widget.TextView;
import android.widget.Toast;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.json.JSONObject;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.Shadows;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.ConscryptMode;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadows.ShadowInstrumentation;
import org.robolectric.shadows.ShadowSystemClock;
import org.robolectric.util.ReflectionHelpers;

/**
 * The helper's android.* layer on the Android framework's own code (API 35
 * under Robolectric 4.17), with real Activities built in code.
 *
 * The threads are a phone's: the app's main looper runs on its own thread
 * (LooperMode INSTRUMENTATION_TEST) and the test plays the helper's session
 * thread, which asks and waits.
 *
 * What Robolectric cannot host is UiAutomation's connection to
 * system_server: getServiceInfo/setServiceInfo, getWindows, findFocus,
 * getRootInActiveWindow and the accessibility event stream all need it
 * (Robolectric's UiAutomation answers null or an empty list, and sends no
 * event), so AndroidDevice as a whole does not run here. Each piece is tested at the
 * narrowest seam instead:
 * - nodes: the window's root AccessibilityNodeInfo is made by the view
 *   (createAccessibilityNodeInfo) and linked with setQueryFromAppProcessEnabled
 *   (API 34), so getChild, findFocus, refresh and performAction run through the
 *   framework's AccessibilityInteractionController to the UI thread, as
 *   UiAutomation's queries do on a phone, only without the binder hop;
 * - input: UiAutomationDispatcher injects through the UiAutomation Robolectric's
 *   Instrumentation hands out (ShadowUiAutomation.injectInputEvent dispatches to
 *   the window under the event, as InputDispatcher would);
 * - events: AccessibilityEvents gets AccessibilityEvent objects built as the
 *   framework builds them.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, qualifiers = "w360dp-h800dp-xxhdpi")
@LooperMode(LooperMode.Mode.INSTRUMENTATION_TEST)
@ConscryptMode(ConscryptMode.Mode.OFF)
public class AndroidLayerTest {
    /** An EditText that records the keys it is given. */
    public static final class RecordingEditText extends EditText {
        final List<Integer> keys = Collections.synchronizedList(new ArrayList<Integer>());

        public RecordingEditText(Context c) {
            super(c);
        }

        @Override
        public boolean onKeyDown(int keyCode, KeyEvent event) {
            keys.add(keyCode);
            return super.onKeyDown(keyCode, event);
        }
    }

    /** A login form: e-mail with a hint, a password, a button, a scrolling list. */
    public static final class LoginActivity extends Activity {
        RecordingEditText email;
        EditText password;
        Button signIn;
        ListView list;
        volatile int clicks;

        @Override
        protected void onCreate(Bundle saved) {
            super.onCreate(saved);
            LinearLayout root = new LinearLayout(this);
            root.setOrientation(LinearLayout.VERTICAL);
            // On a phone the helper asks for views not important for
            // accessibility too (FLAG_INCLUDE_NOT_IMPORTANT_VIEWS, which
            // system_server adds to each query); a query from the app's own
            // process carries no service flags and folds plain layouts into
            // their parents. Marking the form important keeps its node as a
            // phone would show it.
            root.setImportantForAccessibility(View.IMPORTANT_FOR_ACCESSIBILITY_YES);
            email = new RecordingEditText(this);
            email.setId(android.R.id.edit);
            email.setHint("Email");
            email.setSingleLine(true);
            root.addView(email);
            password = new EditText(this);
            password.setId(android.R.id.input);
            password.setHint("Password");
            password.setInputType(InputType.TYPE_CLASS_TEXT | InputType.TYPE_TEXT_VARIATION_PASSWORD);
            root.addView(password);
            signIn = new Button(this);
            signIn.setId(android.R.id.button1);
            signIn.setText("Sign in");
            signIn.setOnClickListener(new View.OnClickListener() {
                public void onClick(View v) {
                    clicks++;
                }
            });
            root.addView(signIn);
            list = new ListView(this);
            list.setId(android.R.id.list);
            List<String> items = new ArrayList<String>();
            for (int i = 1; i <= 40; i++) {
                items.add("Item " + i);
            }
            list.setAdapter(new ArrayAdapter<String>(this, android.R.layout.simple_list_item_1, items));
            root.addView(list, new LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, 0, 1));
            setContentView(root);
        }
    }

    /** A view that keeps a copy of every MotionEvent it is given. */
    public static final class TouchView extends View {
        final List<MotionEvent> events = Collections.synchronizedList(new ArrayList<MotionEvent>());

        public TouchView(Context c) {
            super(c);
        }

        @Override
        public boolean onTouchEvent(MotionEvent e) {
            events.add(MotionEvent.obtain(e));
            return true;
        }
    }

    public static final class TouchActivity extends Activity {
        TouchView view;

        @Override
        protected void onCreate(Bundle saved) {
            super.onCreate(saved);
            view = new TouchView(this);
            setContentView(view);
        }
    }

    /**
     * The device clock as TouchInjector reads it: Robolectric's
     * SystemClock, which sleeping moves forward, so a schedule's offsets
     * pass in the app's time without the test waiting them out.
     */
    static final TouchInjector.Clock CLOCK = new TouchInjector.Clock() {
        public long uptimeMillis() {
            return SystemClock.uptimeMillis();
        }

        public void sleepUntil(long t) {
            long d = t - SystemClock.uptimeMillis();
            if (d > 0) {
                ShadowSystemClock.advanceBy(Duration.ofMillis(d));
            }
        }
    };

    private Instrumentation ins;
    private Context context;

    @Before
    public void setUp() {
        ins = ShadowInstrumentation.getInstrumentation();
        context = ins.getTargetContext();
        // Views fill their accessibility nodes only while accessibility is on.
        AccessibilityManager am = (AccessibilityManager) context.getSystemService(Context.ACCESSIBILITY_SERVICE);
        Shadows.shadowOf(am).setEnabled(true);
    }

    private <T extends Activity> T start(final Class<T> cls) {
        final AtomicReference<T> a = new AtomicReference<T>();
        ins.runOnMainSync(new Runnable() {
            public void run() {
                a.set(Robolectric.buildActivity(cls).setup().get());
            }
        });
        ins.waitForIdleSync();
        ins.runOnMainSync(new Runnable() {
            public void run() {
                // What WindowManagerService tells a window once its app is
                // visible (IWindow.dispatchAppVisibility); Robolectric has no
                // WMS, and without it every view reports itself invisible.
                ReflectionHelpers.callInstanceMethod(a.get().getWindow().getDecorView().getViewRootImpl(), "dispatchAppVisibility",
                        ReflectionHelpers.ClassParameter.from(boolean.class, true));
            }
        });
        ins.waitForIdleSync();
        return a.get();
    }

    /** The window's root node, linked to the window as UiAutomation's nodes are. */
    private AccessibilityNodeInfo rootNode(final Activity a) {
        final AtomicReference<AccessibilityNodeInfo> n = new AtomicReference<AccessibilityNodeInfo>();
        ins.runOnMainSync(new Runnable() {
            public void run() {
                View decor = a.getWindow().getDecorView();
                AccessibilityNodeInfo root = decor.createAccessibilityNodeInfo();
                root.setQueryFromAppProcessEnabled(decor, true);
                n.set(root);
            }
        });
        return n.get();
    }

    private int[] display() {
        double[] density = new double[1];
        return new Screens(null, context).display(density);
    }

    private static final Pattern NODE = Pattern.compile("<node ([^>]*?)/?>");
    private static final Pattern ATTR = Pattern.compile("([\\w-]+)=\"([^\"]*)\"");

    /** Each node's attributes, in document order. */
    private static List<Map<String, String>> nodes(String xml) {
        List<Map<String, String>> out = new ArrayList<Map<String, String>>();
        Matcher m = NODE.matcher(xml);
        while (m.find()) {
            Map<String, String> attrs = new LinkedHashMap<String, String>();
            Matcher a = ATTR.matcher(m.group(1));
            while (a.find()) {
                attrs.put(a.group(1), a.group(2));
            }
            out.add(attrs);
        }
        return out;
    }

    private static Map<String, String> byId(List<Map<String, String>> nodes, String id) {
        for (Map<String, String> n : nodes) {
            if (id.equals(n.get("resource-id"))) {
                return n;
            }
        }
        throw new AssertionError("no node with resource-id " + id + " in " + nodes);
    }

    /** A view's bounds on screen, from View's own geometry, as Maestro writes them. */
    private String bounds(final View v, int width, int height) {
        final int[] loc = new int[4];
        ins.runOnMainSync(new Runnable() {
            public void run() {
                int[] xy = new int[2];
                v.getLocationOnScreen(xy);
                loc[0] = xy[0];
                loc[1] = xy[1];
                loc[2] = xy[0] + v.getWidth();
                loc[3] = xy[1] + v.getHeight();
            }
        });
        return "[" + Math.max(0, loc[0]) + "," + Math.max(0, loc[1]) + "][" + Math.min(width, loc[2]) + "," + Math.min(height, loc[3]) + "]";
    }

    /** The attributes of Maestro's ViewHierarchy.kt dumpNodeRec, every one on every node. */
    private static final List<String> MAESTRO_ATTRIBUTES = Arrays.asList("index", "hintText", "text", "resource-id", "class", "package",
            "content-desc", "checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable",
            "password", "selected", "visible-to-user", "bounds");

    @Test
    public void theLoginFormReadsAsMaestrosDump() {
        LoginActivity a = start(LoginActivity.class);
        int[] d = display();
        assertEquals("the display the qualifiers ask for (360x800 dp at xxhdpi)", 1080, d[0]);
        assertEquals(2400, d[1]);
        XmlWriter.Result x = XmlWriter.write(d[2], Collections.<NodeSource>singletonList(new AccessibilityNodeSource(rootNode(a))), d[0], d[1], 5000, 128);
        List<Map<String, String>> nodes = nodes(x.xml);
        assertEquals(x.xml, x.nodes, nodes.size());
        for (Map<String, String> n : nodes) {
            List<String> names = new ArrayList<String>(n.keySet());
            Collections.sort(names);
            List<String> want = new ArrayList<String>(MAESTRO_ATTRIBUTES);
            Collections.sort(want);
            assertEquals(n.toString(), want, names);
        }

        Map<String, String> email = byId(nodes, "android:id/edit");
        assertEquals("android.widget.EditText", email.get("class"));
        assertEquals(context.getPackageName(), email.get("package"));
        // An empty field's accessibility text is its hint (TextView.getTextForAccessibility).
        assertEquals("Email", email.get("text"));
        assertEquals("Email", email.get("hintText"));
        assertEquals("true", email.get("clickable"));
        assertEquals("true", email.get("focusable"));
        assertEquals("true", email.get("enabled"));
        assertEquals("false", email.get("password"));
        assertEquals("true", email.get("visible-to-user"));
        assertEquals(bounds(a.email, d[0], d[1]), email.get("bounds"));

        Map<String, String> password = byId(nodes, "android:id/input");
        assertEquals("true", password.get("password"));
        assertEquals("Password", password.get("hintText"));
        assertEquals(bounds(a.password, d[0], d[1]), password.get("bounds"));

        Map<String, String> button = byId(nodes, "android:id/button1");
        assertEquals("android.widget.Button", button.get("class"));
        // The theme's buttons are textAllCaps, and accessibility reads the
        // caps (TextView.getTextForAccessibility): Maestro's dump shows the same.
        assertEquals("SIGN IN", button.get("text"));
        assertEquals("true", button.get("clickable"));
        assertEquals("false", button.get("password"));
        assertEquals(bounds(a.signIn, d[0], d[1]), button.get("bounds"));

        // index is the position among the parent's children (the form's LinearLayout).
        assertEquals("0", email.get("index"));
        assertEquals("1", password.get("index"));
        assertEquals("2", button.get("index"));

        Map<String, String> list = byId(nodes, "android:id/list");
        assertEquals("3", list.get("index"));
        assertEquals("android.widget.ListView", list.get("class"));
        assertEquals("40 rows do not fit: the list scrolls", "true", list.get("scrollable"));
        assertEquals(bounds(a.list, d[0], d[1]), list.get("bounds"));
        // The rows on screen are there, in order, and the ones off screen are not.
        int rows = 0;
        for (Map<String, String> n : nodes) {
            if (n.get("text").startsWith("Item ")) {
                rows++;
                assertEquals("Item " + rows, n.get("text"));
                assertEquals("android.widget.TextView", n.get("class"));
            }
        }
        assertTrue("rows on screen: " + rows, rows > 3 && rows < 40);
    }

    private static JSONObject tapPlan(float x, float y) throws Exception {
        // A tap as exec/android lowers it (test/golden/tap.json): one contact, held 50 ms.
        return new JSONObject("{\"protocol\":\"android-touch-plan-v1\",\"kind\":\"swipe\",\"durationMs\":50,\"pointers\":[{\"pointerId\":0,\"samples\":["
                + "{\"offsetMs\":0,\"x\":" + x + ",\"y\":" + y + "},{\"offsetMs\":17,\"x\":" + x + ",\"y\":" + y + "},"
                + "{\"offsetMs\":33,\"x\":" + x + ",\"y\":" + y + "},{\"offsetMs\":50,\"x\":" + x + ",\"y\":" + y + "}]}]}");
    }

    @Test
    public void aTapFromTheInjectorReachesTheButtonsOnClickListener() throws Exception {
        final LoginActivity a = start(LoginActivity.class);
        final int[] c = new int[2];
        ins.runOnMainSync(new Runnable() {
            public void run() {
                int[] xy = new int[2];
                a.signIn.getLocationOnScreen(xy);
                c[0] = xy[0] + a.signIn.getWidth() / 2;
                c[1] = xy[1] + a.signIn.getHeight() / 2;
            }
        });
        UiAutomationDispatcher dispatcher = new UiAutomationDispatcher(ins.getUiAutomation());
        List<PointerEventSchedule.Event> events = PointerEventSchedule.create(TouchPlan.parse(tapPlan(c[0], c[1])));
        TouchInjector.Result r = TouchInjector.run(events, CLOCK, dispatcher);
        ins.waitForIdleSync();
        assertEquals(events.size(), r.injectedEvents);
        assertEquals(1, a.clicks);

        // The same tap beside the button does not click it.
        TouchInjector.run(PointerEventSchedule.create(TouchPlan.parse(tapPlan(c[0], 5))), CLOCK, dispatcher);
        ins.waitForIdleSync();
        assertEquals(1, a.clicks);
    }

    private static String actionName(int action) {
        switch (action & MotionEvent.ACTION_MASK) {
            case MotionEvent.ACTION_DOWN:
                return "DOWN";
            case MotionEvent.ACTION_UP:
                return "UP";
            case MotionEvent.ACTION_MOVE:
                return "MOVE";
            case MotionEvent.ACTION_POINTER_DOWN:
                return "POINTER_DOWN";
            case MotionEvent.ACTION_POINTER_UP:
                return "POINTER_UP";
            case MotionEvent.ACTION_CANCEL:
                return "CANCEL";
            default:
                return "action " + action;
        }
    }

    @Test
    public void aPinchArrivesInOnTouchEventAsTheScheduleSays() throws Exception {
        TouchActivity a = start(TouchActivity.class);
        File golden = new File(System.getProperty("flow.golden"), "pinch_in");
        String plan = new String(Files.readAllBytes(new File(golden.getPath() + ".json").toPath()), StandardCharsets.UTF_8);
        // The schedule exec/android.Schedule makes (helper-apk/golden_test.go writes
        // it): "ACTION:sample:pointers:offsetMs:sync index=xbits,ybits …".
        List<String> want = new ArrayList<String>();
        for (String line : Files.readAllLines(new File(golden.getPath() + ".steps").toPath(), StandardCharsets.UTF_8)) {
            if (line.trim().isEmpty()) {
                continue;
            }
            String[] f = line.trim().split(" ");
            String[] head = f[0].split(":");
            StringBuilder b = new StringBuilder(head[0]).append(" pointers=").append(head[2]).append(" at=").append(head[3]);
            if (head[0].startsWith("POINTER_")) {
                b.append(" index=1");
            }
            for (int i = 1; i < f.length; i++) {
                String[] p = f[i].split("[=,]");
                float x = Float.intBitsToFloat((int) Long.parseLong(p[1], 16));
                float y = Float.intBitsToFloat((int) Long.parseLong(p[2], 16));
                b.append(String.format(" id%s=%.2f,%.2f", p[0], x, y));
            }
            want.add(b.toString());
        }
        UiAutomationDispatcher dispatcher = new UiAutomationDispatcher(ins.getUiAutomation());
        TouchInjector.run(PointerEventSchedule.create(TouchPlan.parse(new JSONObject(plan))), CLOCK, dispatcher);
        ins.waitForIdleSync();
        List<String> got = new ArrayList<String>();
        synchronized (a.view.events) {
            for (MotionEvent e : a.view.events) {
                StringBuilder b = new StringBuilder(actionName(e.getAction())).append(" pointers=").append(e.getPointerCount())
                        .append(" at=").append(e.getEventTime() - e.getDownTime());
                int masked = e.getActionMasked();
                if (masked == MotionEvent.ACTION_POINTER_DOWN || masked == MotionEvent.ACTION_POINTER_UP) {
                    b.append(" index=").append(e.getActionIndex());
                }
                for (int i = 0; i < e.getPointerCount(); i++) {
                    b.append(String.format(" id%d=%.2f,%.2f", e.getPointerId(i), e.getRawX(i), e.getRawY(i)));
                }
                got.add(b.toString());
            }
        }
        assertEquals(want, got);
    }

    /** Types as AndroidDevice does, with the focused node found from the window's root. */
    private String type(final LoginActivity a, String text, final List<Long> pauses) throws Exception {
        final UiAutomationDispatcher dispatcher = new UiAutomationDispatcher(ins.getUiAutomation());
        final ClipboardManager clipboard = (ClipboardManager) context.getSystemService(Context.CLIPBOARD_SERVICE);
        return TextEntry.type(text, new TextEntry.Target() {
            public void key(int code, int meta, boolean longPress) throws HelperException {
                dispatcher.key(code, meta, longPress);
            }

            public String insertText(String chars) throws HelperException {
                AccessibilityNodeInfo focused = rootNode(a).findFocus(AccessibilityNodeInfo.FOCUS_INPUT);
                assertNotNull("no input focus", focused);
                return TextEntry.insert(new NodeField(focused, clipboard), chars);
            }

            public void pause(long ms) {
                pauses.add(ms);
            }
        });
    }

    private void focus(final EditText field, final String text) {
        ins.runOnMainSync(new Runnable() {
            public void run() {
                field.setText(text);
                field.requestFocus();
                field.setSelection(text.length());
            }
        });
        ins.waitForIdleSync();
    }

    private String textOf(final EditText field) {
        final AtomicReference<String> s = new AtomicReference<String>();
        ins.runOnMainSync(new Runnable() {
            public void run() {
                s.set(field.getText().toString());
            }
        });
        return s.get();
    }

    private static final String TEXT = "héllo 中文 🚀";

    @Test
    public void inputTextIntoAnEmptyFieldLeavesExactlyThatText() throws Exception {
        LoginActivity a = start(LoginActivity.class);
        focus(a.email, "");
        List<Long> pauses = new ArrayList<Long>();
        assertEquals(TextEntry.PASTE, type(a, TEXT, pauses));
        assertEquals(TEXT, textOf(a.email));
        assertEquals("75 ms after every character but the last", Collections.nCopies(TEXT.codePointCount(0, TEXT.length()) - 1, 75L), pauses);
    }

    @Test
    public void inputTextIntoThePasswordFieldLeavesExactlyThatText() throws Exception {
        LoginActivity a = start(LoginActivity.class);
        focus(a.password, "");
        assertEquals(TextEntry.PASTE, type(a, TEXT, new ArrayList<Long>()));
        assertEquals(TEXT, textOf(a.password));
        // Typing on after text that accessibility shows as dots adds to the
        // real text, at the cursor.
        focus(a.password, "pw");
        type(a, TEXT, new ArrayList<Long>());
        assertEquals("pw" + TEXT, textOf(a.password));
    }

    @Test
    public void keysReachOnKeyDown() throws Exception {
        LoginActivity a = start(LoginActivity.class);
        focus(a.email, "abc");
        UiAutomationDispatcher dispatcher = new UiAutomationDispatcher(ins.getUiAutomation());
        dispatcher.key(KeyText.KEYCODE_DEL, 0, false);
        dispatcher.key(KeyEvent.KEYCODE_Z, KeyEvent.META_SHIFT_ON, false);
        ins.waitForIdleSync();
        assertEquals(Arrays.asList(KeyEvent.KEYCODE_DEL, KeyEvent.KEYCODE_Z), a.email.keys);
        assertEquals("abZ", textOf(a.email));
    }

    /**
     * The event a text toast sends, built as the framework builds it (AOSP
     * frameworks/base/core/java/android/widget/ToastPresenter.java
     * trySendAccessibilityEvent: TYPE_NOTIFICATION_STATE_CHANGED, class
     * Toast, the app's package, then the toast's view populates the text).
     */
    private AccessibilityEvent toastEvent(final String message) {
        final AtomicReference<AccessibilityEvent> e = new AtomicReference<AccessibilityEvent>();
        ins.runOnMainSync(new Runnable() {
            public void run() {
                AccessibilityEvent ev = AccessibilityEvent.obtain(AccessibilityEvent.TYPE_NOTIFICATION_STATE_CHANGED);
                ev.setClassName(Toast.class.getName());
                ev.setPackageName(context.getPackageName());
                TextView view = new TextView(context);
                view.setText(message);
                view.dispatchPopulateAccessibilityEvent(ev);
                e.set(ev);
            }
        });
        return e.get();
    }

    @Test
    public void aToastBecomesMaestrosToastNodeFor3500Ms() {
        final long[] now = {0};
        TouchInjector.Clock clock = new TouchInjector.Clock() {
            public long uptimeMillis() {
                return now[0];
            }

            public void sleepUntil(long t) {
                now[0] = t;
            }
        };
        ScreenEvents screen = new ScreenEvents(new EventCounter(clock), clock);
        new AccessibilityEvents(screen, new Runnable() {
            public void run() {
            }
        }).onAccessibilityEvent(toastEvent("Saved"));
        NodeSource toast = screen.toastNode();
        assertNotNull(toast);
        assertEquals("Saved", toast.text().toString());
        assertEquals("android.widget.Toast", toast.className().toString());
        assertTrue(toast.visibleToUser());
        now[0] = 3501;
        assertEquals(null, screen.toastNode());
    }

    private static AccessibilityEvent event(int type, String pkg) {
        AccessibilityEvent e = AccessibilityEvent.obtain(type);
        e.setPackageName(pkg);
        e.setClassName("android.widget.TextView");
        return e;
    }

    @Test
    public void settleCountsTheForegroundAppsEventsOnly() {
        final long[] now = {0};
        TouchInjector.Clock clock = new TouchInjector.Clock() {
            public long uptimeMillis() {
                return now[0];
            }

            public void sleepUntil(long t) {
                now[0] = t;
            }
        };
        EventCounter counter = new EventCounter(clock);
        ScreenEvents screen = new ScreenEvents(counter, clock);
        final int[] rereads = {0};
        AccessibilityEvents listener = new AccessibilityEvents(screen, new Runnable() {
            public void run() {
                rereads[0]++;
            }
        });
        screen.setPackages(Arrays.asList(context.getPackageName(), "com.google.android.inputmethod.latin"));
        listener.onAccessibilityEvent(event(AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED, "com.android.systemui"));
        listener.onAccessibilityEvent(event(AccessibilityEvent.TYPE_VIEW_SCROLLED, "com.android.systemui"));
        assertEquals(0, counter.seq());
        listener.onAccessibilityEvent(event(AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED, context.getPackageName()));
        listener.onAccessibilityEvent(event(AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED, "com.google.android.inputmethod.latin"));
        assertEquals(2, counter.seq());
        assertEquals(0, rereads[0]);
        listener.onAccessibilityEvent(event(AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED, "com.android.systemui"));
        assertEquals(3, counter.seq());
        assertEquals("a window change re-reads the foreground packages", 1, rereads[0]);
    }

    /** The pure classes' copies of platform constants are the platform's. */
    @Test
    public void platformConstantsMatchTheFramework() {
        assertEquals(AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED, ScreenEvents.TYPE_WINDOW_STATE_CHANGED);
        assertEquals(AccessibilityEvent.TYPE_NOTIFICATION_STATE_CHANGED, ScreenEvents.TYPE_NOTIFICATION_STATE_CHANGED);
        assertEquals(AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED, ScreenEvents.TYPE_WINDOW_CONTENT_CHANGED);
        assertEquals(AccessibilityEvent.TYPE_VIEW_SCROLLED, ScreenEvents.TYPE_VIEW_SCROLLED);
        assertEquals(AccessibilityEvent.TYPE_WINDOWS_CHANGED, ScreenEvents.TYPE_WINDOWS_CHANGED);
        assertEquals(Toast.class.getName(), ScreenEvents.TOAST_CLASS);
        assertEquals(KeyEvent.KEYCODE_BACK, KeyText.KEYCODE_BACK);
        assertEquals(KeyEvent.KEYCODE_TAB, KeyText.KEYCODE_TAB);
        assertEquals(KeyEvent.KEYCODE_ENTER, KeyText.KEYCODE_ENTER);
        assertEquals(KeyEvent.KEYCODE_DEL, KeyText.KEYCODE_DEL);
        assertEquals(MotionEvent.ACTION_DOWN, PointerEventSchedule.ACTION_DOWN);
        assertEquals(MotionEvent.ACTION_UP, PointerEventSchedule.ACTION_UP);
        assertEquals(MotionEvent.ACTION_MOVE, PointerEventSchedule.ACTION_MOVE);
        assertEquals(MotionEvent.ACTION_CANCEL, PointerEventSchedule.ACTION_CANCEL);
        assertEquals(MotionEvent.ACTION_POINTER_DOWN | (1 << MotionEvent.ACTION_POINTER_INDEX_SHIFT), PointerEventSchedule.ACTION_POINTER_DOWN_1);
        assertEquals(MotionEvent.ACTION_POINTER_UP | (1 << MotionEvent.ACTION_POINTER_INDEX_SHIFT), PointerEventSchedule.ACTION_POINTER_UP_1);
    }
}
