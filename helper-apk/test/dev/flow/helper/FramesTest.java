package dev.flow.helper;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class FramesTest {
    /** A 1080x2400 capture, black but for one rectangle of colour. */
    static final class Screen implements Frames.Pixels {
        int l, t, r, b;
        int colour = 0xFF202020;

        public int width() {
            return 1080;
        }

        public int height() {
            return 2400;
        }

        public int argb(int x, int y) {
            return x >= l && x < r && y >= t && y < b ? colour : 0xFF000000;
        }
    }

    @Test
    public void aSecureScreenIsBlack() {
        assertTrue(Frames.black(new Screen()));
    }

    @Test
    public void anyContentIsNotBlack() {
        // A status bar's height of text, or a small dark-grey button.
        Screen bar = new Screen();
        bar.r = 1080;
        bar.b = 63;
        assertFalse(Frames.black(bar));
        Screen button = new Screen();
        button.l = 500;
        button.t = 1180;
        button.r = 580;
        button.b = 1220;
        assertFalse(Frames.black(button));
        // Transparent black is still black.
        Screen clear = new Screen();
        clear.colour = 0x00000000;
        clear.r = 1080;
        clear.b = 2400;
        assertTrue(Frames.black(clear));
    }
}
