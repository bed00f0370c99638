package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/InputEvent
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public abstract class InputEvent {
    InputEvent() {
        throw new RuntimeException("Stub!");
    }
}
