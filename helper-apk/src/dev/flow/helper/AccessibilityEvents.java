package dev.flow.helper;

import android.app.UiAutomation;
import android.view.accessibility.AccessibilityEvent;

/**
 * UiAutomation's event listener: hands each event's type, package, class,
 * text and enabled state to ScreenEvents, and re-reads the foreground
 * packages when ScreenEvents says the windows changed.
 */
final class AccessibilityEvents implements UiAutomation.OnAccessibilityEventListener {
    private final ScreenEvents screen;
    private final Runnable windowsChanged;

    AccessibilityEvents(ScreenEvents screen, Runnable windowsChanged) {
        this.screen = screen;
        this.windowsChanged = windowsChanged;
    }

    public void onAccessibilityEvent(AccessibilityEvent event) {
        if (screen.onEvent(event.getEventType(), event.getPackageName(), event.getClassName(), event.getText(), event.isEnabled())) {
            windowsChanged.run();
        }
    }
}
