package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/KeyEvent
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
