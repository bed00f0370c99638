package android.app;

import java.util.List;
import java.util.concurrent.TimeoutException;

import android.accessibilityservice.AccessibilityServiceInfo;
import android.graphics.Bitmap;
import android.view.InputEvent;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityWindowInfo;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/app/UiAutomation
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class UiAutomation {
    // API 18
    public interface OnAccessibilityEventListener {
        // API 18
        void onAccessibilityEvent(AccessibilityEvent event);
    }

    private UiAutomation() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public boolean injectInputEvent(InputEvent event, boolean sync) {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public void waitForIdle(long idleTimeoutMillis, long globalTimeoutMillis) throws TimeoutException {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public List<AccessibilityWindowInfo> getWindows() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public AccessibilityNodeInfo getRootInActiveWindow() {
        throw new RuntimeException("Stub!");
    }

    // API 21
    public AccessibilityNodeInfo findFocus(int focus) {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public Bitmap takeScreenshot() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public void setOnAccessibilityEventListener(OnAccessibilityEventListener listener) {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public final AccessibilityServiceInfo getServiceInfo() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public final void setServiceInfo(AccessibilityServiceInfo info) {
        throw new RuntimeException("Stub!");
    }

    // API 34
    public boolean clearCache() {
        throw new RuntimeException("Stub!");
    }
}
