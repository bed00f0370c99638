package android.os;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/os/Bundle
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
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
