package android.net;

import java.io.IOException;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/net/LocalServerSocket
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
