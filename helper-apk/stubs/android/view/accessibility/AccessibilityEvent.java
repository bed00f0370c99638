package android.view.accessibility;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/accessibility/AccessibilityEvent
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class AccessibilityEvent {
    // API 4
    public static final int TYPE_WINDOW_STATE_CHANGED = 0x20;
    // API 14
    public static final int TYPE_WINDOW_CONTENT_CHANGED = 0x800;
    // API 14
    public static final int TYPE_VIEW_SCROLLED = 0x1000;
    // API 21
    public static final int TYPE_WINDOWS_CHANGED = 0x400000;

    private AccessibilityEvent() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public int getEventType() {
        throw new RuntimeException("Stub!");
    }
}
