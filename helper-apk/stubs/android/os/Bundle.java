package android.os;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/os/Bundle
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go). The platform declares getString, putString and
 * putInt on BaseBundle, Bundle's superclass.
 */
public final class Bundle {
    // API 1
    public Bundle() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public String getString(String key) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void putString(String key, String value) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void putCharSequence(String key, CharSequence value) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void putInt(String key, int value) {
        throw new RuntimeException("Stub!");
    }
}
