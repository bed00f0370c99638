package dev.flow.helper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The MotionEvent sequence the helper injects for a plan: exactly
 * exec/android/schedule.go Schedule. DOWN with pointer 0; for two pointers
 * POINTER_DOWN shortly after; one MOVE per later sample; for two pointers
 * POINTER_UP at the last sample and UP 8 ms later; otherwise UP at the last
 * sample.
 */
public final class PointerEventSchedule {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;
    public static final int ACTION_CANCEL = 3;
    /** ACTION_POINTER_DOWN with pointer index 1 in bits 8..15. */
    public static final int ACTION_POINTER_DOWN_1 = 0x105;
    public static final int ACTION_POINTER_UP_1 = 0x106;

    /**
     * Separates the second finger's landing and lifting from the first's, so
     * recognizers see two contacts rather than one event with both.
     */
    static final int POINTER_TRANSITION_DELAY_MS = 8;

    /** One event: its pointers are ids 0..n-1 with float coordinates. */
    public static final class Event {
        public final int offsetMs;
        public final int action;
        public final int sampleIndex;
        public final float[] xs;
        public final float[] ys;
        /** injectInputEvent's sync argument. */
        public final boolean waitForDispatch;

        Event(int offsetMs, int action, int sampleIndex, float[] xs, float[] ys, boolean waitForDispatch) {
            this.offsetMs = offsetMs;
            this.action = action;
            this.sampleIndex = sampleIndex;
            this.xs = xs;
            this.ys = ys;
            this.waitForDispatch = waitForDispatch;
        }

        public int pointerCount() {
            return xs.length;
        }
    }

    private PointerEventSchedule() {
    }

    public static String actionName(int action) {
        switch (action) {
            case ACTION_DOWN:
                return "DOWN";
            case ACTION_UP:
                return "UP";
            case ACTION_MOVE:
                return "MOVE";
            case ACTION_CANCEL:
                return "CANCEL";
            case ACTION_POINTER_DOWN_1:
                return "POINTER_DOWN";
            case ACTION_POINTER_UP_1:
                return "POINTER_UP";
            default:
                return "Action(0x" + Integer.toHexString(action) + ")";
        }
    }

    public static List<Event> create(TouchPlan plan) {
        int count = plan.pointerCount();
        if (count == 0) {
            return Collections.emptyList();
        }
        int[] offsets = plan.offsets;
        int last = offsets.length - 1;
        List<Event> events = new ArrayList<Event>(offsets.length + 2 * count - 1);
        events.add(event(plan, ACTION_DOWN, 0, 1, 0, true));
        if (count == 2) {
            int offset = Math.max(1, Math.min(POINTER_TRANSITION_DELAY_MS, offsets[1] - 1));
            events.add(event(plan, ACTION_POINTER_DOWN_1, 0, 2, offset, true));
        }
        for (int i = 1; i <= last; i++) {
            // Two-pointer moves do not wait (except the last), so the helper
            // keeps its cadence instead of stalling on every frame.
            events.add(event(plan, ACTION_MOVE, i, count, offsets[i], count == 1 || i == last));
        }
        int upOffset = offsets[last];
        if (count == 2) {
            events.add(event(plan, ACTION_POINTER_UP_1, last, 2, offsets[last], true));
            upOffset += POINTER_TRANSITION_DELAY_MS;
        }
        events.add(event(plan, ACTION_UP, last, 1, upOffset, true));
        return events;
    }

    /**
     * The ACTION_CANCEL that withdraws the contacts still down after last
     * went in, or null when none is (nothing went in, or the final UP did).
     * After POINTER_UP only the first finger is still down.
     */
    public static Event cancelAfter(Event last, int offsetMs) {
        if (last == null || last.action == ACTION_UP) {
            return null;
        }
        int down = last.action == ACTION_POINTER_UP_1 ? 1 : last.pointerCount();
        float[] xs = new float[down];
        float[] ys = new float[down];
        System.arraycopy(last.xs, 0, xs, 0, down);
        System.arraycopy(last.ys, 0, ys, 0, down);
        return new Event(offsetMs, ACTION_CANCEL, last.sampleIndex, xs, ys, true);
    }

    private static Event event(TouchPlan plan, int action, int sample, int pointers, int offset, boolean wait) {
        float[] xs = new float[pointers];
        float[] ys = new float[pointers];
        for (int p = 0; p < pointers; p++) {
            xs[p] = (float) plan.xs[p][sample];
            ys[p] = (float) plan.ys[p][sample];
        }
        return new Event(offset, action, sample, xs, ys, wait);
    }
}
