package dev.flow.helper;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Serves flow-helper-v1 sessions on a listening socket (PROTOCOL.md "Start
 * and stop"): one session at a time, a second connection gets the busy line
 * and is closed, a session that drops without quit leaves the helper
 * listening so flow can connect again, and quit ends run(). On the phone the
 * socket is a LocalServerSocket (HelperServer); tests use TCP.
 */
public final class SessionServer {
    /** One accepted connection. */
    public interface Connection extends Closeable {
        InputStream input() throws IOException;

        OutputStream output() throws IOException;
    }

    /** The listening socket. */
    public interface Listener extends Closeable {
        Connection accept() throws IOException;

        /**
         * Makes a blocked accept return, by connecting to itself: closing a
         * LocalServerSocket does not interrupt accept on every release.
         */
        void wake();
    }

    private final Listener listener;
    private final Device device;
    private final Runnable sessionSetup;
    private final Object lock = new Object();
    private boolean busy;
    private volatile boolean quit;

    public SessionServer(Listener listener, Device device) {
        this(listener, device, null);
    }

    /**
     * sessionSetup runs first on each session thread (the phone raises its
     * priority there); a failure of it is logged and the session goes on.
     */
    public SessionServer(Listener listener, Device device, Runnable sessionSetup) {
        this.listener = listener;
        this.device = device;
        this.sessionSetup = sessionSetup;
    }

    /** Accepts until a session asks to quit, then closes the listener. */
    public void run() throws IOException {
        try {
            while (!quit) {
                final Connection c = listener.accept();
                if (quit) {
                    c.close();
                    break;
                }
                boolean refuse;
                synchronized (lock) {
                    refuse = busy;
                    busy = true;
                }
                if (refuse) {
                    refuse(c);
                    continue;
                }
                Thread session = new Thread(new Runnable() {
                    public void run() {
                        serve(c);
                    }
                }, "flow-helper-session");
                session.start();
            }
        } finally {
            listener.close();
        }
    }

    /** Whether a session asked to quit. */
    public boolean quitRequested() {
        return quit;
    }

    private void refuse(Connection c) {
        try {
            OutputStream out = c.output();
            out.write(Protocol.busyLine().getBytes(Protocol.UTF8));
            out.flush();
        } catch (IOException e) {
            // The second client went away first; nothing to tell it.
        } finally {
            closeQuietly(c);
        }
    }

    private void serve(Connection c) {
        try {
            if (sessionSetup != null) {
                try {
                    sessionSetup.run();
                } catch (Throwable t) {
                    logQuietly("session setup", t);
                }
            }
            Protocol p = new Protocol(device);
            if (p.serve(new BufferedInputStream(c.input(), 64 * 1024), c.output())) {
                quit = true;
            }
        } catch (Throwable t) {
            // This is the thread's top: on Android anything uncaught here
            // kills the whole helper (RuntimeInit.KillApplicationHandler),
            // an Error as much as an exception. The session ends; the
            // helper keeps listening.
            logQuietly("session", t);
        } finally {
            closeQuietly(c);
            synchronized (lock) {
                busy = false;
            }
            if (quit) {
                listener.wake();
            }
        }
    }

    private void logQuietly(String what, Throwable t) {
        try {
            device.log(what, t);
        } catch (Throwable ignored) {
            // Logging itself failed (out of memory): nothing more to do.
        }
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
