package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;

import org.json.JSONObject;
import org.junit.Test;

public class TouchInjectorTest {
    /** A clock that a sleep moves to its target plus a lag. */
    static final class FakeClock implements TouchInjector.Clock {
        long now = 5000;
        long lag;

        public long uptimeMillis() {
            return now;
        }

        public void sleepUntil(long t) {
            if (t <= now) {
                throw new AssertionError("slept to the past: " + t + " at " + now);
            }
            now = t + lag;
        }
    }

    /** Refuses the call numbered refuse (from 0); records the rest, a cancel apart. */
    static final class RecordingSink implements TouchInjector.Sink {
        final List<String> events = new ArrayList<String>();
        int refuse = -1;
        int calls;
        String cancelled;

        public boolean inject(PointerEventSchedule.Event e, long downTime, long eventTime) {
            if (calls++ == refuse) {
                return false;
            }
            String s = PointerEventSchedule.actionName(e.action) + "/" + e.pointerCount() + "@" + (eventTime - downTime);
            if (e.action == PointerEventSchedule.ACTION_CANCEL) {
                cancelled = s;
            } else {
                events.add(s);
            }
            return true;
        }
    }

    private static List<PointerEventSchedule.Event> swipe() throws Exception {
        return PointerEventSchedule.create(TouchPlan.parse(new JSONObject(
                "{\"protocol\":\"android-touch-plan-v1\",\"kind\":\"swipe\",\"durationMs\":50,\"pointers\":[{\"pointerId\":0,"
                        + "\"samples\":[{\"offsetMs\":0,\"x\":1,\"y\":1},{\"offsetMs\":17,\"x\":1,\"y\":2},"
                        + "{\"offsetMs\":33,\"x\":1,\"y\":3},{\"offsetMs\":50,\"x\":1,\"y\":4}]}]}")));
    }

    @Test
    public void injectsEachEventAtItsPlannedTimeAndReportsLateness() throws Exception {
        FakeClock clock = new FakeClock();
        clock.lag = 3;
        RecordingSink sink = new RecordingSink();
        TouchInjector.Result r = TouchInjector.run(swipe(), clock, sink);
        // Event times are the plan's even when the injection ran late.
        assertEquals("[DOWN/1@0, MOVE/1@17, MOVE/1@33, MOVE/1@50, UP/1@50]", sink.events.toString());
        assertEquals(5, r.injectedEvents);
        assertEquals(3, r.lateMs);
        assertEquals(53, r.elapsedMs);
    }

    @Test
    public void cancelsTheContactWhenAnInjectionFailsMidway() throws Exception {
        RecordingSink sink = new RecordingSink();
        sink.refuse = 2;
        try {
            TouchInjector.run(swipe(), new FakeClock(), sink);
            fail("a refused event must fail the touch");
        } catch (HelperException e) {
            assertEquals(HelperException.COMMAND_FAILED, e.code());
            assertEquals("injectInputEvent refused event 3 of 5 (MOVE at 33 ms); ACTION_CANCEL sent", e.getMessage());
        }
        assertEquals("CANCEL/1@33", sink.cancelled);
    }

    @Test
    public void cancelsNothingWhenTheDownFails() throws Exception {
        RecordingSink sink = new RecordingSink();
        sink.refuse = 0;
        try {
            TouchInjector.run(swipe(), new FakeClock(), sink);
            fail("a refused DOWN must fail the touch");
        } catch (HelperException e) {
            assertEquals("injectInputEvent refused event 1 of 5 (DOWN at 0 ms)", e.getMessage());
        }
        assertEquals(null, sink.cancelled);
    }

    @Test
    public void cancelsOnlyTheFingerStillDownAfterPointerUp() throws Exception {
        List<PointerEventSchedule.Event> pinch = PointerEventSchedule.create(TouchPlan.parse(new JSONObject(Files.read(
                new java.io.File(Files.dir("flow.golden"), "pinch_in.json")))));
        RecordingSink sink = new RecordingSink();
        sink.refuse = pinch.size() - 1;
        try {
            TouchInjector.run(pinch, new FakeClock(), sink);
            fail("a refused UP must fail the touch");
        } catch (HelperException e) {
            assertEquals(HelperException.COMMAND_FAILED, e.code());
        }
        assertEquals("POINTER_UP/2", sink.events.get(sink.events.size() - 1).replaceAll("@.*", ""));
        assertEquals("CANCEL/1", sink.cancelled.replaceAll("@.*", ""));
    }

    @Test
    public void reportsACancelTheSinkRefused() throws Exception {
        TouchInjector.Sink sink = new TouchInjector.Sink() {
            public boolean inject(PointerEventSchedule.Event e, long downTime, long eventTime) {
                return e.action == PointerEventSchedule.ACTION_DOWN;
            }
        };
        try {
            TouchInjector.run(swipe(), new FakeClock(), sink);
            fail("a refused MOVE must fail the touch");
        } catch (HelperException e) {
            assertEquals("injectInputEvent refused event 2 of 5 (MOVE at 17 ms)", e.getMessage());
        }
    }

    /**
     * Android 11+ holds a DOWN's injection while window animations run
     * (UiAutomationConnection.injectInputEvent syncs input transactions
     * before ACTION_DOWN): 400 ms here. The rest of the tap still goes out
     * as planned after it, so the finger stays down its 50 ms.
     */
    @Test
    public void aDelayedDownKeepsTheHold() throws Exception {
        final FakeClock clock = new FakeClock();
        final List<Long> injectedAt = new ArrayList<Long>();
        final List<Long> eventTimes = new ArrayList<Long>();
        TouchInjector.Sink sink = new TouchInjector.Sink() {
            public boolean inject(PointerEventSchedule.Event e, long downTime, long eventTime) {
                injectedAt.add(clock.now);
                eventTimes.add(eventTime - downTime);
                if (e.action == PointerEventSchedule.ACTION_DOWN) {
                    clock.now += 400;
                }
                return true;
            }
        };
        List<PointerEventSchedule.Event> tap = PointerEventSchedule.create(TouchPlan.parse(new JSONObject(
                "{\"protocol\":\"android-touch-plan-v1\",\"kind\":\"swipe\",\"durationMs\":50,\"pointers\":[{\"pointerId\":0,"
                        + "\"samples\":[{\"offsetMs\":0,\"x\":5,\"y\":5},{\"offsetMs\":17,\"x\":5,\"y\":5},"
                        + "{\"offsetMs\":33,\"x\":5,\"y\":5},{\"offsetMs\":50,\"x\":5,\"y\":5}]}]}")));
        TouchInjector.Result r = TouchInjector.run(tap, clock, sink);
        long down = injectedAt.get(0) + 400;
        long up = injectedAt.get(injectedAt.size() - 1);
        assertEquals("the hold after the DOWN returned", 50, up - down);
        // The events keep the plan's times.
        assertEquals(Long.valueOf(50), eventTimes.get(eventTimes.size() - 1));
        assertEquals(400, r.downWaitMs);
        assertEquals(0, r.lateMs);
        assertEquals(450, r.elapsedMs);
    }
}
