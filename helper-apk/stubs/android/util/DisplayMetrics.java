package android.util;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/util/DisplayMetrics
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class DisplayMetrics {
    // API 1
    public int widthPixels;
    // API 1
    public int heightPixels;
    // API 1
    public float density;

    // API 1
    public DisplayMetrics() {
        throw new RuntimeException("Stub!");
    }
}
