package dev.flow.helper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;

import android.accessibilityservice.AccessibilityServiceInfo;
import android.app.UiAutomation;
import android.content.ClipboardManager;
import android.content.Context;
import android.content.Intent;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.location.LocationManager;
import android.os.Build;
import android.util.Log;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityWindowInfo;

/** The phone behind Protocol: UiAutomation and the platform services. */
final class AndroidDevice implements Device {
    static final String TAG = "flow-helper";

    private final UiAutomation automation;
    private final Context context;
    private final UiAutomationDispatcher dispatcher;
    private final Screens screens;
    private final MockLocation location;
    private final EventCounter events;
    private final UiConnection.Automation connection;
    private final ScreenEvents screenEvents;
    private final ClipboardManager clipboard;
    private final long versionCode;

    AndroidDevice(UiAutomation automation, Context context) {
        this.automation = automation;
        this.context = context;
        this.dispatcher = new UiAutomationDispatcher(automation);
        this.events = new EventCounter(dispatcher);
        this.screenEvents = new ScreenEvents(events, dispatcher);
        this.clipboard = (ClipboardManager) context.getSystemService(Context.CLIPBOARD_SERVICE);
        this.screens = new Screens(automation, context);
        this.connection = new UiConnection.Automation() {
            public boolean dropCache() {
                return Build.VERSION.SDK_INT >= 34 && AndroidDevice.this.automation.clearCache();
            }

            public boolean resetServiceInfo() {
                AccessibilityServiceInfo info = serviceInfo();
                if (info == null) {
                    return false;
                }
                AndroidDevice.this.automation.setServiceInfo(info);
                return true;
            }

            public boolean connected() {
                return serviceInfo() != null;
            }
        };
        this.location = new MockLocation((LocationManager) context.getSystemService(Context.LOCATION_SERVICE));
        // Read once: every hierarchy read asks for info().
        this.versionCode = versionCode(context);
        // Every window, every view (not only "important" ones) and view ids,
        // as UiDevice configures Maestro's dumps.
        AccessibilityServiceInfo info = automation.getServiceInfo();
        info.flags |= AccessibilityServiceInfo.FLAG_RETRIEVE_INTERACTIVE_WINDOWS
                | AccessibilityServiceInfo.FLAG_INCLUDE_NOT_IMPORTANT_VIEWS
                | AccessibilityServiceInfo.FLAG_REPORT_VIEW_IDS;
        automation.setServiceInfo(info);
        automation.setOnAccessibilityEventListener(new AccessibilityEvents(screenEvents, new Runnable() {
            public void run() {
                screenEvents.setPackages(screens.foregroundPackages());
            }
        }));
    }

    void close() {
        location.close();
        automation.setOnAccessibilityEventListener(null);
    }

    public Info info() {
        double[] density = new double[1];
        int[] d = screens.display(density);
        return new Info(versionCode, Build.VERSION.SDK_INT, d[0], d[1], d[2], density[0]);
    }

    @SuppressWarnings("deprecation")
    private static long versionCode(Context context) {
        try {
            return context.getPackageManager().getPackageInfo(context.getPackageName(), 0).versionCode;
        } catch (PackageManager.NameNotFoundException e) {
            return 0;
        }
    }

    public long eventSeq() {
        return events.seq();
    }

    public void waitForIdle(long quietMs, long timeoutMs) {
        try {
            automation.waitForIdle(quietMs, timeoutMs);
        } catch (TimeoutException e) {
            // A screen that never idles is read as it is (PROTOCOL.md hierarchy).
        }
    }

    public boolean waitForQuiet(long quietMs, long timeoutMs) throws InterruptedException {
        // Whose events count is read now, not only on window changes: the
        // app may have come forward before the helper saw any event.
        screenEvents.setPackages(screens.foregroundPackages());
        return events.waitForQuiet(quietMs, timeoutMs);
    }

    public void refresh() throws HelperException {
        UiConnection.refresh(Build.VERSION.SDK_INT, connection);
    }

    /**
     * null when the connection is gone; UiAutomation throws "Not connected!"
     * instead once it was disconnected on its own side.
     */
    private AccessibilityServiceInfo serviceInfo() {
        try {
            return automation.getServiceInfo();
        } catch (IllegalStateException notConnected) {
            return null;
        }
    }

