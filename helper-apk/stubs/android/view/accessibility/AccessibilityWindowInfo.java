package android.view.accessibility;

import android.graphics.Rect;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/accessibility/AccessibilityWindowInfo
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class AccessibilityWindowInfo {
    // API 21
    public static final int TYPE_APPLICATION = 1;
    // API 21
    public static final int TYPE_INPUT_METHOD = 2;

    private AccessibilityWindowInfo() {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public int getType() {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public AccessibilityNodeInfo getRoot() {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public void getBoundsInScreen(Rect outBounds) {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public boolean isActive() {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public boolean isFocused() {
        throw new RuntimeException("Stub!");
    }

    // API 21
    @Deprecated // in API 33: no pool any more
    public void recycle() {
        throw new RuntimeException("Stub!");
    }
}
