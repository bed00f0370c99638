package dev.flow.helper;

/**
 * One accessibility node as XmlWriter reads it. On the phone it wraps an
 * AccessibilityNodeInfo (AccessibilityNodeSource); in tests it is a plain
 * object, which is what lets the serialization run on the JVM.
 */
public interface NodeSource {
    CharSequence text();

    CharSequence resourceId();

    CharSequence className();

    CharSequence packageName();

    CharSequence contentDescription();

    /** Empty where the platform has no hint text (API < 26). */
    CharSequence hintText();

    boolean checkable();

    boolean checked();

    boolean clickable();

    boolean enabled();

    boolean focusable();

    boolean focused();

    boolean scrollable();

    boolean longClickable();

    boolean password();

    boolean selected();

    boolean visibleToUser();

    /** Fills {left, top, right, bottom} in screen pixels. */
    void boundsInScreen(int[] ltrb);

    int childCount();

    /** May be null: a child can vanish between childCount and getChild. */
    NodeSource child(int index);

    /** Releases the node (AccessibilityNodeInfo.recycle); no call follows. */
    void recycle();
}
