package android.content.pm;

import android.content.Intent;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/pm/PackageManager
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public abstract class PackageManager {
    // API 1
    public static final int GET_PERMISSIONS = 0x1000;

    // API 1
    public static class NameNotFoundException extends Exception {
        private static final long serialVersionUID = 1L;

        private NameNotFoundException() {
            throw new RuntimeException("Stub!");
        }
    }

    private PackageManager() {
        throw new RuntimeException("Stub!");
    }

    // API 3
    public abstract Intent getLaunchIntentForPackage(String packageName);

    // API 1
    public abstract PackageInfo getPackageInfo(String packageName, int flags) throws NameNotFoundException;
}
