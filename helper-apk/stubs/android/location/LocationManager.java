package android.location;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/location/LocationManager
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class LocationManager {
    // API 1
    public static final String GPS_PROVIDER = "gps";
    // API 1
    public static final String NETWORK_PROVIDER = "network";

    LocationManager() {
        throw new RuntimeException("Stub!");
    }

    // API 3
    @Deprecated // in API 31 for the ProviderProperties overload
    public void addTestProvider(String provider, boolean requiresNetwork, boolean requiresSatellite, boolean requiresCell,
            boolean hasMonetaryCost, boolean supportsAltitude, boolean supportsSpeed, boolean supportsBearing,
            int powerUsage, int accuracy) {
        throw new RuntimeException("Stub!");
    }

    // API 3
    public void removeTestProvider(String provider) {
        throw new RuntimeException("Stub!");
    }

    // API 3
    public void setTestProviderEnabled(String provider, boolean enabled) {
        throw new RuntimeException("Stub!");
    }

    // API 3
    public void setTestProviderLocation(String provider, Location location) {
        throw new RuntimeException("Stub!");
    }
}
