package dev.flow.helper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import android.net.LocalServerSocket;
import android.net.LocalSocket;
import android.net.LocalSocketAddress;

/**
 * SessionServer's socket on the phone: the abstract-namespace
 * LocalServerSocket that flow's adb forward reaches.
 */
final class HelperServer implements SessionServer.Listener {
    private final String name;
    private final LocalServerSocket server;

    HelperServer(String name) throws IOException {
        this.name = name;
        this.server = new LocalServerSocket(name);
    }

    public SessionServer.Connection accept() throws IOException {
        final LocalSocket s = server.accept();
        return new SessionServer.Connection() {
            public InputStream input() throws IOException {
                return s.getInputStream();
            }

            public OutputStream output() throws IOException {
                return s.getOutputStream();
            }

            public void close() throws IOException {
                s.close();
            }
        };
    }

    public void wake() {
        try {
            LocalSocket self = new LocalSocket();
            self.connect(new LocalSocketAddress(name));
            self.close();
        } catch (IOException ignored) {
            // accept already returned
        }
    }

    public void close() throws IOException {
        server.close();
    }
}
