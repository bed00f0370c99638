package android.util;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/util/Log
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public final class Log {
    private Log() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public static int i(String tag, String msg) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public static int e(String tag, String msg, Throwable tr) {
        throw new RuntimeException("Stub!");
    }
}
