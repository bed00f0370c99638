package android.net;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/net/LocalSocketAddress
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class LocalSocketAddress {
    // API 1
    public LocalSocketAddress(String name) {
        throw new RuntimeException("Stub!");
    }
}
