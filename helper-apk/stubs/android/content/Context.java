package android.content;

import android.content.pm.PackageManager;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/Context
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public abstract class Context {
    // API 1
    public static final String WINDOW_SERVICE = "window";
    // API 1
    public static final String LOCATION_SERVICE = "location";
    // API 11
    public static final String CLIPBOARD_SERVICE = "clipboard";

    private Context() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public abstract Object getSystemService(String name);

    // API 1
    public abstract PackageManager getPackageManager();

    // API 1
    public abstract String getPackageName();

    // API 1
    public abstract ContentResolver getContentResolver();

    // API 1
    public abstract void startActivity(Intent intent);
}
