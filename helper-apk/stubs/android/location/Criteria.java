package android.location;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/location/Criteria
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class Criteria {
    // API 1
    public static final int POWER_LOW = 1;
    // API 1
    public static final int ACCURACY_FINE = 1;

    private Criteria() {
        throw new RuntimeException("Stub!");
    }
}
