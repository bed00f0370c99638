package android.content;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/ClipData
 * (signatures). Each member says the API level that added it; the helper's
 * minSdk is 24 (helper-apk/manifest.go).
 */
public class ClipData {
    ClipData() {
        throw new RuntimeException("Stub!");
    }

    // API 11
    public static ClipData newPlainText(CharSequence label, CharSequence text) {
        throw new RuntimeException("Stub!");
    }
}
