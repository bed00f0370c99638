package android.accessibilityservice;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/accessibilityservice/AccessibilityServiceInfo
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class AccessibilityServiceInfo {
    // API 16
    public static final int FLAG_INCLUDE_NOT_IMPORTANT_VIEWS = 0x2;
    // API 18
    public static final int FLAG_REPORT_VIEW_IDS = 0x10;
    // API 21
    public static final int FLAG_RETRIEVE_INTERACTIVE_WINDOWS = 0x40;

    // API 4
    public int flags;

    private AccessibilityServiceInfo() {
        throw new RuntimeException("Stub!");
    }
}
