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

    @Test
    public void aUiAutomationHeldElsewhereNamesItsCause() {
        // The words of AOSP UiAutomationManager.registerUiTestAutomationServiceLocked.
        assertEquals("{flowHelper=failed, cause=uiautomation-busy, message=UiAutomationService"
                + " android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5e2c1 already registered!}",
                InstrumentationStatus.uiAutomationFailed(new IllegalStateException("UiAutomationService"
                        + " android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5e2c1 already registered!")).toString());
        // UiAutomation.connect's own timeout.
        assertEquals("{flowHelper=failed, cause=uiautomation-timeout, message=Error while connecting UiAutomation@1f}",
                InstrumentationStatus.uiAutomationFailed(new RuntimeException("Error while connecting UiAutomation@1f")).toString());
        assertEquals("uiautomation-timeout", InstrumentationStatus.uiAutomationFailed(new IllegalStateException()).get("cause"));
    }
}
