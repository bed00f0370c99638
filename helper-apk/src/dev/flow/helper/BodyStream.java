package dev.flow.helper;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The bytes that follow a request line (PROTOCOL.md "Framing"), read
 * straight off the connection: a media body of hundreds of megabytes goes
 * to its destination in CHUNK-sized pieces instead of one array, which a
 * phone's heap (dalvik.vm.heapgrowthlimit) cannot hold. It never reads past
 * its length, and a connection that ends early breaks the wire.
 */
public final class BodyStream extends InputStream {
    /** The most copy() holds or writes at once. */
    public static final int CHUNK = 64 * 1024;

    private final InputStream in;
    private final long length;
    private long left;

    public BodyStream(InputStream in, long length) {
        this.in = in;
        this.length = length;
        this.left = length;
    }

    /** How many bytes the request announced. */
    public long length() {
        return length;
    }

    @Override
    public int read() throws IOException {
        if (left == 0) {
            return -1;
        }
        int b = in.read();
        if (b < 0) {
            throw cut();
        }
        left--;
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (left == 0) {
            return -1;
        }
        int n = in.read(buf, off, (int) Math.min(len, left));
        if (n < 0) {
            throw cut();
        }
        left -= n;
        return n;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(in.available(), left);
    }

    /** Copies what is left to out, at most CHUNK bytes per write; returns how many. */
    public long copyTo(OutputStream out) throws IOException {
        byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(1, left))];
        long copied = 0;
        int n;
        while ((n = read(buf, 0, buf.length)) > 0) {
            out.write(buf, 0, n);
            copied += n;
        }
        return copied;
    }

    /**
     * Reads and drops what is left, so the next request starts on a line
     * boundary whatever happened to this one.
     */
    public void drain() throws IOException {
        byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(1, left))];
        while (read(buf, 0, buf.length) > 0) {
            // dropped
        }
    }

    /** Closing a body drains it; the connection stays open. */
    @Override
    public void close() throws IOException {
        drain();
    }

    private EOFException cut() {
        return new EOFException("the connection ended after " + (length - left) + " of " + length + " announced bytes");
    }
}
