package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;

import org.junit.Test;

public class UiConnectionTest {
    /** Records the calls; connected says what getServiceInfo would return. */
    static final class FakeAutomation implements UiConnection.Automation {
        final List<String> calls = new ArrayList<String>();
        boolean connected = true;
        boolean cacheCleared = true;

        public boolean dropCache() {
            calls.add("clearCache");
            return cacheCleared;
        }

        public boolean resetServiceInfo() {
            calls.add("getServiceInfo");
            if (!connected) {
                return false;
            }
            calls.add("setServiceInfo");
            return true;
        }

        public boolean connected() {
            calls.add("getServiceInfo");
            return connected;
        }
    }

    @Test
    public void api34ClearsTheCacheWithoutTouchingTheServiceInfo() throws Exception {
        FakeAutomation a = new FakeAutomation();
        UiConnection.refresh(34, a);
        assertEquals("[clearCache]", a.calls.toString());
    }

    @Test
    public void olderReleasesResetTheServiceInfo() throws Exception {
        FakeAutomation a = new FakeAutomation();
        UiConnection.refresh(33, a);
        assertEquals("[getServiceInfo, setServiceInfo]", a.calls.toString());
    }

    @Test
    public void aDeadConnectionIsDeviceUnavailable() throws Exception {
        for (int sdk : new int[] {24, 33, 34, 36}) {
            FakeAutomation a = new FakeAutomation();
            a.connected = false;
            a.cacheCleared = false;
            try {
                UiConnection.refresh(sdk, a);
                fail("API " + sdk + ": a read on a dead connection must not answer an empty screen");
            } catch (HelperException e) {
                assertEquals(HelperException.DEVICE_UNAVAILABLE, e.code());
                assertEquals("UiAutomation disconnected", e.getMessage());
            }
        }
    }

    @Test
    public void aCacheClearCacheCouldNotReachIsClearedTheOldWay() throws Exception {
        FakeAutomation a = new FakeAutomation();
        a.cacheCleared = false;
        UiConnection.refresh(35, a);
        assertEquals("[clearCache, getServiceInfo, setServiceInfo]", a.calls.toString());
    }
}
