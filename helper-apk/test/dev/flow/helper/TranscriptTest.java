package dev.flow.helper;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.Test;

/**
 * Replays every flow-helper-v1 transcript (helper-apk/testdata/wire, the
 * ones the Go client and the fake helper replay too) through Protocol: each
 * send goes in, and what Protocol writes must be the transcript's recv (as a
 * JSON value) and recvBytes (exactly). The device behind it is scripted from
 * the transcript, but only for what a phone decides (the screen, the
 * clock); what the protocol decides (validation, framing, the schedule, the
 * XML, keys for text) is checked against it.
 */
public class TranscriptTest {
    /** A device that answers from the current transcript step and records what it was asked. */
    static final class ScriptedDevice implements Device {
        JSONObject send;
        JSONObject recv;
        byte[] sendBody;
        byte[] recvBytes;
        final List<String> calls = new ArrayList<String>();
        final List<String> keys = new ArrayList<String>();
        final StringBuilder typed = new StringBuilder();
        int pauses;

        void begin(JSONObject send, byte[] sendBody, JSONObject recv, byte[] recvBytes) {
            this.send = send;
            this.sendBody = sendBody;
            this.recv = recv;
            this.recvBytes = recvBytes;
            calls.clear();
            keys.clear();
            typed.setLength(0);
            pauses = 0;
        }

        private void call(String name) {
            calls.add(name);
        }

        /** The transcript's error, when the device is the one that fails. */
        private void maybeFail() throws HelperException {
            if (recv.optBoolean("ok")) {
                return;
            }
            String code = recv.optString("code");
            if (code.equals(HelperException.INVALID_ARGS) || code.equals(HelperException.UNSUPPORTED_OPERATION)) {
                throw new AssertionError("request " + send + " reached the device; the protocol must refuse it itself");
            }
            throw new HelperException(code, recv.optString("message"), recv.has("hint") ? recv.optString("hint") : null);
        }

