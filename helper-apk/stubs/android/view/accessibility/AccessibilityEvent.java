package android.view.accessibility;

import java.util.List;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/accessibility/AccessibilityEvent
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class AccessibilityEvent {
    private AccessibilityEvent() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public int getEventType() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public CharSequence getPackageName() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public CharSequence getClassName() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public List<CharSequence> getText() {
        throw new RuntimeException("Stub!");
    }

    // API 4
    public boolean isEnabled() {
        throw new RuntimeException("Stub!");
    }
}
