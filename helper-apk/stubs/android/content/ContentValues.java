package android.content;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/ContentValues
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
