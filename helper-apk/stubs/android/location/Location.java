package android.location;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/location/Location
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class Location {
    // API 1
    public Location(String provider) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void setLatitude(double latitude) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void setLongitude(double longitude) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void setAccuracy(float horizontalAccuracy) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void setTime(long time) {
        throw new RuntimeException("Stub!");
    }

    // API 17
    public void setElapsedRealtimeNanos(long elapsedRealtimeNanos) {
        throw new RuntimeException("Stub!");
    }
}
