package dev.flow.helper;

/**
 * The helper's UiAutomation connection as the session sees it: how a read
 * drops the node cache, and how the helper notices that the connection is
 * gone.
 *
 * The connection belongs to the `am instrument` process that started the
 * helper (AOSP UiAutomationConnection: system_server unregisters the
 * automation when that process's binder token dies). The helper process
 * outlives it; from then on getServiceInfo() is null, getWindows() is
 * empty and every injection is refused, so a read would answer "ok" with
 * an empty screen. The helper instead answers DEVICE_UNAVAILABLE
 * "UiAutomation disconnected" and ends the session; flow starts a new one.
 */
final class UiConnection {
    /** UiAutomation.clearCache arrived in API 34. */
    static final int CLEAR_CACHE_SDK = 34;

    /** What the decisions need from UiAutomation. */
    interface Automation {
        /** UiAutomation.clearCache (API 34+): true when the cache was cleared. */
        boolean dropCache();

        /**
         * Sets the service info to itself, which clears the node cache on
         * every release; false when getServiceInfo() is null.
         */
        boolean resetServiceInfo();

        /** getServiceInfo() is not null. */
        boolean connected();
    }

    private UiConnection() {
    }

    /**
     * Drops the node cache before a read. From API 34 clearCache does it
     * without a binder call; before, the only public way is to set the
     * service info again (two binder calls and a state change in
     * system_server per read), which also says whether the connection is
     * there.
     */
    static void refresh(int sdk, Automation a) throws HelperException {
        if (sdk >= CLEAR_CACHE_SDK && a.dropCache()) {
            return;
        }
        // Below 34, or a cache clearCache could not reach: the old way.
        if (!a.resetServiceInfo()) {
            throw disconnected();
        }
    }

    /** DEVICE_UNAVAILABLE when the connection is gone. */
    static void check(Automation a) throws HelperException {
        if (!a.connected()) {
            throw disconnected();
        }
    }

    static HelperException disconnected() {
        return new HelperException(HelperException.DEVICE_UNAVAILABLE, "UiAutomation disconnected",
                "the UiAutomation connection ended with the `am instrument` process that owned it (the adb connection"
                        + " dropped or am was killed); flow starts a new helper session once per run");
    }
}
