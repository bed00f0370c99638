package android.location;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/location/Criteria
 * (signatures, constant values). Each member says the API level that
 * added it; the helper runs from minSdk 24 (helper-apk/build.go).
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
