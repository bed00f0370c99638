package android.content;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/ClipboardManager
 * (signatures). Each member says the API level that added it; the helper's
 * minSdk is 24 (helper-apk/manifest.go).
 */
public class ClipboardManager {
    ClipboardManager() {
        throw new RuntimeException("Stub!");
    }

    // API 11
    public void setPrimaryClip(ClipData clip) {
        throw new RuntimeException("Stub!");
    }
}
