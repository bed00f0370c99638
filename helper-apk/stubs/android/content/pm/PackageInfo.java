package android.content.pm;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/content/pm/PackageInfo
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
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
