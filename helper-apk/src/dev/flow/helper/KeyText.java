package dev.flow.helper;

/**
 * The keys flow presses itself: BACK, DEL, and the two characters of a text
 * that are keys rather than text (review row M9). Everything else a text
 * holds goes through TextEntry's paste path: input methods consume or
 * compose hardware key events (Samsung, CJK, Gboard composing), so letters
 * sent as keys can arrive changed, reordered or not at all.
 */
public final class KeyText {
    // KeyEvent key codes (developer.android.com/reference/android/view/KeyEvent).
    public static final int KEYCODE_BACK = 4;
    public static final int KEYCODE_TAB = 61;
    public static final int KEYCODE_ENTER = 66;
    public static final int KEYCODE_DEL = 67;

    private KeyText() {
    }

    /**
     * The key a character of a text is typed with, or 0 when it is text:
     * newline is ENTER (a field's IME action, a multi-line field's line break,
     * as Maestro's inputText presses it) and tab is TAB (focus moves on).
     */
    public static int special(int codePoint) {
        switch (codePoint) {
            case '\n':
                return KEYCODE_ENTER;
            case '\t':
                return KEYCODE_TAB;
            default:
                return 0;
        }
    }
}
