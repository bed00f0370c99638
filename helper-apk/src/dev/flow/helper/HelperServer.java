package dev.flow.helper;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;

import android.net.LocalServerSocket;
import android.net.LocalSocket;
import android.net.LocalSocketAddress;
import android.util.Log;

/**
 * The abstract-namespace socket flow forwards to. One session at a time: a
 * second connection gets the busy line and is closed. A session that drops
 * without quit leaves the helper listening, so flow can connect again; quit
 * ends it.
 */
final class HelperServer {
    private final String name;
    private final Device device;
    private final LocalServerSocket server;
    private volatile boolean busy;
    private volatile boolean quit;

    HelperServer(String name, Device device) throws IOException {
        this.name = name;
        this.device = device;
        this.server = new LocalServerSocket(name);
    }

    /** Accepts until a session asks to quit. */
    void run() throws IOException {
        try {
            while (!quit) {
                final LocalSocket s = server.accept();
                if (quit) {
                    s.close();
                    break;
                }
                if (busy) {
                    OutputStream out = s.getOutputStream();
                    out.write(Protocol.busyLine().getBytes(Protocol.UTF8));
                    out.flush();
                    s.close();
                    continue;
                }
                busy = true;
                Thread session = new Thread(new Runnable() {
                    public void run() {
                        serve(s);
                    }
                }, "flow-helper-session");
                session.start();
            }
        } finally {
            server.close();
        }
    }

    private void serve(LocalSocket s) {
        try {
            Protocol p = new Protocol(device);
            if (p.serve(new BufferedInputStream(s.getInputStream(), 64 * 1024), s.getOutputStream())) {
                quit = true;
                wakeAccept();
            }
        } catch (IOException e) {
            Log.i(AndroidDevice.TAG, "session ended: " + e);
        } finally {
            try {
                s.close();
            } catch (IOException ignored) {
                // already gone
            }
            busy = false;
        }
    }

    /**
     * Closing a LocalServerSocket does not reliably interrupt accept on
     * every release; a connection of our own does.
     */
    private void wakeAccept() {
        try {
            LocalSocket self = new LocalSocket();
            self.connect(new LocalSocketAddress(name));
            self.close();
        } catch (IOException ignored) {
            // accept already returned
        }
    }
}
