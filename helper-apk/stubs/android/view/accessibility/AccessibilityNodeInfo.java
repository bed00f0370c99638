package android.view.accessibility;

import android.graphics.Rect;
import android.os.Bundle;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/accessibility/AccessibilityNodeInfo
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class AccessibilityNodeInfo {
    // API 16
    public static final int FOCUS_INPUT = 1;
    // API 18
    public static final int ACTION_PASTE = 0x8000;
    // API 18
    public static final int ACTION_SET_SELECTION = 0x20000;
    // API 21
    public static final int ACTION_SET_TEXT = 0x200000;
    // API 21
    public static final String ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE = "ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE";
    // API 18
    public static final String ACTION_ARGUMENT_SELECTION_START_INT = "ACTION_ARGUMENT_SELECTION_START_INT";
    // API 18
    public static final String ACTION_ARGUMENT_SELECTION_END_INT = "ACTION_ARGUMENT_SELECTION_END_INT";

    AccessibilityNodeInfo() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public CharSequence getText() {
        throw new RuntimeException("Stub!");
    }

    // API 26
    public CharSequence getHintText() {
        throw new RuntimeException("Stub!");
    }

    // API 26
    public boolean isShowingHintText() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public String getViewIdResourceName() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public CharSequence getClassName() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public CharSequence getPackageName() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public CharSequence getContentDescription() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isCheckable() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isChecked() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isClickable() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isEnabled() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isFocusable() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isFocused() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isScrollable() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isLongClickable() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isPassword() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean isSelected() {
        throw new RuntimeException("Stub!");
    }

    // API 16
    public boolean isVisibleToUser() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public void getBoundsInScreen(Rect outBounds) {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public int getChildCount() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public AccessibilityNodeInfo getChild(int index) {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public int getTextSelectionStart() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public int getTextSelectionEnd() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public boolean refresh() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public boolean performAction(int action) {
        throw new RuntimeException("Stub!");
    }

    // API 16
    public boolean performAction(int action, Bundle arguments) {
        throw new RuntimeException("Stub!");
    }

    // API 14
    @Deprecated // in API 33: no pool any more
    public void recycle() {
        throw new RuntimeException("Stub!");
    }
}
