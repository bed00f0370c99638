package dev.flow.helper;

import android.content.ClipData;
import android.content.ClipboardManager;
import android.os.Build;
import android.os.Bundle;
import android.view.accessibility.AccessibilityNodeInfo;

/**
 * The focused input node as TextEntry types into it. A paste is what a
 * person's paste is: the text on the clipboard, then ACTION_PASTE, which
 * TextView performs as its context menu's Paste at the cursor
 * (TextView.performAccessibilityActionInternal → onTextContextMenuItem(ID_PASTE)),
 * so the app sees one edit at the cursor and the field's hint, dots or caps
 * never come back in.
 *
 * Side effect, said in docs/android.md: the device clipboard holds the last
 * character typed (Android 10+ lets only the focused app or the input method
 * read the clipboard, so the helper cannot restore what was there).
 */
final class NodeField implements TextEntry.Field {
    private final AccessibilityNodeInfo node;
    private final ClipboardManager clipboard;

    NodeField(AccessibilityNodeInfo node, ClipboardManager clipboard) {
        this.node = node;
        this.clipboard = clipboard;
    }

    public CharSequence text() {
        return node.getText();
    }

    public boolean password() {
        return node.isPassword();
    }

    public boolean showingHint() {
        return Build.VERSION.SDK_INT >= 26 && node.isShowingHintText();
    }

    public int selectionStart() {
        return node.getTextSelectionStart();
    }

    public int selectionEnd() {
        return node.getTextSelectionEnd();
    }

    public boolean paste(String chars) {
        if (clipboard == null) {
            return false;
        }
        clipboard.setPrimaryClip(ClipData.newPlainText("flow inputText", chars));
        return node.performAction(AccessibilityNodeInfo.ACTION_PASTE);
    }

    public boolean setText(String value, int cursor) {
        Bundle args = new Bundle();
        args.putCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE, value);
        if (!node.performAction(AccessibilityNodeInfo.ACTION_SET_TEXT, args)) {
            return false;
        }
        // Typing goes on where a person's would: after the new text.
        Bundle sel = new Bundle();
        sel.putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_START_INT, cursor);
        sel.putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_END_INT, cursor);
        node.performAction(AccessibilityNodeInfo.ACTION_SET_SELECTION, sel);
        return true;
    }

    public void refresh() {
        node.refresh();
    }
}
