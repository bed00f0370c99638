package dev.flow.helper;

import java.util.List;

/**
 * Injects a schedule on the device's own clock, never interpolating. The
 * DOWN goes out first; every later event goes out offsetMs after the DOWN
 * returned. Since Android 11 injecting a DOWN first waits, up to 5 s, for
 * window animations to finish (UiAutomationConnection.injectInputEvent
 * syncs input transactions before an ACTION_DOWN): counting from before
 * that wait would send the rest of a gesture back to back, a tap's hold
 * would shrink to nothing and a long press would never start. Each event
 * still carries downTime + offsetMs as its event time, so velocity
 * trackers see the plan's timing. When an injection fails midway the
 * contacts still down are cancelled, so the app never sees a finger that
 * stays on the screen.
 */
public final class TouchInjector {
    /** The device's uptime clock (SystemClock.uptimeMillis on the phone). */
    public interface Clock {
        long uptimeMillis();

        void sleepUntil(long uptimeMillis) throws InterruptedException;
    }

    /**
     * Where events go (UiAutomation.injectInputEvent on the phone), the
     * ACTION_CANCEL after a failure included; false is a refusal.
     */
    public interface Sink {
        boolean inject(PointerEventSchedule.Event event, long downTime, long eventTime);
    }

    /** What a touch answers (PROTOCOL.md touch). */
    public static final class Result {
        public final int injectedEvents;
        public final long elapsedMs;
        public final long lateMs;
        public final long downWaitMs;

        public Result(int injectedEvents, long elapsedMs, long lateMs, long downWaitMs) {
            this.injectedEvents = injectedEvents;
            this.elapsedMs = elapsedMs;
            this.lateMs = lateMs;
            this.downWaitMs = downWaitMs;
        }
    }

    private TouchInjector() {
    }

    public static Result run(List<PointerEventSchedule.Event> events, Clock clock, Sink sink) throws HelperException {
        long downTime = clock.uptimeMillis();
        // Where the offsets count from: the DOWN's time until it returns.
        long anchor = downTime;
        long downWait = 0;
        long late = 0;
        PointerEventSchedule.Event lastIn = null;
        for (int i = 0; i < events.size(); i++) {
            PointerEventSchedule.Event e = events.get(i);
            long target = anchor + e.offsetMs;
            try {
                if (clock.uptimeMillis() < target) {
                    clock.sleepUntil(target);
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                cancel(sink, lastIn, downTime, clock.uptimeMillis());
                throw new HelperException(HelperException.INTERNAL,
                        "interrupted before event " + (i + 1) + " of " + events.size()
                                + (lastIn != null ? "; ACTION_CANCEL sent" : ""),
                        "the helper is stopping; flow restarts it");
            }
            late = Math.max(late, clock.uptimeMillis() - target);
            if (!sink.inject(e, downTime, downTime + e.offsetMs)) {
                boolean cancelled = cancel(sink, lastIn, downTime, clock.uptimeMillis());
                throw new HelperException(HelperException.COMMAND_FAILED,
                        "injectInputEvent refused event " + (i + 1) + " of " + events.size() + " ("
                                + PointerEventSchedule.actionName(e.action) + " at " + e.offsetMs + " ms)"
                                + (cancelled ? "; ACTION_CANCEL sent" : ""),
                        "another app may own the screen (a system dialog, a pinned app); look at the device and retry");
            }
            if (i == 0) {
                long returned = clock.uptimeMillis();
                downWait = returned - target;
                anchor = returned - e.offsetMs;
            }
            lastIn = e;
        }
        return new Result(events.size(), clock.uptimeMillis() - downTime, late, downWait);
    }

    /**
     * Cancels when a contact is down (after a DOWN and before the final UP);
     * true when the sink took the ACTION_CANCEL.
     */
    private static boolean cancel(Sink sink, PointerEventSchedule.Event lastIn, long downTime, long now) {
        PointerEventSchedule.Event c = PointerEventSchedule.cancelAfter(lastIn, (int) Math.min(Integer.MAX_VALUE, now - downTime));
        return c != null && sink.inject(c, downTime, now);
    }
}
