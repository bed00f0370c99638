package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/KeyCharacterMap
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class KeyCharacterMap {
    // API 11
    public static final int VIRTUAL_KEYBOARD = -1;

    KeyCharacterMap() {
        throw new RuntimeException("Stub!");
    }
}
