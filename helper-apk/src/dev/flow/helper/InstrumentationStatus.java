package dev.flow.helper;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The instrumentation's start-up contract with flow (PROTOCOL.md "Start and
 * stop"): the socket argument it accepts and the status block `am instrument`
 * prints once it listens.
 */
public final class InstrumentationStatus {
    public static final String PROTOCOL = "flow-helper-v1";
    public static final String SOCKET_ARG = "socket";
    /** Sent with Instrumentation.sendStatus; am instrument prints it as 1. */
    public static final int STATUS_CODE = 1;
    /** The status code of the failed block: am instrument prints it as -1. */
    public static final int FAILED_STATUS_CODE = -1;
    /** Another automation (a Maestro or Appium driver, uiautomator dump) holds UiAutomation. */
    public static final String CAUSE_BUSY = "uiautomation-busy";
    /** UiAutomation did not connect in time. */
    public static final String CAUSE_TIMEOUT = "uiautomation-timeout";

    private static final Pattern SOCKET = Pattern.compile("flow-helper-[0-9a-f]{8}");

    private InstrumentationStatus() {
    }

    /**
     * The abstract socket name of the -e socket argument; anything else is
     * refused so a stray start cannot listen on a name flow never chose.
     */
    public static String socketName(String arg) {
        if (arg == null) {
            throw new IllegalArgumentException("missing -e " + SOCKET_ARG + " flow-helper-<8 hex digits>");
        }
        if (!SOCKET.matcher(arg).matches()) {
            throw new IllegalArgumentException("-e " + SOCKET_ARG + " \"" + arg + "\" is not flow-helper-<8 hex digits>");
        }
        return arg;
    }

    /** The ready block, in the order am instrument prints it. */
    public static Map<String, String> ready(long versionCode, int sdk) {
        Map<String, String> m = new LinkedHashMap<String, String>();
        m.put("flowHelper", "ready");
        m.put("protocol", PROTOCOL);
        m.put("versionCode", Long.toString(versionCode));
        m.put("sdk", Integer.toString(sdk));
        return m;
    }

    /**
     * The result of a helper that could not start. am instrument prints it as
     * INSTRUMENTATION_RESULT lines, which flow reads as a failed start and
     * quotes.
     */
    public static Map<String, String> failed(String reason) {
        Map<String, String> m = new LinkedHashMap<String, String>();
        m.put("flowHelper", "failed");
        m.put("Error", reason.replace('\n', ' '));
        return m;
    }

    /**
     * The status block of a helper whose UiAutomation could not connect
     * (PROTOCOL.md "Start and stop"): flow reads the cause and stops with
     * DEVICE_UNAVAILABLE and a hint instead of am's "Process crashed.".
     * AOSP UiAutomationManager.registerUiTestAutomationServiceLocked throws
     * IllegalStateException("UiAutomationService " + client + "already
     * registered!") while another automation is registered; every other
     * failure of UiAutomation.connect is its connect timeout
     * (RuntimeException "Error while connecting").
     */
    public static Map<String, String> uiAutomationFailed(Throwable t) {
        String message = t.getMessage() == null ? t.toString() : t.getMessage();
        boolean busy = t instanceof IllegalStateException && message.contains("already registered");
        Map<String, String> m = new LinkedHashMap<String, String>();
        m.put("flowHelper", "failed");
        m.put("cause", busy ? CAUSE_BUSY : CAUSE_TIMEOUT);
        m.put("message", message.replace('\n', ' '));
        return m;
    }
}
