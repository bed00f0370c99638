package android.content;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/ContentValues
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public final class ContentValues {
    // API 1
    public ContentValues() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void put(String key, String value) {
        throw new RuntimeException("Stub!");
    }
}
