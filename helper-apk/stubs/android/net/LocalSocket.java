package android.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/net/LocalSocket
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class LocalSocket {
    // API 1
    public LocalSocket() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void connect(LocalSocketAddress endpoint) throws IOException {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public InputStream getInputStream() throws IOException {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public OutputStream getOutputStream() throws IOException {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void close() throws IOException {
        throw new RuntimeException("Stub!");
    }
}
