package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * Settle's quiet detection on the JVM's clock. Only lower bounds on the
 * time taken are asserted, so a slow machine cannot fail them.
 */
public class EventCounterTest {
    static final TouchInjector.Clock WALL = new TouchInjector.Clock() {
        public long uptimeMillis() {
            return System.nanoTime() / 1000000;
        }

        public void sleepUntil(long t) throws InterruptedException {
            Thread.sleep(Math.max(0, t - uptimeMillis()));
        }
    };

    /** Posts an event every 5 ms until stopped. */
    static Thread busyScreen(final EventCounter c, final long forMs) {
        Thread t = new Thread(new Runnable() {
            public void run() {
                long end = WALL.uptimeMillis() + forMs;
                while (WALL.uptimeMillis() < end) {
                    c.changed();
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        });
        t.start();
        return t;
    }

    @Test
    public void countsEachChange() {
        EventCounter c = new EventCounter(WALL);
        assertEquals(0, c.seq());
        c.changed();
        c.changed();
        assertEquals(2, c.seq());
    }

    @Test
    public void aScreenQuietForLongerSettlesAtOnce() throws Exception {
        EventCounter c = new EventCounter(WALL);
        Thread.sleep(300);
        long start = WALL.uptimeMillis();
        assertTrue(c.waitForQuiet(250, 5000));
        // Waiting for 250 ms of fresh quiet would take at least that long.
        assertTrue("waited " + (WALL.uptimeMillis() - start) + " ms", WALL.uptimeMillis() - start < 250);
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

    @Test
    public void timesOutOnAScreenThatNeverStops() throws Exception {
        EventCounter c = new EventCounter(WALL);
        Thread screen = busyScreen(c, 1000);
        long start = WALL.uptimeMillis();
        assertFalse(c.waitForQuiet(100, 200));
        assertTrue(WALL.uptimeMillis() - start >= 200);
        screen.interrupt();
        screen.join();
    }
}
