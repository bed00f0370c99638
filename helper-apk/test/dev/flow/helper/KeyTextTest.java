package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.Test;

public class KeyTextTest {
    private static String keys(String text) {
        StringBuilder b = new StringBuilder();
        for (int[] k : KeyText.keys(text)) {
            b.append(k[0]).append(k[1] != 0 ? "S" : "").append(' ');
        }
        return b.toString().trim();
    }

    @Test
    public void typesLettersDigitsAndShiftedSymbols() {
        // KeyEvent codes: A=29 … Z=54, 0=7 … 9=16, SPACE=62, ENTER=66.
        assertEquals("29 54S 8 8S 62 66", keys("aZ1! \n"));
        assertEquals("55S 56S 75S 76S", keys("<>\"?"));
    }

    @Test
    public void everyPrintableAsciiCharacterHasItsOwnKey() {
        Map<String, Character> seen = new HashMap<String, Character>();
        for (char c = 0x20; c < 0x7f; c++) {
            String s = String.valueOf(c);
            assertTrue("no key for " + s, KeyText.keyable(s));
            int[] k = KeyText.keys(s).get(0);
            Character other = seen.put(k[0] + "/" + k[1], c);
            if (other != null) {
                throw new AssertionError("'" + c + "' and '" + other + "' share key " + k[0] + "/" + k[1]);
            }
        }
    }

    @Test
    public void leavesEverythingElseToSetText() {
        assertFalse(KeyText.keyable("héllo"));
        assertFalse(KeyText.keyable("👋"));
        assertFalse(KeyText.keyable("a\u0000"));
        assertTrue(KeyText.keyable(""));
    }

    @Test
    public void appendsToTheFieldsTextButNotToItsHint() {
        assertEquals("abcdé", KeyText.appended("abc", false, "dé"));
        assertEquals("dé", KeyText.appended("Email", true, "dé"));
        assertEquals("dé", KeyText.appended(null, false, "dé"));
    }
}
