package dev.flow.helper;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The android-touch-plan-v1 payload (exec/android TransportPlan), parsed and
 * validated with exactly the rules, order and messages of exec/android
 * lower.go validate, so a plan flow would refuse is refused here with the
 * same words.
 */
public final class TouchPlan {
    public static final String PROTOCOL = "android-touch-plan-v1";
    public static final String KIND_SWIPE = "swipe";
    public static final String KIND_TRANSFORM = "transform";
    public static final int MIN_DURATION_MS = 0;
    public static final int MAX_DURATION_MS = 120000;

    static final String REFUSAL_HINT =
            "send the payload exec/android.Lower writes: the helper refuses what Lower refuses";

    public final String kind;
    public final int durationMs;
    /** offsets[i] is the offset of sample i; every pointer shares them. */
    public final int[] offsets;
    /** xs[pointer][sample], ys[pointer][sample]. */
    public final double[][] xs;
    public final double[][] ys;

    private TouchPlan(String kind, int durationMs, int[] offsets, double[][] xs, double[][] ys) {
        this.kind = kind;
        this.durationMs = durationMs;
        this.offsets = offsets;
        this.xs = xs;
        this.ys = ys;
    }

    public int pointerCount() {
        return xs.length;
    }

    private static HelperException refuse(String message) {
        return new HelperException(HelperException.INVALID_ARGS, message, REFUSAL_HINT);
    }

    /** Parses the plan; a refusal is INVALID_ARGS with validate's message. */
    public static TouchPlan parse(JSONObject plan) throws HelperException {
        Object protocol = plan.opt("protocol");
        if (!PROTOCOL.equals(protocol)) {
            throw refuse("Unsupported protocol: " + protocol);
        }
        Object kindValue = plan.opt("kind");
        String kind = kindValue instanceof String ? (String) kindValue : String.valueOf(kindValue);
        if (!KIND_SWIPE.equals(kind) && !KIND_TRANSFORM.equals(kind)) {
            throw refuse("Unsupported kind: " + kind);
        }
        Long duration = integer(plan.opt("durationMs"));
        if (duration == null || duration < MIN_DURATION_MS || duration > MAX_DURATION_MS) {
            throw refuse("durationMs must be between " + MIN_DURATION_MS + " and " + MAX_DURATION_MS);
        }
        int durationMs = (int) (long) duration;
        int want = KIND_TRANSFORM.equals(kind) ? 2 : 1;
        JSONArray pointers = plan.optJSONArray("pointers");
        if (pointers == null || pointers.length() != want) {
            throw refuse("Planned " + kind + " gesture requires exactly " + want + " pointer paths");
        }
        int[][] offsets = new int[want][];
        double[][] xs = new double[want][];
        double[][] ys = new double[want][];
        for (int i = 0; i < want; i++) {
            JSONObject pointer = pointers.optJSONObject(i);
            Long id = pointer == null ? null : integer(pointer.opt("pointerId"));
            if (id == null || id != i) {
                throw refuse("Planned pointer ids must be ordered from 0");
            }
            JSONArray samples = pointer.optJSONArray("samples");
            if (samples == null || samples.length() < 2) {
                throw refuse("Planned pointer path requires at least two samples");
            }
            int n = samples.length();
            offsets[i] = new int[n];
            xs[i] = new double[n];
            ys[i] = new double[n];
            long previous = -1;
            for (int j = 0; j < n; j++) {
                JSONObject s = samples.optJSONObject(j);
                Double x = s == null ? null : finite(s.opt("x"));
                Double y = s == null ? null : finite(s.opt("y"));
                if (x == null || y == null) {
                    throw refuse("Planned sample coordinates must be finite");
                }
                Long offset = integer(s.opt("offsetMs"));
                if (offset == null || offset < Integer.MIN_VALUE || offset > Integer.MAX_VALUE) {
                    throw refuse("offsetMs must be a finite integer");
                }
                // A zero-duration plan (a stationary touch) may repeat offset
                // 0; every other plan must move forward in time.
                if (offset < previous || (offset == previous && durationMs != 0)) {
                    throw refuse("Planned sample offsets must be strictly increasing");
                }
                previous = offset;
                offsets[i][j] = (int) (long) offset;
                xs[i][j] = x;
                ys[i][j] = y;
            }
            if (offsets[i][0] != 0 || offsets[i][n - 1] != durationMs) {
                throw refuse("Pointer path must start at 0 and end at durationMs");
            }
        }
        if (want == 2) {
            if (offsets[0].length != offsets[1].length) {
                throw refuse("Planned pointer paths must have matching samples");
            }
            for (int j = 0; j < offsets[0].length; j++) {
                if (offsets[0][j] != offsets[1][j]) {
                    throw refuse("Planned pointer sample offsets must match");
                }
            }
        }
        return new TouchPlan(kind, durationMs, offsets[0], xs, ys);
    }

    /** A JSON number with an integral value, or null. */
    static Long integer(Object v) {
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Number) {
            double d = ((Number) v).doubleValue();
            if (!Double.isNaN(d) && !Double.isInfinite(d) && d == Math.rint(d)
                    && Math.abs(d) <= 9007199254740992.0) {
                return (long) d;
            }
        }
        return null;
    }

    /** A finite JSON number, or null. */
    static Double finite(Object v) {
        if (!(v instanceof Number)) {
            return null;
        }
        double d = ((Number) v).doubleValue();
        return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
    }
}