    public List<NodeSource> windowRoots() throws HelperException {
        List<NodeSource> roots = screens.roots();
        if (roots.isEmpty()) {
            // No window at all is what a dead connection shows.
            UiConnection.check(connection);
        }
        return screenEvents.withToast(roots);
    }

    public Box appWindow() throws HelperException {
        Box app = screens.window(AccessibilityWindowInfo.TYPE_APPLICATION);
        if (app != null) {
            return app;
        }
        // No app window: a dead connection shows none (API 34+ reads no longer ask).
        UiConnection.check(connection);
        Info i = info();
        return new Box(0, 0, i.width, i.height);
    }

    public Box inputMethodWindow() {
        return screens.window(AccessibilityWindowInfo.TYPE_INPUT_METHOD);
    }

    public TouchInjector.Result touch(List<PointerEventSchedule.Event> events) throws HelperException {
        try {
            return TouchInjector.run(events, dispatcher, dispatcher);
        } catch (HelperException refused) {
            // A dead connection refuses every injection.
            UiConnection.check(connection);
            throw refused;
        }
    }

    public void key(int code, int meta, boolean longPress) throws HelperException {
        try {
            dispatcher.key(code, meta, longPress);
        } catch (HelperException refused) {
            UiConnection.check(connection);
            throw refused;
        }
    }

    @SuppressWarnings("deprecation") // recycle: needed below API 33, a no-op from it
    public String insertText(String chars) throws HelperException {
        AccessibilityNodeInfo node = automation.findFocus(AccessibilityNodeInfo.FOCUS_INPUT);
        if (node == null) {
            throw new HelperException(HelperException.COMMAND_FAILED, "no focused input field to set the text on",
                    "tap a text field before inputText");
        }
        try {
            return TextEntry.insert(new NodeField(node, clipboard), chars);
        } finally {
            node.recycle();
        }
    }

    public void pause(long ms) throws InterruptedException {
        Thread.sleep(ms);
    }

    public Capture screenshot() throws HelperException {
        Capture c = screens.capture();
        if (c == null) {
            UiConnection.check(connection);
            throw new HelperException(HelperException.COMMAND_FAILED, "the screen could not be captured",
                    "the screen may be off or locked, or the display was changing (a rotation); wake and unlock the device"
                            + " and retry. A secure window (FLAG_SECURE) does not cause this: it is captured black");
        }
        if (c.black) {
            Log.w(TAG, "the screenshot is all black: a secure window (FLAG_SECURE) or a screen that is off");
        }
        return c;
    }

    public void launch(String pkg, List<Extra> extras) throws HelperException {
        Intent intent = context.getPackageManager().getLaunchIntentForPackage(pkg);
        if (intent == null) {
            throw new HelperException(HelperException.COMMAND_FAILED, pkg + " has no launchable activity",
                    "check the appId and that the app is installed (adb shell pm list packages " + pkg + ")");
        }
        intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK);
        for (Extra e : extras) {
            if (e.value instanceof String) {
                intent.putExtra(e.key, (String) e.value);
            } else if (e.value instanceof Boolean) {
                intent.putExtra(e.key, ((Boolean) e.value).booleanValue());
            } else if (e.value instanceof Integer) {
                intent.putExtra(e.key, ((Integer) e.value).intValue());
            } else if (e.value instanceof Long) {
                intent.putExtra(e.key, ((Long) e.value).longValue());
            } else {
                intent.putExtra(e.key, ((Double) e.value).doubleValue());
            }
        }
        context.startActivity(intent);
    }

    public List<String> requestedPermissions(String pkg) throws HelperException {
        PackageInfo info;
        try {
            info = context.getPackageManager().getPackageInfo(pkg, PackageManager.GET_PERMISSIONS);
        } catch (PackageManager.NameNotFoundException e) {
            throw new HelperException(HelperException.COMMAND_FAILED, pkg + " is not installed",
                    "check the appId (adb shell pm list packages " + pkg + ")");
        }
        return info.requestedPermissions == null ? new ArrayList<String>() : Arrays.asList(info.requestedPermissions);
    }

    public void setLocation(double lat, double lon) throws HelperException {
        location.set(lat, lon);
    }

    public String addMedia(String name, String ext, BodyStream body) throws HelperException {
        return new Media(context.getContentResolver()).add(name, ext, body);
    }

    public void log(String op, Throwable t) {
        Log.e(TAG, "op " + op + " failed", t);
    }
}
