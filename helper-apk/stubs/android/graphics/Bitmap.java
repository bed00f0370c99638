package android.graphics;

import java.io.OutputStream;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/graphics/Bitmap
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public final class Bitmap {
    // API 1
    public enum CompressFormat {
        PNG
    }

    private Bitmap() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public boolean compress(CompressFormat format, int quality, OutputStream stream) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void recycle() {
        throw new RuntimeException("Stub!");
    }
}
