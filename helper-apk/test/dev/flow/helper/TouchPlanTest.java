package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.json.JSONObject;
import org.junit.Test;

/** The rules exec/android cannot express in a golden file: JSON that Go's types never produce. */
public class TouchPlanTest {
    private static String refusal(String json) throws Exception {
        try {
            TouchPlan.parse(new JSONObject(json));
        } catch (HelperException e) {
            assertEquals(HelperException.INVALID_ARGS, e.code());
            return e.getMessage();
        }
        fail("accepted " + json);
        return null;
    }

    private static String swipe(String samples) {
        return "{\"protocol\":\"android-touch-plan-v1\",\"kind\":\"swipe\",\"durationMs\":50,"
                + "\"pointers\":[{\"pointerId\":0,\"samples\":" + samples + "}]}";
    }

    @Test
    public void refusesAnotherProtocol() throws Exception {
        assertEquals("Unsupported protocol: android-touch-plan-v2",
                refusal("{\"protocol\":\"android-touch-plan-v2\",\"kind\":\"swipe\"}"));
        assertEquals("Unsupported protocol: null", refusal("{\"kind\":\"swipe\"}"));
    }

    @Test
    public void refusesFractionalOffsetsAndDurations() throws Exception {
        assertEquals("offsetMs must be a finite integer",
                refusal(swipe("[{\"offsetMs\":0,\"x\":1,\"y\":1},{\"offsetMs\":16.5,\"x\":1,\"y\":1},{\"offsetMs\":50,\"x\":1,\"y\":1}]")));
        assertEquals("durationMs must be between 0 and 120000",
                refusal(swipe("[]").replace("\"durationMs\":50", "\"durationMs\":50.5")));
    }

    @Test
    public void refusesCoordinatesThatAreNotNumbers() throws Exception {
        assertEquals("Planned sample coordinates must be finite",
                refusal(swipe("[{\"offsetMs\":0,\"x\":\"1\",\"y\":1},{\"offsetMs\":50,\"x\":1,\"y\":1}]")));
        assertEquals("Planned sample coordinates must be finite",
                refusal(swipe("[{\"offsetMs\":0,\"x\":null,\"y\":1},{\"offsetMs\":50,\"x\":1,\"y\":1}]")));
    }

    @Test
    public void acceptsIntegralDoublesAndAStationaryZeroDurationTouch() throws Exception {
        TouchPlan p = TouchPlan.parse(new JSONObject(swipe(
                "[{\"offsetMs\":0.0,\"x\":1,\"y\":2},{\"offsetMs\":50,\"x\":3.5,\"y\":4}]")));
        assertEquals(50, p.offsets[1]);
        assertEquals(3.5, p.xs[0][1], 0);
        TouchPlan still = TouchPlan.parse(new JSONObject(swipe(
                "[{\"offsetMs\":0,\"x\":1,\"y\":2},{\"offsetMs\":0,\"x\":1,\"y\":2}]").replace("\"durationMs\":50", "\"durationMs\":0")));
        assertEquals(3, PointerEventSchedule.create(still).size());
    }
}
