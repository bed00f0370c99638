package dev.flow.helper;

import java.util.ArrayList;
import java.util.List;

/**
 * Text entry. Printable ASCII, tab and newline are typed as key events of
 * Android's virtual keyboard map (Virtual.kcm, a US layout on every device),
 * so apps see real keystrokes; anything else is set on the focused input
 * node, which is how flow types any Unicode where Maestro refuses it.
 */
public final class KeyText {
    public static final int KEYCODE_BACK = 4;
    public static final int KEYCODE_DEL = 67;
    /** KeyEvent.META_SHIFT_ON | META_SHIFT_LEFT_ON. */
    public static final int META_SHIFT = 0x1 | 0x40;

    private static final int[] CODE = new int[128];
    private static final boolean[] SHIFT = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            CODE[c] = 29 + (c - 'a');
            CODE[Character.toUpperCase(c)] = 29 + (c - 'a');
            SHIFT[Character.toUpperCase(c)] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            CODE[c] = 7 + (c - '0');
        }
        String shiftedDigits = ")!@#$%^&*(";
        for (int d = 0; d < 10; d++) {
            put(shiftedDigits.charAt(d), 7 + d, true);
        }
        put(' ', 62, false);
        put('\t', 61, false);
        put('\n', 66, false);
        put('`', 68, false);
        put('~', 68, true);
        put('-', 69, false);
        put('_', 69, true);
        put('=', 70, false);
        put('+', 70, true);
        put('[', 71, false);
        put('{', 71, true);
        put(']', 72, false);
        put('}', 72, true);
        put('\\', 73, false);
        put('|', 73, true);
        put(';', 74, false);
        put(':', 74, true);
        put('\'', 75, false);
        put('"', 75, true);
        put(',', 55, false);
        put('<', 55, true);
        put('.', 56, false);
        put('>', 56, true);
        put('/', 76, false);
        put('?', 76, true);
    }

    private static void put(char c, int code, boolean shift) {
        CODE[c] = code;
        SHIFT[c] = shift;
    }

    private KeyText() {
    }

    /** Whether every character has a key (then method is "keys"). */
    public static boolean keyable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 128 || CODE[c] == 0) {
                return false;
            }
        }
        return true;
    }

    /** {keyCode, metaState} per character of a keyable text. */
    public static List<int[]> keys(String text) {
        List<int[]> out = new ArrayList<int[]>(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 128 || CODE[c] == 0) {
                throw new IllegalArgumentException("no key types U+" + Integer.toHexString(c));
            }
            out.add(new int[] {CODE[c], SHIFT[c] ? META_SHIFT : 0});
        }
        return out;
    }

    /**
     * The text to set on a field that shows current (or only its hint, which
     * is not its text) when typing added.
     */
    public static String appended(CharSequence current, boolean showingHint, String added) {
        if (current == null || showingHint) {
            return added;
        }
        return current.toString() + added;
    }
}
