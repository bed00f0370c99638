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

    @Test
    public void waitsForQuietAfterTheLastEvent() throws Exception {
        EventCounter c = new EventCounter(WALL);
        Thread screen = busyScreen(c, 100);
        Thread.sleep(10);
        long start = WALL.uptimeMillis();
        assertTrue(c.waitForQuiet(80, 10000));
        long took = WALL.uptimeMillis() - start;
        screen.join();
        // The events ran for 100 ms from before start, and quiet is 80 ms after the last.
        assertTrue("settled after " + took + " ms, before the screen went quiet", took >= 80 + 100 - 10 - 5);
        assertTrue(c.seq() > 3);
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
