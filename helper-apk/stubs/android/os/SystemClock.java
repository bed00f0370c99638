package android.os;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/os/SystemClock
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
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
