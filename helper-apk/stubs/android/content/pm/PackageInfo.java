package android.content.pm;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/pm/PackageInfo
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
 */
public class PackageInfo {
    // API 1
    public String[] requestedPermissions;
    // API 1
    @Deprecated // in API 28 for getLongVersionCode
    public int versionCode;

    private PackageInfo() {
        throw new RuntimeException("Stub!");
    }
}
