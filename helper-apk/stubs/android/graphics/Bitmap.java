package android.graphics;

import java.io.OutputStream;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/graphics/Bitmap
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
    public int getWidth() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public int getHeight() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public int getPixel(int x, int y) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void recycle() {
        throw new RuntimeException("Stub!");
    }
}
