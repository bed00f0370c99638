package dev.flow.helper;

/**
 * inputText (PROTOCOL.md text). Each character goes to the focused field at
 * its cursor, one by one with Maestro's gap between them; newline and tab are
 * key presses (KeyText.special). A character is pasted (the clipboard and
 * ACTION_PASTE, what a person's paste does), never "the field's text plus the
 * new text": AccessibilityNodeInfo.getText() is what the field displays, which
 * is its hint when it is empty (undetectable below API 26), dots in a password
 * field and upper case under textAllCaps (TextView.getTextForAccessibility),
 * so reading it and setting it back would type the hint or the dots (review
 * row M4). ACTION_SET_TEXT stays as the fallback for fields that refuse a
 * paste, and only where the field's own text can be known.
 */
public final class TextEntry {
    /**
     * The pause after each typed character: Maestro's inputText sleeps 75 ms
     * after every character (maestro-android MaestroDriverService.kt,
     * inputText: `Thread.sleep(75)`). Controlled inputs (React Native
     * TextInput with value=, Compose state) drop or reorder characters that
     * arrive back to back (review row M7).
     */
    public static final long CHARACTER_GAP_MS = 75;

    /** What the wire's text answer says: how the characters went in. */
    public static final String PASTE = "paste";
    public static final String SET_TEXT = "setText";
    public static final String KEYS = "keys";

    /** The focused input field, as the phone exposes it to accessibility. */
    public interface Field {
        /** What the field displays: its hint when empty, dots when a password. */
        CharSequence text();

        boolean password();

        /** Whether text() is the hint; false below API 26, where it cannot be told. */
        boolean showingHint();

        /** The cursor, or the selection a paste replaces; -1 when unknown. */
        int selectionStart();

        int selectionEnd();

        /** Puts chars on the clipboard and pastes them at the cursor; false when refused. */
        boolean paste(String chars);

        /** Replaces the whole text and puts the cursor at cursor; false when refused. */
        boolean setText(String value, int cursor);

        /** Reads the field again after an action (AccessibilityNodeInfo.refresh). */
        void refresh();
    }

    /** Where typing goes: the phone, behind Device. */
    public interface Target {
        void key(int code, int meta, boolean longPress) throws HelperException;

        /** Inserts chars at the focused field's cursor; answers PASTE or SET_TEXT. */
        String insertText(String chars) throws HelperException;

        void pause(long ms) throws InterruptedException;
    }

    private TextEntry() {
    }

    /**
     * Types text character by character (a character is a code point, so a
     * surrogate pair is never split) with CHARACTER_GAP_MS after each, and
     * answers KEYS, PASTE or SET_TEXT (SET_TEXT when any character needed the
     * fallback).
     */
    public static String type(String text, Target target) throws HelperException, InterruptedException {
        String method = KEYS;
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            int n = Character.charCount(cp);
            int key = KeyText.special(cp);
            if (key != 0) {
                target.key(key, 0, false);
            } else {
                String how = target.insertText(text.substring(i, i + n));
                if (SET_TEXT.equals(how) || KEYS.equals(method)) {
                    method = how;
                }
            }
            i += n;
            if (i < text.length()) {
                target.pause(CHARACTER_GAP_MS);
            }
        }
        return method;
    }

    /**
     * Inserts chars into the field at its cursor: a paste, checked by reading
     * the field back (an app may answer true and ignore it), else
     * ACTION_SET_TEXT built from the field's own text where that text is
     * known. Answers PASTE or SET_TEXT.
     */
    public static String insert(Field f, String chars) throws HelperException {
        CharSequence shown = f.text();
        boolean empty = shown == null || shown.length() == 0 || f.showingHint();
        int before = empty ? 0 : shown.length();
        String beforeText = empty ? "" : shown.toString();
        if (f.paste(chars)) {
            f.refresh();
            if (changed(f, beforeText)) {
                return PASTE;
            }
        }
        // The fallback needs the field's real text: an empty field's is "",
        // a shown text is it unless it is a password's dots.
        if (!empty && f.password()) {
            throw new HelperException(HelperException.COMMAND_FAILED,
                    "the focused password field refused the paste of the text, and its current text cannot be read to add to",
                    "clear the field first (eraseText), or check that the field accepts pasted text");
        }
        int start = clamp(f.selectionStart(), before, before);
        int end = clamp(f.selectionEnd(), before, start);
        if (end < start) {
            int t = start;
            start = end;
            end = t;
        }
        String value = beforeText.substring(0, start) + chars + beforeText.substring(end);
        if (!f.setText(value, start + chars.length())) {
            throw new HelperException(HelperException.COMMAND_FAILED, "the focused field refused the text",
                    "the field may be read-only or not editable through accessibility");
        }
        // A field that still shows the same text filters the character
        // (maxLength, digits only): Maestro's key presses would be dropped
        // the same way, without an error, so typing goes on.
        return SET_TEXT;
    }

    /** Whether the field's text (hint excluded) differs from before. */
    private static boolean changed(Field f, String before) {
        CharSequence now = f.text();
        if (now == null || f.showingHint()) {
            now = "";
        }
        return !before.contentEquals(now);
    }

    /** A selection index inside [0, length], or fallback when unknown. */
    private static int clamp(int index, int length, int fallback) {
        if (index < 0 || index > length) {
            return fallback;
        }
        return index;
    }
}
