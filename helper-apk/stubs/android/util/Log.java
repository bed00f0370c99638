package android.util;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/util/Log
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
    public static int w(String tag, String msg) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public static int e(String tag, String msg, Throwable tr) {
        throw new RuntimeException("Stub!");
    }
}
