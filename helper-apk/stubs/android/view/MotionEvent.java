package android.view;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/view/MotionEvent
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class MotionEvent extends InputEvent {
    // API 14
    public static final int TOOL_TYPE_FINGER = 1;

    // API 14
    public static final class PointerProperties {
        // API 14
        public int id;
        // API 14
        public int toolType;

        // API 14
        public PointerProperties() {
            throw new RuntimeException("Stub!");
        }
    }

    // API 9
    public static final class PointerCoords {
        // API 9
        public float x;
        // API 9
        public float y;
        // API 9
        public float pressure;
        // API 9
        public float size;

        // API 9
        public PointerCoords() {
            throw new RuntimeException("Stub!");
        }
    }

    private MotionEvent() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public static MotionEvent obtain(long downTime, long eventTime, int action, int pointerCount,
            PointerProperties[] pointerProperties, PointerCoords[] pointerCoords, int metaState, int buttonState,
            float xPrecision, float yPrecision, int deviceId, int edgeFlags, int source, int flags) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void recycle() {
        throw new RuntimeException("Stub!");
    }
}
