package dev.flow.helper;

/**
 * The version a settled read reports (PROTOCOL.md hierarchy/settle): how
 * many accessibility events that mean "the screen changed" (window content,
 * window state, the set of windows, scroll) have arrived, and when the last one did, so settle
 * can wait for quiet. The accessibility thread calls changed(); the session
 * thread reads.
 */
public final class EventCounter {
    private final TouchInjector.Clock clock;
    private long seq;
    private long lastAt;

    public EventCounter(TouchInjector.Clock clock) {
        this.clock = clock;
        this.lastAt = clock.uptimeMillis();
    }

    public synchronized void changed() {
        seq++;
        lastAt = clock.uptimeMillis();
        notifyAll();
    }

    public synchronized long seq() {
        return seq;
    }

    /**
     * Waits until no event arrived for quietMs (true) or timeoutMs passed
     * first (false). Quiet that began before the call counts: a screen idle
     * for a second settles at once.
     */
    public synchronized boolean waitForQuiet(long quietMs, long timeoutMs) throws InterruptedException {
        long deadline = clock.uptimeMillis() + timeoutMs;
        while (true) {
            long now = clock.uptimeMillis();
            long quietUntil = lastAt + quietMs;
            if (now >= quietUntil) {
                return true;
            }
            if (now >= deadline) {
                return false;
            }
            wait(Math.max(1, Math.min(quietUntil, deadline) - now));
        }
    }
}
