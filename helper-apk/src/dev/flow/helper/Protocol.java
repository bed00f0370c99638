package dev.flow.helper;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * The flow-helper-v1 session (helper-apk/PROTOCOL.md): reads request lines,
 * dispatches them to a Device and writes one answer line each, with the
 * bytes that follow screenshot answers and media requests.
 */
public final class Protocol {
    public static final String NAME = "flow-helper-v1";
    /** A longer line closes the connection (PROTOCOL.md "Framing"). */
    public static final int MAX_LINE_BYTES = 64 << 20;
    /** Bodies get a bound too, so a corrupt length cannot exhaust memory. */
    public static final int MAX_BODY_BYTES = 256 << 20;

    static final Charset UTF8 = Charset.forName("UTF-8");
    private static final List<String> MEDIA_TYPES = Arrays.asList("jpg", "jpeg", "png", "gif", "mp4");
    private static final List<String> EXTRA_TYPES = Arrays.asList("string", "bool", "int", "long", "double");

    private final Device device;
    private boolean quit;

    public Protocol(Device device) {
        this.device = device;
    }

    /** The wire broke: the connection must close. */
    public static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        public ProtocolException(String message) {
            super(message);
        }
    }

    /** The one line a second connection gets before it is closed. */
    public static String busyLine() {
        return errorLine(0, new HelperException(HelperException.DEVICE_UNAVAILABLE, "helper busy",
                "another flow run is using the helper on this device; wait for it to end or stop it"
                        + " (adb shell am force-stop dev.flow.helper)")).toString() + "\n";
    }

    /**
     * Serves one connection until quit (true) or the peer closes it at a
     * line boundary (false). A broken wire throws.
     */
    public boolean serve(InputStream in, OutputStream out) throws IOException {
        while (!quit) {
            byte[] line = readLine(in, MAX_LINE_BYTES);
            if (line == null) {
                return false;
            }
            handle(line, in, out);
        }
        return true;
    }

    /** Whether the last request was quit. */
    public boolean quitRequested() {
        return quit;
    }

    /**
     * Answers one request line, reading its body from in first, and writes
     * the answer (and its bytes) to out.
     */
    public void handle(byte[] line, InputStream in, OutputStream out) throws IOException {
        JSONObject req;
        try {
            Object v = new org.json.JSONTokener(new String(line, UTF8)).nextValue();
            if (!(v instanceof JSONObject)) {
                throw new JSONException("not an object");
            }
            req = (JSONObject) v;
        } catch (JSONException e) {
            write(out, errorLine(0, new HelperException(HelperException.INVALID_ARGS,
                    "a request must be one JSON object: " + e.getMessage(), "see helper-apk/PROTOCOL.md \"Framing\"")), null);
            return;
        }
        Long idValue = TouchPlan.integer(req.opt("id"));
        long id = idValue == null ? 0 : idValue;
        BodyStream body = null;
        if (req.has("bytes")) {
            Long n = TouchPlan.integer(req.opt("bytes"));
            if (n == null || n < 0 || n > MAX_BODY_BYTES) {
                throw new ProtocolException("request " + id + " announces " + req.opt("bytes") + " bytes");
            }
            // Streamed to the device as it is read, never held whole.
            body = new BodyStream(in, n);
        }
        String op = req.opt("op") instanceof String ? req.optString("op") : null;
        Answer answer;
        try {
            if (idValue == null || id < 1) {
                throw new HelperException(HelperException.INVALID_ARGS, "request id " + req.opt("id") + " is not a positive integer",
                        "see helper-apk/PROTOCOL.md \"Framing\"");
            }
            if (op == null) {
                throw new HelperException(HelperException.INVALID_ARGS, "request " + id + " has no \"op\"",
                        "see helper-apk/PROTOCOL.md \"Operations\"");
            }
            answer = dispatch(op, new Args(op, req), body);
        } catch (HelperException e) {
            drain(body);
            write(out, errorLine(id, e), null);
            if (HelperException.DEVICE_UNAVAILABLE.equals(e.code())) {
                // The device can no longer serve (UiAutomation disconnected):
                // the session ends and flow starts a new one.
                quit = true;
            }
            return;
        } catch (Throwable t) {
            // An Error (OutOfMemoryError, StackOverflowError, a missing
            // class on an old release) is answered like an exception: left
            // to the thread's top it would kill the helper.
            device.log(op, t);
            drain(body);
            write(out, errorLine(id, new HelperException(HelperException.INTERNAL, op + " failed: " + t,
                    "the helper failed unexpectedly; `adb logcat -s flow-helper` shows the stack trace")), null);
            return;
        }
        drain(body);
        JSONObject ok = answer.fields;
        try {
            JSONObject line2 = new JSONObject();
            line2.put("id", id);
            line2.put("ok", true);
            for (java.util.Iterator<String> it = ok.keys(); it.hasNext();) {
                String k = it.next();
                line2.put(k, ok.get(k));
            }
            if (answer.bytes != null) {
                line2.put("bytes", answer.bytes.length);
            }
            write(out, line2, answer.bytes);
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads what is left of a request's body, so the next request starts on
     * a line boundary whatever happened to this one; a body cut short
     * breaks the wire.
     */
    private static void drain(BodyStream body) throws IOException {
        if (body != null) {
            body.drain();
        }
    }

    /** An answer's fields (without id and ok) and the bytes after it. */
    private static final class Answer {
        final JSONObject fields = new JSONObject();
        byte[] bytes;

        Answer put(String k, Object v) {
            try {
                fields.put(k, v);
            } catch (JSONException e) {
                throw new IllegalArgumentException(e);
            }
            return this;
        }
    }

    private Answer dispatch(String op, Args a, BodyStream body) throws HelperException {
        Answer r = new Answer();
        if ("hello".equals(op)) {
            String protocol = a.string("protocol");
            if (!NAME.equals(protocol)) {
                throw new HelperException(HelperException.INVALID_ARGS,
                        "hello: protocol " + JSONObject.quote(protocol) + " is not " + NAME,
                        "flow and the helper are from different versions; remove the helper (adb uninstall dev.flow.helper) and run again");
            }
            Device.Info info = device.info();
            JSONObject display = new JSONObject();
            try {
                display.put("w", info.width);
                display.put("h", info.height);
                display.put("rotation", info.rotation);
                display.put("density", info.density);
            } catch (JSONException e) {
                throw new IllegalArgumentException(e);
            }
            return r.put("protocol", NAME).put("versionCode", info.versionCode).put("sdk", info.sdk).put("display", display);
        }
        if ("hierarchy".equals(op)) {
            int maxNodes = a.positive("maxNodes", 5000);
            int maxDepth = a.positive("maxDepth", 128);
            int quiet = a.natural("idleQuietMs", 100);
            int timeout = a.natural("idleTimeoutMs", 500);
            device.waitForIdle(quiet, timeout);
            dump(r, maxNodes, maxDepth);
            return r;
        }
        if ("settle".equals(op)) {
            int quiet = a.natural("quietMs", -1);
            int timeout = a.natural("timeoutMs", -1);
            int maxNodes = a.positive("maxNodes", 5000);
            int maxDepth = a.positive("maxDepth", 128);
            boolean still;
            try {
                still = device.waitForQuiet(quiet, timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HelperException(HelperException.INTERNAL, "settle was interrupted", "the helper is stopping; flow restarts it");
            }
            XmlWriter.Result x = dump(r, maxNodes, maxDepth);
            return r.put("still", still).put("opaque", x.opaque);
        }
        if ("viewport".equals(op)) {
            device.refresh();
            Device.Box app = device.appWindow();
            Device.Box ime = device.inputMethodWindow();
            int h = app.h;
            // The keyboard covers the app's bottom: the viewport ends where it starts.
            if (ime != null && ime.y > app.y && ime.y < app.y + app.h) {
                h = ime.y - app.y;
            }
            r.put("x", app.x).put("y", app.y).put("w", app.w).put("h", h);
            if (ime != null) {
                r.put("keyboard", box(ime));
            }
            return r;
        }
        if ("touch".equals(op)) {
            TouchPlan plan = TouchPlan.parse(a.object("plan"));
            TouchInjector.Result t = device.touch(PointerEventSchedule.create(plan));
            return r.put("injectedEvents", t.injectedEvents).put("elapsedMs", t.elapsedMs).put("lateMs", t.lateMs)
                    .put("downWaitMs", t.downWaitMs);
        }
        if ("key".equals(op)) {
            int code = a.integer("code");
            int meta = a.has("meta") ? a.integer("meta") : 0;
            boolean longPress = a.has("longPress") && a.bool("longPress");
            device.key(code, meta, longPress);
            return r;
        }
        if ("text".equals(op)) {
            String text = a.string("text");
            try {
                return r.put("method", TextEntry.type(text, device));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HelperException(HelperException.INTERNAL, "text was interrupted", "the helper is stopping; flow restarts it");
            }
        }
        if ("erase".equals(op)) {
            int count = a.natural("count", -1);
            for (int i = 0; i < count; i++) {
                device.key(KeyText.KEYCODE_DEL, 0, false);
            }
            return r;
        }
        if ("hideKeyboard".equals(op)) {
            // BACK only when a keyboard is up: with none it would navigate.
            device.refresh();
            boolean shown = device.inputMethodWindow() != null;
            if (shown) {
                device.key(KeyText.KEYCODE_BACK, 0, false);
            }
            return r.put("wasShown", shown);
        }
        if ("screenshot".equals(op)) {
            Device.Capture c = device.screenshot();
            r.bytes = c.png;
            return r.put("black", c.black);
        }
        if ("launch".equals(op)) {
            String pkg = a.string("pkg");
            List<Device.Extra> extras = a.has("extras") ? a.extras() : new ArrayList<Device.Extra>();
            device.launch(pkg, extras);
            return r;
        }
        if ("permissions".equals(op)) {
            List<String> requested = device.requestedPermissions(a.string("pkg"));
            return r.put("requested", new JSONArray(requested));
        }
        if ("location".equals(op)) {
            double lat = a.number("lat");
            double lon = a.number("lon");
            if (lat < -90 || lat > 90 || lon < -180 || lon > 180) {
                throw new HelperException(HelperException.INVALID_ARGS,
                        "location: " + lat + "," + lon + " is not a latitude in [-90,90] and a longitude in [-180,180]",
                        "setLocation takes degrees");
            }
            device.setLocation(lat, lon);
            return r;
        }
        if ("media".equals(op)) {
            String name = a.string("name");
            String ext = a.string("ext").toLowerCase(java.util.Locale.ROOT);
            if (body == null) {
                throw a.missing("bytes");
            }
            if (!MEDIA_TYPES.contains(ext)) {
                throw new HelperException(HelperException.INVALID_ARGS, "media: unsupported type " + JSONObject.quote(ext),
                        "addMedia takes jpg, jpeg, png, gif or mp4 files");
            }
            return r.put("uri", device.addMedia(name, ext, body));
        }
        if ("quit".equals(op)) {
            quit = true;
            return r;
        }
        throw new HelperException(HelperException.UNSUPPORTED_OPERATION, "unknown op " + JSONObject.quote(op),
                "this helper speaks " + NAME + " (helper-apk/PROTOCOL.md); flow and the helper are from different versions");
    }

    private XmlWriter.Result dump(Answer r, int maxNodes, int maxDepth) throws HelperException {
        // The counter is read first: an event during the dump makes the
        // next read differ, never hides a change.
        long seq = device.eventSeq();
        device.refresh();
        Device.Info info = device.info();
        List<NodeSource> roots = device.windowRoots();
        XmlWriter.Result x;
        try {
            x = XmlWriter.write(info.rotation, roots, info.width, info.height, maxNodes, maxDepth);
        } finally {
            for (NodeSource root : roots) {
                if (root != null) {
                    root.recycle();
                }
            }
        }
        r.put("xml", x.xml).put("nodes", x.nodes).put("truncated", x.truncated).put("eventSeq", Long.toString(seq));
        return x;
    }

    private static JSONObject box(Device.Box b) {
        JSONObject o = new JSONObject();
        try {
            o.put("x", b.x);
            o.put("y", b.y);
            o.put("w", b.w);
            o.put("h", b.h);
        } catch (JSONException e) {
            throw new IllegalArgumentException(e);
        }
        return o;
    }

    static JSONObject errorLine(long id, HelperException e) {
        JSONObject o = new JSONObject();
        try {
            o.put("id", id);
            o.put("ok", false);
            o.put("code", e.code());
            o.put("message", e.getMessage());
            if (e.hint() != null) {
                o.put("hint", e.hint());
            }
        } catch (JSONException impossible) {
            throw new IllegalStateException(impossible);
        }
        return o;
    }

    private static void write(OutputStream out, JSONObject line, byte[] bytes) throws IOException {
        out.write((line.toString() + "\n").getBytes(UTF8));
        if (bytes != null) {
            out.write(bytes);
        }
        out.flush();
    }

    /**
     * One line without its newline, or null at a clean end of stream. A line
     * longer than max, or a stream that ends inside one, breaks the wire.
     */
    public static byte[] readLine(InputStream in, int max) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (line.size() == 0) {
                    return null;
                }
                throw new EOFException("the connection ended inside a request line");
            }
            if (b == '\n') {
                return line.toByteArray();
            }
            if (line.size() >= max) {
                throw new ProtocolException("a request line is longer than " + max + " bytes");
            }
            line.write(b);
        }
    }

    /** Typed access to a request's fields with PROTOCOL.md's refusals. */
    private static final class Args {
        private final String op;
        private final JSONObject req;

        Args(String op, JSONObject req) {
            this.op = op;
            this.req = req;
        }

        boolean has(String k) {
            return req.has(k) && !req.isNull(k);
        }

        HelperException missing(String k) {
            return invalid("missing required field \"" + k + "\"");
        }

        HelperException invalid(String what) {
            return new HelperException(HelperException.INVALID_ARGS, op + ": " + what,
                    "send every field helper-apk/PROTOCOL.md lists for " + op);
        }

        private Object get(String k) throws HelperException {
            if (!has(k)) {
                throw missing(k);
            }
            return req.opt(k);
        }

        String string(String k) throws HelperException {
            Object v = get(k);
            if (!(v instanceof String)) {
                throw invalid("field \"" + k + "\" must be a string");
            }
            return (String) v;
        }

        int integer(String k) throws HelperException {
            Long v = TouchPlan.integer(get(k));
            if (v == null || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw invalid("field \"" + k + "\" must be an integer");
            }
            return (int) (long) v;
        }

        /** A non-negative integer; fallback < 0 makes the field required. */
        int natural(String k, int fallback) throws HelperException {
            if (!has(k) && fallback >= 0) {
                return fallback;
            }
            int v = integer(k);
            if (v < 0) {
                throw invalid("field \"" + k + "\" must not be negative");
            }
            return v;
        }

        int positive(String k, int fallback) throws HelperException {
            if (!has(k)) {
                return fallback;
            }
            int v = integer(k);
            if (v < 1) {
                throw invalid("field \"" + k + "\" must be positive");
            }
            return v;
        }

        double number(String k) throws HelperException {
            Double v = TouchPlan.finite(get(k));
            if (v == null) {
                throw invalid("field \"" + k + "\" must be a number");
            }
            return v;
        }

        boolean bool(String k) throws HelperException {
            Object v = get(k);
            if (!(v instanceof Boolean)) {
                throw invalid("field \"" + k + "\" must be true or false");
            }
            return (Boolean) v;
        }

        JSONObject object(String k) throws HelperException {
            Object v = get(k);
            if (!(v instanceof JSONObject)) {
                throw invalid("field \"" + k + "\" must be an object");
            }
            return (JSONObject) v;
        }

        List<Device.Extra> extras() throws HelperException {
            Object v = get("extras");
            if (!(v instanceof JSONArray)) {
                throw invalid("field \"extras\" must be a list");
            }
            JSONArray arr = (JSONArray) v;
            List<Device.Extra> out = new ArrayList<Device.Extra>(arr.length());
            for (int i = 0; i < arr.length(); i++) {
                JSONObject e = arr.optJSONObject(i);
                if (e == null || !(e.opt("k") instanceof String) || !e.has("v") || !(e.opt("type") instanceof String)) {
                    throw invalid("extra " + i + " must be {\"k\",\"v\",\"type\"}");
                }
                String key = e.optString("k");
                String type = e.optString("type");
                if (!EXTRA_TYPES.contains(type)) {
                    throw invalid("extra " + JSONObject.quote(key) + " has type " + JSONObject.quote(type)
                            + "; want string, bool, int, long or double");
                }
                out.add(new Device.Extra(key, type, extraValue(key, type, e.opt("v"))));
            }
            return out;
        }

        private Object extraValue(String key, String type, Object v) throws HelperException {
            Object value = null;
            if ("string".equals(type) && v instanceof String) {
                value = v;
            } else if ("bool".equals(type) && v instanceof Boolean) {
                value = v;
            } else if ("int".equals(type)) {
                Long n = TouchPlan.integer(v);
                if (n != null && n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
                    value = Integer.valueOf((int) (long) n);
                }
            } else if ("long".equals(type)) {
                Long n = TouchPlan.integer(v);
                if (n != null) {
                    value = n;
                }
            } else if ("double".equals(type)) {
                value = TouchPlan.finite(v);
            }
            if (value == null) {
                throw invalid("extra " + JSONObject.quote(key) + " of type " + type + " has the value " + v);
            }
            return value;
        }
    }
}
