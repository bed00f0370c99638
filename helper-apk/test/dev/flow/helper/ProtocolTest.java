package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.util.ArrayList;
import java.util.List;

import org.json.JSONObject;
import org.junit.Test;

/** The session loop and the failures no transcript can show. */
public class ProtocolTest {
    /** A device whose every operation is unexpected unless a test overrides it. */
    static class BaseDevice implements Device {
        final List<String> logged = new ArrayList<String>();

        public Info info() {
            return new Info(1, 34, 1080, 2400, 0, 2.625);
        }

        public long eventSeq() {
            return 1;
        }

        public void waitForIdle(long quietMs, long timeoutMs) {
        }

        public boolean waitForQuiet(long quietMs, long timeoutMs) {
            return true;
        }

        public void refresh() throws HelperException {
        }

        public List<NodeSource> windowRoots() {
            return new ArrayList<NodeSource>();
        }

        public Box appWindow() {
            return new Box(0, 0, 1080, 2400);
        }

        public Box inputMethodWindow() {
            return null;
        }

        public TouchInjector.Result touch(List<PointerEventSchedule.Event> events) {
            throw new AssertionError("touch");
        }

        public void key(int code, int meta, boolean longPress) {
            throw new AssertionError("key");
        }

        public String insertText(String chars) {
            throw new AssertionError("insertText");
        }

        public void pause(long ms) {
            throw new AssertionError("pause");
        }

        public Capture screenshot() {
            throw new AssertionError("screenshot");
        }

        public void launch(String pkg, List<Extra> extras) {
            throw new AssertionError("launch");
        }

        public List<String> requestedPermissions(String pkg) {
            throw new AssertionError("permissions");
        }

        public void setLocation(double lat, double lon) {
            throw new AssertionError("location");
        }

        public String addMedia(String name, String ext, BodyStream body) {
            throw new AssertionError("media");
        }

        public void log(String op, Throwable t) {
            logged.add(op + ": " + t);
        }
    }

    private static List<JSONObject> answers(ByteArrayOutputStream out) throws Exception {
        List<JSONObject> r = new ArrayList<JSONObject>();
        for (String l : new String(out.toByteArray(), "UTF-8").split("\n")) {
            if (!l.isEmpty()) {
                r.add(new JSONObject(l));
            }
        }
        return r;
    }

    private static ByteArrayInputStream in(String s) throws Exception {
        return new ByteArrayInputStream(s.getBytes("UTF-8"));
    }

