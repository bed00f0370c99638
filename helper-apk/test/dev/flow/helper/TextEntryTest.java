package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;

import org.junit.Test;

/**
 * TextEntry against a field that behaves as TextView shows itself to
 * accessibility (TextView.getTextForAccessibility, AOSP
 * frameworks/base/core/java/android/widget/TextView.java): getText is the
 * hint while the field is empty, and a password's transformed dots. The
 * Robolectric lane (helper-apk/robolectric) types into real EditTexts.
 */
public class TextEntryTest {
    /** An EditText as accessibility sees it. */
    static class Field implements TextEntry.Field {
        final StringBuilder real = new StringBuilder();
        final String hint;
        final boolean password;
        final boolean hintKnown;
        boolean pasteWorks = true;
        boolean setTextWorks = true;
        int cursor;
        final List<String> actions = new ArrayList<String>();

        Field(String text, String hint, boolean password, boolean hintKnown) {
            real.append(text);
            cursor = text.length();
            this.hint = hint;
            this.password = password;
            this.hintKnown = hintKnown;
        }

        public CharSequence text() {
            if (real.length() == 0) {
                return hint;
            }
            if (password) {
                StringBuilder dots = new StringBuilder();
                for (int i = 0; i < real.length(); i++) {
                    dots.append('\u2022');
                }
                return dots;
            }
            return real.toString();
        }

        public boolean password() {
            return password;
        }

        public boolean showingHint() {
            return hintKnown && real.length() == 0 && hint != null;
        }

        public int selectionStart() {
            return cursor;
        }

        public int selectionEnd() {
            return cursor;
        }

        public boolean paste(String chars) {
            actions.add("paste " + chars);
            if (!pasteWorks) {
                return false;
            }
            real.insert(cursor, chars);
            cursor += chars.length();
            return true;
        }

        public boolean setText(String value, int c) {
            actions.add("setText " + value);
            if (!setTextWorks) {
                return false;
            }
            real.setLength(0);
            real.append(value);
            cursor = c;
            return true;
        }

        public void refresh() {
        }
    }

    /** A device that types into one Field and records keys and pauses. */
    static final class Target implements TextEntry.Target {
        final Field field;
        final List<String> log = new ArrayList<String>();

        Target(Field field) {
            this.field = field;
        }

        public void key(int code, int meta, boolean longPress) {
            log.add("key " + code);
        }

        public String insertText(String chars) throws HelperException {
            log.add("insert " + chars);
            return TextEntry.insert(field, chars);
        }

        public void pause(long ms) {
            log.add("pause " + ms);
        }
    }

    @Test
    public void anEmptyFieldGetsTheTextNotItsHint() throws Exception {
        Field f = new Field("", "Email", false, true);
        assertEquals(TextEntry.PASTE, TextEntry.type("héllo 中文 🚀", new Target(f)));
        assertEquals("héllo 中文 🚀", f.real.toString());
    }

    @Test
    public void aPasswordFieldGetsTheTextNotItsDots() throws Exception {
        Field f = new Field("ab", null, true, true);
        f.cursor = 1;
        assertEquals(TextEntry.PASTE, TextEntry.type("é🚀", new Target(f)));
        assertEquals("aé🚀b", f.real.toString());
    }

    @Test
    public void eachCharacterIsPastedWithMaestrosGapAndSurrogatePairsStayWhole() throws Exception {
        Field f = new Field("", null, false, true);
        Target t = new Target(f);
        TextEntry.type("a🚀\nb", t);
        List<String> want = new ArrayList<String>();
        want.add("insert a");
        want.add("pause 75");
        want.add("insert 🚀");
        want.add("pause 75");
        want.add("key 66");
        want.add("pause 75");
        want.add("insert b");
        assertEquals(want, t.log);
        assertEquals(75, TextEntry.CHARACTER_GAP_MS);
    }

    @Test
    public void onlyKeysWhenTheTextIsNewlinesAndTabs() throws Exception {
        Target t = new Target(new Field("", null, false, true));
        assertEquals(TextEntry.KEYS, TextEntry.type("\n\t", t));
        assertEquals("[key 66, pause 75, key 61]", t.log.toString());
    }

    @Test
    public void aRefusedPasteFallsBackToSetTextAtTheCursorBuiltFromTheRealText() throws Exception {
        Field f = new Field("hello", null, false, true);
        f.cursor = 2;
        f.pasteWorks = false;
        assertEquals(TextEntry.SET_TEXT, TextEntry.type("é", new Target(f)));
        assertEquals("heéllo", f.real.toString());
        assertEquals(3, f.cursor);
    }

    @Test
    public void aRefusedPasteIntoAnEmptyFieldShowingItsHintSetsOnlyTheText() throws Exception {
        Field f = new Field("", "Email", false, true);
        f.pasteWorks = false;
        TextEntry.type("ü", new Target(f));
        assertEquals("ü", f.real.toString());
    }

    @Test
    public void aPasteThatChangesNothingIsNotTakenForDone() throws Exception {
        // The field answers true but keeps its text (an app that ignores
        // ACTION_PASTE): the read back sees it and SET_TEXT follows.
        Field f = new Field("x", null, false, true) {
            @Override
            public boolean paste(String chars) {
                actions.add("paste " + chars);
                return true;
            }
        };
        assertEquals(TextEntry.SET_TEXT, TextEntry.insert(f, "y"));
        assertEquals("xy", f.real.toString());
    }

    @Test
    public void aPasswordThatRefusesThePasteIsRefusedRatherThanFilledWithDots() {
        Field f = new Field("secret", null, true, true);
        f.pasteWorks = false;
        try {
            TextEntry.insert(f, "é");
            fail("typed into a password field whose text cannot be read");
        } catch (HelperException e) {
            assertEquals(HelperException.COMMAND_FAILED, e.code());
            assertTrue(e.getMessage(), e.getMessage().contains("password"));
        }
        assertEquals("secret", f.real.toString());
        assertEquals("[paste é]", f.actions.toString());
    }

    @Test
    public void aFieldThatFiltersTheCharacterIsNotAnError() throws Exception {
        // maxLength reached: the paste and the text set both leave it as it
        // was, as Maestro's key presses would; typing goes on.
        Field f = new Field("1234", null, false, true) {
            @Override
            public boolean paste(String chars) {
                actions.add("paste " + chars);
                return true;
            }

            @Override
            public boolean setText(String value, int c) {
                actions.add("setText " + value);
                return true;
            }
        };
        assertEquals(TextEntry.SET_TEXT, TextEntry.insert(f, "5"));
        assertEquals("1234", f.real.toString());
        assertEquals("[paste 5, setText 12345]", f.actions.toString());
    }

    @Test
    public void aFieldThatRefusesEverythingIsCommandFailed() {
        Field f = new Field("", null, false, true);
        f.pasteWorks = false;
        f.setTextWorks = false;
        try {
            TextEntry.insert(f, "a");
            fail("no error");
        } catch (HelperException e) {
            assertEquals(HelperException.COMMAND_FAILED, e.code());
        }
    }
}
