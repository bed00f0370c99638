package android.os;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/os/Process
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class Process {
    // API 1
    public static final int THREAD_PRIORITY_DISPLAY = -4;

    private Process() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public static final void setThreadPriority(int priority) throws IllegalArgumentException, SecurityException {
        throw new RuntimeException("Stub!");
    }
}