        public Info info() {
            call("info");
            JSONObject d = recv.optJSONObject("display");
            if (d != null) {
                return new Info(recv.optLong("versionCode"), recv.optInt("sdk"), d.optInt("w"), d.optInt("h"),
                        d.optInt("rotation"), d.optDouble("density"));
            }
            int rotation = 0;
            if (recv.has("xml")) {
                try {
                    rotation = TestNode.rotation(recv.optString("xml"));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            return new Info(1, 34, 1080, 2400, rotation, 2.625);
        }

        public long eventSeq() {
            call("eventSeq");
            return Long.parseLong(recv.optString("eventSeq"));
        }

        public void waitForIdle(long quietMs, long timeoutMs) {
            call("waitForIdle");
            assertEquals(send.optLong("idleQuietMs", 100), quietMs);
            assertEquals(send.optLong("idleTimeoutMs", 500), timeoutMs);
        }

        public boolean waitForQuiet(long quietMs, long timeoutMs) {
            call("waitForQuiet");
            assertEquals(send.optLong("quietMs"), quietMs);
            assertEquals(send.optLong("timeoutMs"), timeoutMs);
            return recv.optBoolean("still");
        }

        public void refresh() {
            call("refresh");
        }

        public List<NodeSource> windowRoots() {
            call("windowRoots");
            try {
                return TestNode.fromXml(recv.optString("xml"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        public Box appWindow() throws HelperException {
            call("appWindow");
            maybeFail();
            JSONObject kb = recv.optJSONObject("keyboard");
            int y = recv.optInt("y");
            // The app window reaches under the keyboard; the protocol must cut it.
            int h = kb != null ? kb.optInt("y") + kb.optInt("h") - y : recv.optInt("h");
            return new Box(recv.optInt("x"), y, recv.optInt("w"), h);
        }

        public Box inputMethodWindow() {
            call("inputMethodWindow");
            JSONObject kb = recv.optJSONObject("keyboard");
            if (kb != null) {
                return new Box(kb.optInt("x"), kb.optInt("y"), kb.optInt("w"), kb.optInt("h"));
            }
            return recv.optBoolean("wasShown") ? new Box(0, 1500, 1080, 900) : null;
        }

        public TouchInjector.Result touch(List<PointerEventSchedule.Event> events) throws HelperException {
            call("touch");
            maybeFail();
            // The schedule's length is the protocol's: N+1 events for one
            // contact, N+3 for two (exec/android Schedule).
            assertEquals("events scheduled for " + send, recv.optInt("injectedEvents"), events.size());
            return new TouchInjector.Result(events.size(), recv.optLong("elapsedMs"), recv.optLong("lateMs"), recv.optLong("downWaitMs"));
        }

        public void key(int code, int meta, boolean longPress) throws HelperException {
            call("key");
            keys.add(code + "/" + meta + "/" + longPress);
            maybeFail();
        }

        public String insertText(String chars) throws HelperException {
            call("insertText");
            typed.append(chars);
            maybeFail();
            // A transcript that answers setText scripts a field that refuses the paste.
            return TextEntry.SET_TEXT.equals(recv.optString("method")) ? TextEntry.SET_TEXT : TextEntry.PASTE;
        }

        public void pause(long ms) {
            call("pause");
            assertEquals(TextEntry.CHARACTER_GAP_MS, ms);
            pauses++;
        }

        public Capture screenshot() throws HelperException {
            call("screenshot");
            maybeFail();
            return new Capture(recvBytes, recv.optBoolean("black"));
        }

        public void launch(String pkg, List<Extra> extras) throws HelperException {
            call("launch");
            assertEquals(send.optString("pkg"), pkg);
            JSONArray want = send.optJSONArray("extras");
            assertEquals(want.length(), extras.size());
            for (int i = 0; i < extras.size(); i++) {
                JSONObject w = want.optJSONObject(i);
                Extra e = extras.get(i);
                assertEquals(w.optString("k"), e.key);
                assertEquals(w.optString("type"), e.type);
                Class<?> cls = Arrays.asList(String.class, Boolean.class, Integer.class, Long.class, Double.class)
                        .get(Arrays.asList("string", "bool", "int", "long", "double").indexOf(e.type));
                assertEquals("extra " + e.key + " is a " + e.type, cls, e.value.getClass());
                assertEquals(w.opt("v").toString(), e.value.toString().replaceAll("\\.0$", ""));
            }
            maybeFail();
        }

        public List<String> requestedPermissions(String pkg) throws HelperException {
            call("requestedPermissions");
            assertEquals(send.optString("pkg"), pkg);
            maybeFail();
            List<String> out = new ArrayList<String>();
            JSONArray r = recv.optJSONArray("requested");
            for (int i = 0; i < r.length(); i++) {
                out.add(r.optString(i));
            }
            return out;
        }

        public void setLocation(double lat, double lon) throws HelperException {
            call("setLocation");
            assertEquals(send.optDouble("lat"), lat, 0);
            assertEquals(send.optDouble("lon"), lon, 0);
            maybeFail();
        }

        public String addMedia(String name, String ext, BodyStream body) throws HelperException {
            call("addMedia");
            assertEquals(send.optString("name"), name);
            assertEquals(send.optString("ext"), ext);
            ByteArrayOutputStream copy = new ByteArrayOutputStream();
            try {
                body.copyTo(copy);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            assertArrayEquals(sendBody, copy.toByteArray());
            maybeFail();
            return recv.optString("uri");
        }

        public void log(String op, Throwable t) {
            throw new AssertionError("unexpected failure in " + op, t);
        }
    }

    private static List<File> transcripts() {
        File wire = Files.dir("flow.wire");
        List<File> out = new ArrayList<File>(Files.list(wire, ".jsonl"));
        out.addAll(Files.list(new File(wire, "raw"), ".jsonl"));
        return out;
    }

    @Test
    public void everyTranscriptReplays() throws Exception {
        int requests = 0;
        for (File f : transcripts()) {
            requests += replay(f);
        }
        assertTrue("too few requests replayed: " + requests, requests >= 40);
    }

    private static byte[] bytesOf(List<JSONObject> steps, int i, String key) {
        if (i < steps.size() && steps.get(i).has(key)) {
            return java.util.Base64.getDecoder().decode(steps.get(i).optString(key));
        }
        return null;
    }

    private static int replay(File f) throws Exception {
        List<JSONObject> steps = new ArrayList<JSONObject>();
        for (String line : Files.lines(f)) {
            JSONObject o = new JSONObject(line);
            if (!o.has("comment")) {
                steps.add(o);
            }
        }
        ScriptedDevice device = new ScriptedDevice();
        Protocol protocol = new Protocol(device);
        int connection = 1;
        int requests = 0;
        for (int i = 0; i < steps.size(); i++) {
            JSONObject s = steps.get(i);
            String where = f.getName() + " step " + i;
            if (s.has("connection")) {
                connection = s.getInt("connection");
                continue;
            }
            if (s.has("recv")) {
                // A line that answers no request: the busy line of a second connection.
                assertTrue(where + ": a recv without a send on connection 1", connection != 1);
                assertTrue(where + ": " + s.get("recv"), Files.jsonEqual(new JSONObject(Protocol.busyLine()), s.get("recv")));
                continue;
            }
            JSONObject send = s.getJSONObject("send");
            int j = i + 1;
            byte[] sendBody = bytesOf(steps, j, "sendBytes");
            if (sendBody != null) {
                j++;
            }
            JSONObject recv = steps.get(j).getJSONObject("recv");
            j++;
            byte[] recvBytes = bytesOf(steps, j, "recvBytes");
            if (recvBytes != null) {
                j++;
            }
            i = j - 1;
            device.begin(send, sendBody, recv, recvBytes);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            // The body is followed by a sentinel the protocol must not read.
            byte[] sentinel = "{\"id\":999}\n".getBytes("UTF-8");
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            if (sendBody != null) {
                in.write(sendBody);
            }
            in.write(sentinel);
            ByteArrayInputStream input = new ByteArrayInputStream(in.toByteArray());
            protocol.handle(send.toString().getBytes("UTF-8"), input, out);
            assertEquals(where + ": the protocol read past the request's body", sentinel.length, input.available());
            byte[] written = out.toByteArray();
            int nl = indexOf(written, (byte) '\n');
            assertTrue(where + ": no answer line", nl >= 0);
            JSONObject got = new JSONObject(new String(written, 0, nl, "UTF-8"));
            if (!Files.jsonEqual(got, recv)) {
                fail(where + ":\n got " + got + "\nwant " + recv);
            }
            byte[] tail = Arrays.copyOfRange(written, nl + 1, written.length);
            assertArrayEquals(where + ": bytes after the answer", recvBytes == null ? new byte[0] : recvBytes, tail);
            checkCalls(where, send, recv, device);
            // quit, or a device that can no longer serve, ends the session.
            boolean ends = "quit".equals(send.optString("op")) && recv.optBoolean("ok")
                    || HelperException.DEVICE_UNAVAILABLE.equals(recv.optString("code"));
            assertEquals(where + ": the session ends", ends, protocol.quitRequested());
            requests++;
        }
        return requests;
    }

    /** What the protocol must have asked the device, given the request. */
    private static void checkCalls(String where, JSONObject send, JSONObject recv, ScriptedDevice d) {
        String code = recv.optString("code");
        if (code.equals(HelperException.INVALID_ARGS) || code.equals(HelperException.UNSUPPORTED_OPERATION)) {
            assertEquals(where + ": a refused request must not reach the device", new ArrayList<String>(), d.calls);
            return;
        }
        List<String> want = new ArrayList<String>();
        String op = send.optString("op");
        if (op.equals("key")) {
            want.add(send.optInt("code") + "/" + send.optInt("meta") + "/" + send.optBoolean("longPress"));
        } else if (op.equals("text") && recv.optBoolean("ok")) {
            // Newline and tab are keys, every other character is inserted,
            // one by one with the gap between characters.
            String text = send.optString("text");
            StringBuilder inserted = new StringBuilder();
            int chars = text.codePointCount(0, text.length());
            for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
                int cp = text.codePointAt(i);
                if (KeyText.special(cp) != 0) {
                    want.add(KeyText.special(cp) + "/0/false");
                } else {
                    inserted.appendCodePoint(cp);
                }
            }
            assertEquals(where + ": inserted", inserted.toString(), d.typed.toString());
            assertEquals(where + ": pauses", Math.max(0, chars - 1), d.pauses);
        } else if (op.equals("erase")) {
            for (int i = 0; i < send.optInt("count"); i++) {
                want.add("67/0/false");
            }
        } else if (op.equals("hideKeyboard") && recv.optBoolean("wasShown")) {
            want.add("4/0/false");
        }
        assertEquals(where + ": keys", want, d.keys);
        if (op.equals("settle") || op.equals("hierarchy")) {
            // The counter is read before the windows, never after.
            assertTrue(where + ": " + d.calls, d.calls.indexOf("eventSeq") < d.calls.indexOf("windowRoots"));
        }
        // Every read of windows or nodes comes after a cache refresh.
        for (String read : new String[] {"windowRoots", "appWindow", "inputMethodWindow"}) {
            int at = d.calls.indexOf(read);
            if (at >= 0) {
                assertTrue(where + ": " + read + " before refresh: " + d.calls, d.calls.subList(0, at).contains("refresh"));
            }
        }
    }

    private static int indexOf(byte[] b, byte v) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
