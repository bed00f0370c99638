package android.content;

import java.io.FileNotFoundException;
import java.io.OutputStream;

import android.net.Uri;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/ContentResolver
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public abstract class ContentResolver {
    private ContentResolver(Context context) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public final Uri insert(Uri url, ContentValues values) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public final int delete(Uri url, String where, String[] selectionArgs) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public final OutputStream openOutputStream(Uri uri) throws FileNotFoundException {
        throw new RuntimeException("Stub!");
    }
}
