package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/KeyEvent
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class KeyEvent extends InputEvent {
    // API 1
    public static final int ACTION_DOWN = 0;
    // API 1
    public static final int ACTION_UP = 1;
    // API 5
    public static final int FLAG_LONG_PRESS = 0x80;

    // API 9
    public KeyEvent(long downTime, long eventTime, int action, int code, int repeat, int metaState, int deviceId,
            int scancode, int flags, int source) {
        throw new RuntimeException("Stub!");
    }
}
