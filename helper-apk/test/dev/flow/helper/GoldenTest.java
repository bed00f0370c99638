package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.json.JSONObject;
import org.junit.Test;

/**
 * TouchPlan and PointerEventSchedule against test/golden, which
 * helper-apk/golden_test.go writes from exec/android: the payload Lower
 * writes for every plan the planner makes, the schedule Schedule builds from
 * it, and the refusal validate answers for each broken rule.
 */
public class GoldenTest {
    static String step(PointerEventSchedule.Event e) {
        StringBuilder b = new StringBuilder();
        b.append(PointerEventSchedule.actionName(e.action)).append(':').append(e.sampleIndex).append(':')
                .append(e.pointerCount()).append(':').append(e.offsetMs).append(':').append(e.waitForDispatch);
        for (int p = 0; p < e.pointerCount(); p++) {
            b.append(' ').append(p).append('=').append(String.format("%08x", Float.floatToRawIntBits(e.xs[p])))
                    .append(',').append(String.format("%08x", Float.floatToRawIntBits(e.ys[p])));
        }
        return b.toString();
    }

    @Test
    public void schedulesAndRefusalsMatchExecAndroid() throws Exception {
        File dir = Files.dir("flow.golden");
        int accepted = 0;
        int refused = 0;
        for (File json : Files.list(dir, ".json")) {
            String base = json.getPath().substring(0, json.getPath().length() - ".json".length());
            JSONObject payload = new JSONObject(Files.read(json));
            File err = new File(base + ".err");
            if (err.exists()) {
                String want = Files.read(err).trim();
                try {
                    TouchPlan.parse(payload);
                    fail(json.getName() + ": accepted; exec/android refuses it with \"" + want + "\"");
                } catch (HelperException e) {
                    assertEquals(json.getName(), want, e.getMessage());
                    assertEquals(json.getName(), HelperException.INVALID_ARGS, e.code());
                }
                refused++;
                continue;
            }
            List<String> got = new ArrayList<String>();
            for (PointerEventSchedule.Event e : PointerEventSchedule.create(TouchPlan.parse(payload))) {
                got.add(step(e));
            }
            assertEquals(json.getName(), Files.lines(new File(base + ".steps")), got);
            accepted++;
        }
        if (accepted < 10 || refused < 10) {
            fail("too few golden cases: " + accepted + " accepted, " + refused + " refused");
        }
    }
}
