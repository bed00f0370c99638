package dev.flow.helper;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.io.OutputStream;

import org.junit.Test;

public class BodyStreamTest {
    /** Counts what it is given and remembers the largest single write, keeping nothing. */
    static final class CountingStream extends OutputStream {
        long total;
        int largest;
        long sum;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            total += len;
            largest = Math.max(largest, len);
            for (int i = off; i < off + len; i++) {
                sum += b[i] & 0xff;
            }
        }
    }

    /** An endless source of a repeating pattern: a video that never sits in memory. */
    static final class Pattern extends InputStream {
        long pos;

        @Override
        public int read() {
            return (int) (pos++ % 251);
        }

        @Override
        public int read(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++) {
                b[off + i] = (byte) (pos++ % 251);
            }
            return len;
        }
    }

    @Test
    public void aBigBodyIsCopiedInBoundedChunks() throws Exception {
        long n = 300L << 20;
        Pattern source = new Pattern();
        CountingStream out = new CountingStream();
        assertEquals(n, new BodyStream(source, n).copyTo(out));
        assertEquals(n, out.total);
        assertEquals("never read past the body", n, source.pos);
        assertTrue("a write of " + out.largest + " bytes", out.largest <= BodyStream.CHUNK);
        long cycles = n / 251;
        long tail = n % 251;
        long want = cycles * (250 * 251 / 2) + tail * (tail - 1) / 2;
        assertEquals(want, out.sum);
    }

    @Test
    public void drainStopsAtTheBodysEnd() throws Exception {
        ByteArrayInputStream in = new ByteArrayInputStream("abcdefNEXT".getBytes("UTF-8"));
        BodyStream body = new BodyStream(in, 6);
        assertEquals('a', body.read());
        body.drain();
        assertEquals(-1, body.read());
        byte[] rest = new byte[4];
        assertEquals(4, in.read(rest));
        assertArrayEquals("NEXT".getBytes("UTF-8"), rest);
    }

    @Test
    public void aBodyCutShortBreaksTheWire() throws Exception {
        try {
            new BodyStream(new ByteArrayInputStream(new byte[3]), 10).copyTo(new CountingStream());
            fail("a short body must fail");
        } catch (EOFException e) {
            assertEquals("the connection ended after 3 of 10 announced bytes", e.getMessage());
        }
    }
}
