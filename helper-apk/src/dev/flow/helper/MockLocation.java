package dev.flow.helper;

import android.location.Criteria;
import android.location.Location;
import android.location.LocationManager;
import android.os.SystemClock;

/**
 * setLocation through test providers (Maestro's approach, which works on
 * every API level). The position is sent again every second until the next
 * one or quit, because location clients drop a fix that goes stale.
 */
final class MockLocation {
    private static final String[] PROVIDERS = {LocationManager.GPS_PROVIDER, LocationManager.NETWORK_PROVIDER};

    private final LocationManager manager;
    private Thread repeater;

    MockLocation(LocationManager manager) {
        this.manager = manager;
    }

    // The ProviderProperties overload is API 31; this one works on every level.
    @SuppressWarnings("deprecation")
    synchronized void set(final double lat, final double lon) throws HelperException {
        stop();
        try {
            for (String p : PROVIDERS) {
                try {
                    manager.addTestProvider(p, false, false, false, false, true, true, true, Criteria.POWER_LOW, Criteria.ACCURACY_FINE);
                } catch (IllegalArgumentException alreadyThere) {
                    // The provider exists from an earlier call; reuse it.
                }
                manager.setTestProviderEnabled(p, true);
                push(p, lat, lon);
            }
        } catch (SecurityException e) {
            throw new HelperException(HelperException.COMMAND_FAILED, "mock locations are not allowed for the helper: " + e.getMessage(),
                    "allow them: adb shell appops set dev.flow.helper android:mock_location allow");
        }
        repeater = new Thread(new Runnable() {
            public void run() {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        Thread.sleep(1000);
                        for (String p : PROVIDERS) {
                            push(p, lat, lon);
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (Throwable t) {
                        // This is the thread's top: anything uncaught kills
                        // the helper (RuntimeInit.KillApplicationHandler).
                        // A revoked permission or a provider removed under
                        // it ends the repeats, not the session.
                        return;
                    }
                }
            }
        }, "flow-helper-location");
        repeater.setDaemon(true);
        repeater.start();
    }

    synchronized void stop() {
        if (repeater != null) {
            repeater.interrupt();
            repeater = null;
        }
    }

    /**
     * Stops and removes the test providers, so the phone's real location
     * comes back when flow is done with it.
     */
    synchronized void close() {
        boolean mocked = repeater != null;
        stop();
        if (!mocked) {
            return;
        }
        for (String p : PROVIDERS) {
            try {
                manager.removeTestProvider(p);
            } catch (IllegalArgumentException | SecurityException gone) {
                // Never added, or the permission was revoked meanwhile: nothing to undo.
            }
        }
    }

    private void push(String provider, double lat, double lon) {
        Location l = new Location(provider);
        l.setLatitude(lat);
        l.setLongitude(lon);
        l.setAccuracy(1f);
        l.setTime(System.currentTimeMillis());
        l.setElapsedRealtimeNanos(SystemClock.elapsedRealtimeNanos());
        manager.setTestProviderLocation(provider, l);
    }
}
