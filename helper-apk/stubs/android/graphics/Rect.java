package android.graphics;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/graphics/Rect
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public final class Rect {
    // API 1
    public int left;
    // API 1
    public int top;
    // API 1
    public int right;
    // API 1
    public int bottom;

    // API 1
    public Rect() {
        throw new RuntimeException("Stub!");
    }
}
