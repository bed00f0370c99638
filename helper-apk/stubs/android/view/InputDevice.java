package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/InputDevice
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public final class InputDevice {
    // API 9
    public static final int SOURCE_KEYBOARD = 0x101;
    // API 9
    public static final int SOURCE_TOUCHSCREEN = 0x1002;

    private InputDevice() {
        throw new RuntimeException("Stub!");
    }
}
