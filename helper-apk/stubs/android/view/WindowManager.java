package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/WindowManager
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public interface WindowManager {
    // API 1
    @Deprecated // in API 30
    Display getDefaultDisplay();
}
