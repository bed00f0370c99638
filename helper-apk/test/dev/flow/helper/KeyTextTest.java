package dev.flow.helper;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class KeyTextTest {
    @Test
    public void onlyNewlineAndTabAreKeys() {
        // KeyEvent codes: ENTER=66, TAB=61.
        assertEquals(66, KeyText.special('\n'));
        assertEquals(61, KeyText.special('\t'));
        for (int c : new int[] {'a', 'Z', '1', ' ', '!', '<', 'é', 0x1F680, '\r'}) {
            assertEquals("U+" + Integer.toHexString(c) + " is text, not a key", 0, KeyText.special(c));
        }
    }
}
