package android.graphics;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/graphics/Rect
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
