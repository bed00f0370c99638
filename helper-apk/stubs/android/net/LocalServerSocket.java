package android.net;

import java.io.IOException;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/net/LocalServerSocket
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class LocalServerSocket {
    // API 1
    public LocalServerSocket(String name) throws IOException {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public LocalSocket accept() throws IOException {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void close() throws IOException {
        throw new RuntimeException("Stub!");
    }
}
