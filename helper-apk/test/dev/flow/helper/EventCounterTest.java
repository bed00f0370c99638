package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * Settle's quiet detection, on a clock the tests move: no assertion
 * depends on how the threads are scheduled, so a loaded machine cannot
 * fail them.
 */
public class EventCounterTest {
    @Test
    public void countsEachChange() {
        EventCounter c = new EventCounter(new ManualClock());
        assertEquals(0, c.seq());
        c.changed();
        c.changed();
        assertEquals(2, c.seq());
    }

    /**
     * Quiet that began before the call counts: 300 ms after the last event,
     * a wait for 250 ms of quiet returns at once. The test's clock stands
     * still, so a wait that began counting at the call would never end
     * (the join below gives up and the test fails).
     */
    @Test
    public void aScreenQuietForLongerSettlesAtOnce() throws Exception {
        final ManualClock clock = new ManualClock();
        final EventCounter c = new EventCounter(clock);
        clock.set(300);
        final boolean[] result = new boolean[1];
        Thread waiter = new Thread(new Runnable() {
            public void run() {
                try {
                    result[0] = c.waitForQuiet(250, 5000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        waiter.setDaemon(true);
        waiter.start();
        waiter.join(10000);
        assertFalse("still waiting for quiet that had already lasted 300 ms", waiter.isAlive());
        assertTrue(result[0]);
    }

    /** A clock that moves only when the test moves it. */
    static final class ManualClock implements TouchInjector.Clock {
        private volatile long now;

        public long uptimeMillis() {
            return now;
        }

        public void sleepUntil(long t) {
            throw new UnsupportedOperationException();
        }

        void set(long t) {
            now = t;
        }
    }

    /**
     * Events every 5 ms for 100 ms, on a clock the test moves: the wait
     * ends only once 80 ms passed after the last event, however the
     * threads are scheduled (a wall-clock version of this test failed on a
     * loaded machine when the event thread was starved for 80 ms).
     */
    @Test
    public void waitsForQuietAfterTheLastEvent() throws Exception {
        final ManualClock clock = new ManualClock();
        final EventCounter c = new EventCounter(clock);
        final boolean[] result = new boolean[1];
        Thread waiter = new Thread(new Runnable() {
            public void run() {
                try {
                    result[0] = c.waitForQuiet(80, 10000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        for (long t = 0; t <= 100; t += 5) {
            clock.set(t);
            c.changed();
            if (t == 10) {
                waiter.start();
            }
        }
        clock.set(179);
        waiter.join(200);
        assertTrue("settled at 179 ms, 79 ms after the last event", waiter.isAlive());
        clock.set(180);
        waiter.join(10000);
        assertFalse("still waiting 80 ms after the last event", waiter.isAlive());
        assertTrue(result[0]);
        assertEquals(21, c.seq());
    }

    /**
     * A screen that changes every 5 ms of the test's clock never gives
     * 100 ms of quiet, so the wait ends at its 200 ms deadline with false.
     * On a manual clock: a wall-clock version failed on a loaded machine
     * when the busy thread was starved for 100 ms and the screen looked
     * quiet.
     */
    @Test
    public void timesOutOnAScreenThatNeverStops() throws Exception {
        final ManualClock clock = new ManualClock();
        final EventCounter c = new EventCounter(clock);
        final long[] span = new long[2];
        final boolean[] result = new boolean[] {true};
        Thread waiter = new Thread(new Runnable() {
            public void run() {
                try {
                    span[0] = clock.uptimeMillis();
                    result[0] = c.waitForQuiet(100, 200);
                    span[1] = clock.uptimeMillis();
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        waiter.start();
        for (long t = 0; waiter.isAlive() && t < 1000000; t += 5) {
            clock.set(t);
            c.changed();
            waiter.join(0, 100000);
        }
        waiter.join(10000);
        assertFalse("the wait still runs", waiter.isAlive());
        assertFalse("a screen changing every 5 ms was called quiet", result[0]);
        assertTrue("gave up after " + (span[1] - span[0]) + " ms, before its 200 ms", span[1] - span[0] >= 200);
    }
}
