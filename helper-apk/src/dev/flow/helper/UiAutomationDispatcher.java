package dev.flow.helper;

import android.app.UiAutomation;
import android.os.SystemClock;
import android.view.InputDevice;
import android.view.KeyCharacterMap;
import android.view.KeyEvent;
import android.view.MotionEvent;
import android.view.ViewConfiguration;

/**
 * Turns scheduled events into MotionEvents and keys into KeyEvents, and
 * injects them through UiAutomation: every touch is a finger on the
 * touchscreen with pressure and size 1 (exec/android schedule.go).
 */
final class UiAutomationDispatcher implements TouchInjector.Sink, TouchInjector.Clock {
    private final UiAutomation automation;

    UiAutomationDispatcher(UiAutomation automation) {
        this.automation = automation;
    }

    public long uptimeMillis() {
        return SystemClock.uptimeMillis();
    }

    public void sleepUntil(long uptimeMillis) throws InterruptedException {
        long wait = uptimeMillis - SystemClock.uptimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    public boolean inject(PointerEventSchedule.Event e, long downTime, long eventTime) {
        int n = e.pointerCount();
        MotionEvent.PointerProperties[] props = new MotionEvent.PointerProperties[n];
        MotionEvent.PointerCoords[] coords = new MotionEvent.PointerCoords[n];
        for (int i = 0; i < n; i++) {
            props[i] = new MotionEvent.PointerProperties();
            props[i].id = i;
            props[i].toolType = MotionEvent.TOOL_TYPE_FINGER;
            coords[i] = new MotionEvent.PointerCoords();
            coords[i].x = e.xs[i];
            coords[i].y = e.ys[i];
            coords[i].pressure = 1;
            coords[i].size = 1;
        }
        MotionEvent ev = MotionEvent.obtain(downTime, eventTime, e.action, n, props, coords, 0, 0, 1f, 1f, 0, 0,
                InputDevice.SOURCE_TOUCHSCREEN, 0);
        try {
            return automation.injectInputEvent(ev, e.waitForDispatch);
        } finally {
            ev.recycle();
        }
    }

    /**
     * A key press; a long press repeats the down with FLAG_LONG_PRESS after
     * the system's long-press timeout, as UiAutomator's InteractionController
     * does.
     */
    void key(int code, int meta, boolean longPress) throws HelperException {
        long down = SystemClock.uptimeMillis();
        inject(new KeyEvent(down, down, KeyEvent.ACTION_DOWN, code, 0, meta, KeyCharacterMap.VIRTUAL_KEYBOARD, 0, 0,
                InputDevice.SOURCE_KEYBOARD), code);
        long now = down;
        if (longPress) {
            SystemClock.sleep(ViewConfiguration.getLongPressTimeout());
            now = SystemClock.uptimeMillis();
            inject(new KeyEvent(down, now, KeyEvent.ACTION_DOWN, code, 1, meta, KeyCharacterMap.VIRTUAL_KEYBOARD, 0,
                    KeyEvent.FLAG_LONG_PRESS, InputDevice.SOURCE_KEYBOARD), code);
        }
        inject(new KeyEvent(down, now, KeyEvent.ACTION_UP, code, 0, meta, KeyCharacterMap.VIRTUAL_KEYBOARD, 0, 0,
                InputDevice.SOURCE_KEYBOARD), code);
    }

    private void inject(KeyEvent ev, int code) throws HelperException {
        if (!automation.injectInputEvent(ev, true)) {
            throw new HelperException(HelperException.COMMAND_FAILED, "injectInputEvent refused key " + code,
                    "another app may own the input (a system dialog, a pinned app); look at the device and retry");
        }
    }
}
