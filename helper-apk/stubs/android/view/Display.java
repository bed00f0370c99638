package android.view;

import android.util.DisplayMetrics;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/Display
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class Display {
    private Display() {
        throw new RuntimeException("Stub!");
    }

    // API 17
    @Deprecated // in API 31
    public void getRealMetrics(DisplayMetrics outMetrics) {
        throw new RuntimeException("Stub!");
    }

    // API 8
    public int getRotation() {
        throw new RuntimeException("Stub!");
    }
}
