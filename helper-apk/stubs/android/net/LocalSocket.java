package android.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/net/LocalSocket
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
