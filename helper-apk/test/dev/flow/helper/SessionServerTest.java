package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.json.JSONObject;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * SessionServer over TCP on the loopback, as HelperServer serves it over
 * the abstract socket flow's adb forward reaches (PROTOCOL.md "Start and
 * stop").
 */
public class SessionServerTest {
    /** SessionServer.Listener over a TCP server socket. */
    static final class TcpListener implements SessionServer.Listener {
        final ServerSocket server;

        TcpListener() throws IOException {
            server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        }

        public SessionServer.Connection accept() throws IOException {
            final Socket s = server.accept();
            return new SessionServer.Connection() {
                public InputStream input() throws IOException {
                    return s.getInputStream();
                }

                public OutputStream output() throws IOException {
                    return s.getOutputStream();
                }

                public void close() throws IOException {
                    s.close();
                }
            };
        }

        public void wake() {
            try {
                new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort()).close();
            } catch (IOException ignored) {
                // accept already returned
            }
        }

        public void close() throws IOException {
            server.close();
        }
    }

    /** flow's side of one connection. */
    static final class Client {
        final Socket s;
        final BufferedReader in;
        final OutputStream out;

        Client(TcpListener l) throws IOException {
            s = new Socket(InetAddress.getLoopbackAddress(), l.server.getLocalPort());
            s.setSoTimeout(10000);
            in = new BufferedReader(new InputStreamReader(s.getInputStream(), "UTF-8"));
            out = s.getOutputStream();
        }

        JSONObject call(String line) throws Exception {
            out.write((line + "\n").getBytes("UTF-8"));
            out.flush();
            String answer = in.readLine();
            if (answer == null) {
                throw new IOException("the helper closed the connection");
            }
            return new JSONObject(answer);
        }
    }

    private TcpListener listener;
    private SessionServer server;
    private ExecutorService pool;
    private Future<Void> running;

    @Before
    public void start() throws IOException {
        listener = new TcpListener();
        server = new SessionServer(listener, new ProtocolTest.BaseDevice());
        pool = Executors.newCachedThreadPool();
        running = pool.submit(new java.util.concurrent.Callable<Void>() {
            public Void call() throws IOException {
                server.run();
                return null;
            }
        });
    }

    @After
    public void stop() throws IOException {
        listener.close();
        pool.shutdownNow();
    }

    private static final String HELLO = "{\"id\":1,\"op\":\"hello\",\"protocol\":\"flow-helper-v1\"}";

    @Test
    public void aSecondConnectionIsBusyAndTheFirstGoesOn() throws Exception {
        Client first = new Client(listener);
        assertTrue(first.call(HELLO).getBoolean("ok"));
        Client second = new Client(listener);
        JSONObject busy = new JSONObject(second.in.readLine());
        assertEquals(0, busy.getInt("id"));
        assertEquals("DEVICE_UNAVAILABLE", busy.getString("code"));
        assertEquals("helper busy", busy.getString("message"));
        assertEquals("the busy connection is closed after its line", null, second.in.readLine());
        assertEquals(2, first.call("{\"id\":2,\"op\":\"viewport\"}").getInt("id"));
        assertTrue(first.call("{\"id\":3,\"op\":\"quit\"}").getBoolean("ok"));
        running.get(10, TimeUnit.SECONDS);
        assertTrue(server.quitRequested());
    }

    @Test
    public void aDroppedSessionLeavesTheHelperListening() throws Exception {
        Client first = new Client(listener);
        assertTrue(first.call(HELLO).getBoolean("ok"));
        first.s.close();
        // The next client may arrive while the dropped session is still
        // winding down: it is either served or told busy, never left hanging.
        JSONObject answer = null;
        for (int i = 0; i < 100 && answer == null; i++) {
            Client again = new Client(listener);
            JSONObject a;
            try {
                a = again.call(HELLO);
            } catch (IOException refusedBeforeTheRequest) {
                Thread.sleep(20);
                continue;
            }
            if (a.getBoolean("ok")) {
                answer = a;
                assertTrue(again.call("{\"id\":2,\"op\":\"quit\"}").getBoolean("ok"));
            } else {
                assertEquals("helper busy", a.getString("message"));
                Thread.sleep(20);
            }
        }
        assertEquals("flow-helper-v1", answer.getString("protocol"));
        running.get(10, TimeUnit.SECONDS);
    }

    @Test
    public void runReturnsOnlyAfterQuit() throws Exception {
        Client c = new Client(listener);
        assertTrue(c.call(HELLO).getBoolean("ok"));
        try {
            running.get(200, TimeUnit.MILLISECONDS);
            throw new AssertionError("run returned while a session was open");
        } catch (TimeoutException expected) {
            // still serving
        }
        assertFalse(server.quitRequested());
        assertTrue(c.call("{\"id\":2,\"op\":\"quit\"}").getBoolean("ok"));
        try {
            running.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("run failed after quit", e.getCause());
        }
        assertTrue("the listener is closed after quit", listener.server.isClosed());
    }

    /**
     * On Android an uncaught Throwable on any thread kills the helper
     * (RuntimeInit.KillApplicationHandler); here the JVM's default handler
     * stands for it. An Error at the session thread's top ends that session
     * only: nothing reaches the handler and the next client is served.
     */
    @Test
    public void anErrorAtTheSessionTopNeitherEscapesNorStopsTheHelper() throws Exception {
        final List<Throwable> uncaught = new CopyOnWriteArrayList<Throwable>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(new Thread.UncaughtExceptionHandler() {
            public void uncaughtException(Thread t, Throwable e) {
                uncaught.add(e);
            }
        });
        try {
            final TcpListener inner = new TcpListener();
            final boolean[] first = {true};
            SessionServer.Listener failing = new SessionServer.Listener() {
                public SessionServer.Connection accept() throws IOException {
                    final SessionServer.Connection c = inner.accept();
                    final boolean fail;
                    synchronized (first) {
                        fail = first[0];
                        first[0] = false;
                    }
                    return new SessionServer.Connection() {
                        public InputStream input() throws IOException {
                            if (fail) {
                                throw new StackOverflowError("deep");
                            }
                            return c.input();
                        }

                        public OutputStream output() throws IOException {
                            return c.output();
                        }

                        public void close() throws IOException {
                            c.close();
                        }
                    };
                }

                public void wake() {
                    inner.wake();
                }

                public void close() throws IOException {
                    inner.close();
                }
            };
            ProtocolTest.BaseDevice device = new ProtocolTest.BaseDevice();
            final SessionServer s = new SessionServer(failing, device);
            Future<Void> run = pool.submit(new java.util.concurrent.Callable<Void>() {
                public Void call() throws IOException {
                    s.run();
                    return null;
                }
            });
            Client broken = new Client(inner);
            assertEquals("the failed session is closed", null, broken.in.readLine());
            JSONObject answer = null;
            for (int i = 0; i < 100 && answer == null; i++) {
                JSONObject a = new Client(inner).call(HELLO);
                if (a.getBoolean("ok")) {
                    answer = a;
                } else {
                    Thread.sleep(20);
                }
            }
            assertEquals("flow-helper-v1", answer.getString("protocol"));
            assertEquals("[]", uncaught.toString());
            assertEquals(1, device.logged.size());
            assertTrue(device.logged.get(0), device.logged.get(0).contains("StackOverflowError"));
            inner.close();
            run.cancel(true);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    public void theSessionThreadIsSetUpBeforeItServes() throws Exception {
        final List<String> setup = new CopyOnWriteArrayList<String>();
        TcpListener l = new TcpListener();
        ProtocolTest.BaseDevice device = new ProtocolTest.BaseDevice();
        final SessionServer s = new SessionServer(l, device, new Runnable() {
            public void run() {
                setup.add(Thread.currentThread().getName());
                // Process.setThreadPriority throws SecurityException when refused.
                throw new SecurityException("no permission to raise the priority");
            }
        });
        Future<Void> run = pool.submit(new java.util.concurrent.Callable<Void>() {
            public Void call() throws IOException {
                s.run();
                return null;
            }
        });
        Client c = new Client(l);
        assertTrue("a refused setup does not end the session", c.call(HELLO).getBoolean("ok"));
        assertEquals("[flow-helper-session]", setup.toString());
        assertTrue(c.call("{\"id\":2,\"op\":\"quit\"}").getBoolean("ok"));
        run.get(10, TimeUnit.SECONDS);
        assertEquals(1, device.logged.size());
    }
}
