package dev.flow.helper;

import android.graphics.Rect;
import android.os.Build;
import android.view.accessibility.AccessibilityNodeInfo;

/** An AccessibilityNodeInfo as XmlWriter reads it. */
final class AccessibilityNodeSource implements NodeSource {
    private final AccessibilityNodeInfo node;
    private final Rect rect = new Rect();

    AccessibilityNodeSource(AccessibilityNodeInfo node) {
        this.node = node;
    }

    public CharSequence text() {
        return node.getText();
    }

    public CharSequence resourceId() {
        return node.getViewIdResourceName();
    }

    public CharSequence className() {
        return node.getClassName();
    }

    public CharSequence packageName() {
        return node.getPackageName();
    }

    public CharSequence contentDescription() {
        return node.getContentDescription();
    }

    public CharSequence hintText() {
        // getHintText arrived in API 26; below it there is none to report.
        return Build.VERSION.SDK_INT >= 26 ? node.getHintText() : "";
    }

    public boolean checkable() {
        return node.isCheckable();
    }

    public boolean checked() {
        return node.isChecked();
    }

    public boolean clickable() {
        return node.isClickable();
    }

    public boolean enabled() {
        return node.isEnabled();
    }

    public boolean focusable() {
        return node.isFocusable();
    }

    public boolean focused() {
        return node.isFocused();
    }

    public boolean scrollable() {
        return node.isScrollable();
    }

    public boolean longClickable() {
        return node.isLongClickable();
    }

    public boolean password() {
        return node.isPassword();
    }

    public boolean selected() {
        return node.isSelected();
    }

    public boolean visibleToUser() {
        return node.isVisibleToUser();
    }

    public void boundsInScreen(int[] ltrb) {
        node.getBoundsInScreen(rect);
        ltrb[0] = rect.left;
        ltrb[1] = rect.top;
        ltrb[2] = rect.right;
        ltrb[3] = rect.bottom;
    }

    public int childCount() {
        return node.getChildCount();
    }

    public NodeSource child(int index) {
        AccessibilityNodeInfo c = node.getChild(index);
        return c == null ? null : new AccessibilityNodeSource(c);
    }

    @SuppressWarnings("deprecation") // needed below API 33, a no-op from it
    public void recycle() {
        node.recycle();
    }
}
