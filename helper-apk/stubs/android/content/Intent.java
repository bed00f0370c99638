package android.content;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/Intent
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class Intent {
    // API 1
    public static final int FLAG_ACTIVITY_NEW_TASK = 0x10000000;

    private Intent() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Intent addFlags(int flags) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Intent putExtra(String name, String value) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Intent putExtra(String name, boolean value) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Intent putExtra(String name, int value) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Intent putExtra(String name, long value) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Intent putExtra(String name, double value) {
        throw new RuntimeException("Stub!");
    }
}
