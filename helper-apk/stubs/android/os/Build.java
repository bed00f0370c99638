package android.os;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/os/Build.VERSION
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class Build {
    private Build() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public static class VERSION {
        // Not a compile-time constant on the device either: it is read at run time.
        // API 4
        public static final int SDK_INT;

        static {
            SDK_INT = 0;
        }

        private VERSION() {
            throw new RuntimeException("Stub!");
        }
    }
}
