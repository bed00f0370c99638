package dev.flow.helper;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

import android.app.UiAutomation;
import android.content.Context;
import android.graphics.Bitmap;
import android.graphics.Rect;
import android.util.DisplayMetrics;
import android.view.Display;
import android.view.WindowManager;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityWindowInfo;

/** The display, its windows and its pixels. */
final class Screens {
    private final UiAutomation automation;
    private final Context context;

    Screens(UiAutomation automation, Context context) {
        this.automation = automation;
        this.context = context;
    }

    /**
     * {width, height, rotation} in real pixels, and the density. The
     * replacements (WindowMetrics, Context.getDisplay) are API 30.
     */
    @SuppressWarnings("deprecation")
    int[] display(double[] density) {
        Display d = ((WindowManager) context.getSystemService(Context.WINDOW_SERVICE)).getDefaultDisplay();
        DisplayMetrics m = new DisplayMetrics();
        d.getRealMetrics(m);
        density[0] = m.density;
        return new int[] {m.widthPixels, m.heightPixels, d.getRotation()};
    }

    /**
     * The root of every window (Maestro reads UiDevice's getWindowRoots), or
     * the active window's root when the window list is empty.
     */
    @SuppressWarnings("deprecation") // recycle: needed below API 33, a no-op from it
    List<NodeSource> roots() {
        List<NodeSource> out = new ArrayList<NodeSource>();
        for (AccessibilityWindowInfo w : automation.getWindows()) {
            AccessibilityNodeInfo root = w.getRoot();
            if (root != null) {
                out.add(new AccessibilityNodeSource(root));
            }
            w.recycle();
        }
        if (out.isEmpty()) {
            AccessibilityNodeInfo root = automation.getRootInActiveWindow();
            if (root != null) {
                out.add(new AccessibilityNodeSource(root));
            }
        }
        return out;
    }

    /** The bounds of the first window of the type (the active one when several). */
    @SuppressWarnings("deprecation") // recycle, as in roots
    Device.Box window(int type) {
        Device.Box first = null;
        Rect r = new Rect();
        for (AccessibilityWindowInfo w : automation.getWindows()) {
            if (w.getType() == type) {
                w.getBoundsInScreen(r);
                Device.Box b = new Device.Box(r.left, r.top, r.right - r.left, r.bottom - r.top);
                if (first == null || w.isActive() || w.isFocused()) {
                    first = b;
                }
            }
            w.recycle();
        }
        return first;
    }

    /**
     * The packages settle listens to (ScreenEvents): the active or focused
     * application window's and the input method window's.
     */
    @SuppressWarnings("deprecation") // recycle, as in roots
    List<String> foregroundPackages() {
        List<String> out = new ArrayList<String>();
        for (AccessibilityWindowInfo w : automation.getWindows()) {
            int type = w.getType();
            boolean app = type == AccessibilityWindowInfo.TYPE_APPLICATION && (w.isActive() || w.isFocused());
            if (app || type == AccessibilityWindowInfo.TYPE_INPUT_METHOD) {
                AccessibilityNodeInfo root = w.getRoot();
                if (root != null) {
                    CharSequence pkg = root.getPackageName();
                    if (pkg != null) {
                        out.add(pkg.toString());
                    }
                    root.recycle();
                }
            }
            w.recycle();
        }
        return out;
    }

    /** The screen as a PNG, or null when UiAutomation could not capture it. */
    Device.Capture capture() {
        final Bitmap b = automation.takeScreenshot();
        if (b == null) {
            return null;
        }
        try {
            boolean black = Frames.black(new Frames.Pixels() {
                public int width() {
                    return b.getWidth();
                }

                public int height() {
                    return b.getHeight();
                }

                public int argb(int x, int y) {
                    return b.getPixel(x, y);
                }
            });
            ByteArrayOutputStream out = new ByteArrayOutputStream(256 * 1024);
            b.compress(Bitmap.CompressFormat.PNG, 100, out);
            return new Device.Capture(out.toByteArray(), black);
        } finally {
            b.recycle();
        }
    }
}