    @Test
    public void servesUntilThePeerClosesAtALineBoundary() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Protocol p = new Protocol(new BaseDevice());
        assertFalse(p.serve(in("{\"id\":1,\"op\":\"viewport\"}\n{\"id\":2,\"op\":\"viewport\"}\n"), out));
        List<JSONObject> a = answers(out);
        assertEquals(2, a.size());
        assertEquals(2, a.get(1).getInt("id"));
        assertEquals(2400, a.get(1).getInt("h"));
    }

    @Test
    public void stopsReadingAtQuit() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayInputStream input = in("{\"id\":1,\"op\":\"quit\"}\n{\"id\":2,\"op\":\"viewport\"}\n");
        assertTrue(new Protocol(new BaseDevice()).serve(input, out));
        assertEquals(1, answers(out).size());
        assertTrue(input.available() > 0);
    }

    @Test
    public void aBrokenWireThrows() throws Exception {
        try {
            Protocol.readLine(in("0123456789"), 4);
            fail("an overlong line must break the wire");
        } catch (Protocol.ProtocolException expected) {
            // closed
        }
        try {
            new Protocol(new BaseDevice()).serve(in("{\"id\":1,\"op\":\"vie"), new ByteArrayOutputStream());
            fail("a line cut by the end of the stream must break the wire");
        } catch (EOFException expected) {
            // closed
        }
        try {
            new Protocol(new BaseDevice()).serve(in("{\"id\":1,\"op\":\"media\",\"bytes\":-1}\n"), new ByteArrayOutputStream());
            fail("a negative body length must break the wire");
        } catch (Protocol.ProtocolException expected) {
            // closed
        }
        try {
            new Protocol(new BaseDevice()).serve(in("{\"id\":1,\"op\":\"media\",\"bytes\":10}\nabc"), new ByteArrayOutputStream());
            fail("a short body must break the wire");
        } catch (EOFException expected) {
            // closed
        }
    }

    @Test
    public void answersLinesThatAreNotRequestsAndGoesOn() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Protocol(new BaseDevice()).serve(in("not json\n[1]\n{\"op\":\"viewport\"}\n{\"id\":3}\n{\"id\":4,\"op\":\"viewport\"}\n"), out);
        List<JSONObject> a = answers(out);
        assertEquals(5, a.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(a.get(i).toString(), "INVALID_ARGS", a.get(i).getString("code"));
        }
        assertEquals(0, a.get(0).getInt("id"));
        assertEquals(0, a.get(2).getInt("id"));
        assertEquals("request 3 has no \"op\"", a.get(3).getString("message"));
        assertTrue(a.get(4).getBoolean("ok"));
    }

    @Test
    public void anUnexpectedFailureIsInternalAndLogged() throws Exception {
        BaseDevice d = new BaseDevice() {
            @Override
            public Capture screenshot() {
                throw new IllegalStateException("no display");
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Protocol(d).serve(in("{\"id\":1,\"op\":\"screenshot\"}\n"), out);
        JSONObject a = answers(out).get(0);
        assertEquals("INTERNAL", a.getString("code"));
        assertEquals("screenshot failed: java.lang.IllegalStateException: no display", a.getString("message"));
        assertTrue(a.has("hint"));
        assertEquals(1, d.logged.size());
    }

    @Test
    public void theKeyboardCutsTheViewportOnlyWhereItOverlaps() throws Exception {
        BaseDevice d = new BaseDevice() {
            @Override
            public Box appWindow() {
                return new Box(0, 100, 1080, 1000);
            }

            @Override
            public Box inputMethodWindow() {
                return new Box(0, 1500, 1080, 900);
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Protocol(d).serve(in("{\"id\":1,\"op\":\"viewport\"}\n"), out);
        JSONObject a = answers(out).get(0);
        // The keyboard starts below a resized window: nothing to cut.
        assertEquals(1000, a.getInt("h"));
        assertEquals(1500, a.getJSONObject("keyboard").getInt("y"));
    }

    @Test
    public void hierarchyDefaultsAndBounds() throws Exception {
        final long[] idle = new long[2];
        BaseDevice d = new BaseDevice() {
            @Override
            public void waitForIdle(long quietMs, long timeoutMs) {
                idle[0] = quietMs;
                idle[1] = timeoutMs;
            }

            @Override
            public List<NodeSource> windowRoots() {
                List<NodeSource> r = new ArrayList<NodeSource>();
                r.add(new TestNode("r").add(new TestNode("a"), new TestNode("b")));
                return r;
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Protocol(d).serve(in("{\"id\":1,\"op\":\"hierarchy\"}\n{\"id\":2,\"op\":\"hierarchy\",\"maxNodes\":2}\n"
                + "{\"id\":3,\"op\":\"hierarchy\",\"maxNodes\":0}\n"), out);
        List<JSONObject> a = answers(out);
        assertEquals(100, idle[0]);
        assertEquals(500, idle[1]);
        assertEquals(3, a.get(0).getInt("nodes"));
        assertFalse(a.get(0).getBoolean("truncated"));
        assertEquals(2, a.get(1).getInt("nodes"));
        assertTrue(a.get(1).getBoolean("truncated"));
        assertEquals("hierarchy: field \"maxNodes\" must be positive", a.get(2).getString("message"));
    }

    @Test
    public void anErrorIsInternalAndTheSessionGoesOn() throws Exception {
        BaseDevice d = new BaseDevice() {
            @Override
            public Capture screenshot() {
                throw new OutOfMemoryError("Failed to allocate a 10368012 byte allocation");
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertFalse(new Protocol(d).serve(in("{\"id\":1,\"op\":\"screenshot\"}\n{\"id\":2,\"op\":\"viewport\"}\n"), out));
        List<JSONObject> a = answers(out);
        assertEquals("INTERNAL", a.get(0).getString("code"));
        assertEquals("screenshot failed: java.lang.OutOfMemoryError: Failed to allocate a 10368012 byte allocation",
                a.get(0).getString("message"));
        assertTrue(a.get(1).getBoolean("ok"));
        assertEquals(1, d.logged.size());
    }

    @Test
    public void aDisconnectedDeviceEndsTheSession() throws Exception {
        BaseDevice d = new BaseDevice() {
            @Override
            public void refresh() throws HelperException {
                throw UiConnection.disconnected();
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayInputStream input = in("{\"id\":1,\"op\":\"hierarchy\"}\n{\"id\":2,\"op\":\"viewport\"}\n");
        Protocol p = new Protocol(d);
        assertTrue("the session ends after DEVICE_UNAVAILABLE", p.serve(input, out));
        List<JSONObject> a = answers(out);
        assertEquals(1, a.size());
        assertEquals("DEVICE_UNAVAILABLE", a.get(0).getString("code"));
        assertEquals("UiAutomation disconnected", a.get(0).getString("message"));
        assertTrue(input.available() > 0);
    }

    @Test
    public void mediaBodiesStreamToTheDevice() throws Exception {
        final BodyStreamTest.CountingStream store = new BodyStreamTest.CountingStream();
        final long[] announced = new long[1];
        BaseDevice d = new BaseDevice() {
            @Override
            public String addMedia(String name, String ext, BodyStream body) {
                announced[0] = body.length();
                try {
                    body.copyTo(store);
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
                return "content://media/external/images/media/1";
            }
        };
        int n = 3 * BodyStream.CHUNK + 17;
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(("{\"id\":1,\"op\":\"media\",\"name\":\"cat\",\"ext\":\"png\",\"bytes\":" + n + "}\n").getBytes("UTF-8"));
        wire.write(new byte[n]);
        // A refused request's body is read off the wire all the same.
        wire.write("{\"id\":2,\"op\":\"media\",\"name\":\"scan\",\"ext\":\"bmp\",\"bytes\":5}\nabcde".getBytes("UTF-8"));
        wire.write("{\"id\":3,\"op\":\"viewport\"}\n".getBytes("UTF-8"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Protocol(d).serve(new ByteArrayInputStream(wire.toByteArray()), out);
        List<JSONObject> a = answers(out);
        assertEquals("content://media/external/images/media/1", a.get(0).getString("uri"));
        assertEquals(n, announced[0]);
        assertEquals(n, store.total);
        assertTrue(store.largest <= BodyStream.CHUNK);
        assertEquals("INVALID_ARGS", a.get(1).getString("code"));
        assertEquals(3, a.get(2).getInt("id"));
    }
}
