package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class InstrumentationStatusTest {
    @Test
    public void acceptsOnlyFlowsSocketNames() {
        assertEquals("flow-helper-0a1b2c3d", InstrumentationStatus.socketName("flow-helper-0a1b2c3d"));
        for (String bad : new String[] {null, "flow-helper-0A1B2C3D", "flow-helper-123", "x", "flow-helper-0a1b2c3d0"}) {
            try {
                InstrumentationStatus.socketName(bad);
                fail("accepted " + bad);
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }
    }

    @Test
    public void readyBlockIsWhatFlowWaitsFor() {
        assertEquals("{flowHelper=ready, protocol=flow-helper-v1, versionCode=7, sdk=24}",
                InstrumentationStatus.ready(7, 24).toString());
        assertEquals("{flowHelper=failed, Error=no UiAutomation try again}",
                InstrumentationStatus.failed("no UiAutomation\ntry again").toString());
    }
}
