package dev.flow.helper;

import java.util.List;

/**
 * What Protocol needs from the phone. AndroidDevice implements it with
 * UiAutomation and the platform services; tests script it. Methods throw
 * HelperException for refusals the wire reports with a code (a missing
 * launcher activity, a field without focus); anything else they throw is an
 * INTERNAL error. DEVICE_UNAVAILABLE means the phone can no longer be
 * served (UiAutomation disconnected): the session ends after that answer.
 */
public interface Device extends TextEntry.Target {
    /** hello's answer. */
    final class Info {
        public final long versionCode;
        public final int sdk;
        public final int width;
        public final int height;
        public final int rotation;
        public final double density;

        public Info(long versionCode, int sdk, int width, int height, int rotation, double density) {
            this.versionCode = versionCode;
            this.sdk = sdk;
            this.width = width;
            this.height = height;
            this.rotation = rotation;
            this.density = density;
        }
    }

    /** A window's bounds in screen pixels. */
    final class Box {
        public final int x;
        public final int y;
        public final int w;
        public final int h;

        public Box(int x, int y, int w, int h) {
            this.x = x;
            this.y = y;
            this.w = w;
            this.h = h;
        }
    }

    /**
     * A screen capture: the PNG, and whether every sampled pixel is black,
     * which is how secure layers (FLAG_SECURE) come back.
     */
    final class Capture {
        public final byte[] png;
        public final boolean black;

        public Capture(byte[] png, boolean black) {
            this.png = png;
            this.black = black;
        }
    }

    /** A typed launch extra: value is a String, Boolean, Integer, Long or Double. */
    final class Extra {
        public final String key;
        public final String type;
        public final Object value;

        public Extra(String key, String type, Object value) {
            this.key = key;
            this.type = type;
            this.value = value;
        }
    }

    Info info();

    /**
     * How many window-content, window-state, windows-changed and scroll
     * accessibility events
     * arrived since the helper started.
     */
    long eventSeq();

    /** UiAutomation.waitForIdle; running out of time is not an error. */
    void waitForIdle(long quietMs, long timeoutMs);

    /** Waits until no counted event arrived for quietMs; false when timeoutMs passed first. */
    boolean waitForQuiet(long quietMs, long timeoutMs) throws InterruptedException;

    /**
     * Drops the accessibility nodes and windows cached on the helper's side,
     * so the reads after it ask the app. The cache follows accessibility
     * events, and content-change events are throttled and can be missed:
     * without this a read can return a screen that is gone (Maestro clears
     * the cache before every hierarchy for the same reason).
     * DEVICE_UNAVAILABLE when UiAutomation's connection is gone.
     */
    void refresh() throws HelperException;

    /**
     * The root node of every interactive window; the caller recycles them.
     * DEVICE_UNAVAILABLE when UiAutomation's connection is gone (it then
     * sees no window at all).
     */
    List<NodeSource> windowRoots() throws HelperException;

    /** The focused application window. */
    Box appWindow() throws HelperException;

    /** The input method window, or null when no keyboard is shown. */
    Box inputMethodWindow();

    TouchInjector.Result touch(List<PointerEventSchedule.Event> events) throws HelperException;

    void key(int code, int meta, boolean longPress) throws HelperException;

    /**
     * Inserts chars at the focused input field's cursor (TextEntry.insert):
     * TextEntry.PASTE, or TextEntry.SET_TEXT when the field refused the paste.
     * No focused field is COMMAND_FAILED.
     */
    String insertText(String chars) throws HelperException;

    /** Sleeps between typed characters (TextEntry.CHARACTER_GAP_MS). */
    void pause(long ms) throws InterruptedException;

    Capture screenshot() throws HelperException;

    void launch(String pkg, List<Extra> extras) throws HelperException;

    List<String> requestedPermissions(String pkg) throws HelperException;

    void setLocation(double lat, double lon) throws HelperException;

    /**
     * Stores a file in the media store, copying body as it arrives; returns
     * its content URI.
     */
    String addMedia(String name, String ext, BodyStream body) throws HelperException;

    /** Where an unexpected failure is recorded (logcat on the phone). */
    void log(String op, Throwable t);
}
