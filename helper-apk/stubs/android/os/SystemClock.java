package android.os;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/os/SystemClock
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class SystemClock {
    private SystemClock() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public static long uptimeMillis() {
        throw new RuntimeException("Stub!");
    }

    // API 17
    public static long elapsedRealtimeNanos() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public static void sleep(long ms) {
        throw new RuntimeException("Stub!");
    }
}
