package dev.flow.helper;

import java.util.Map;

import android.app.Instrumentation;
import android.app.UiAutomation;
import android.os.Build;
import android.os.Bundle;
import android.os.Process;
import android.util.Log;

/**
 * Started by `am instrument -w -e socket flow-helper-<hex8>
 * dev.flow.helper/.FlowInstrumentation` (PROTOCOL.md "Start and stop"): it
 * owns UiAutomation, listens, reports ready, serves flow until quit and
 * finishes, which ends the am instrument stream.
 */
public final class FlowInstrumentation extends Instrumentation {
    private String socket;
    private String startError;

    @Override
    public void onCreate(Bundle arguments) {
        super.onCreate(arguments);
        try {
            socket = InstrumentationStatus.socketName(arguments == null ? null : arguments.getString(InstrumentationStatus.SOCKET_ARG));
        } catch (IllegalArgumentException e) {
            startError = e.getMessage();
        }
        start();
    }

    @Override
    public void onStart() {
        super.onStart();
        if (startError != null) {
            finish(1, bundle(InstrumentationStatus.failed(startError)));
            return;
        }
        UiAutomation automation;
        try {
            automation = getUiAutomation();
        } catch (Throwable t) {
            // Uncaught, this kills the process and am prints only "Process
            // crashed.": report why, so flow can say how to free UiAutomation.
            Log.e(AndroidDevice.TAG, "UiAutomation did not connect", t);
            sendStatus(InstrumentationStatus.FAILED_STATUS_CODE, bundle(InstrumentationStatus.uiAutomationFailed(t)));
            finish(1, new Bundle());
            return;
        }
        if (automation == null) {
            // am creates the UiAutomation connection only for -w, in its own
            // process: the helper lives as long as that am instrument does.
            finish(1, bundle(InstrumentationStatus.failed("no UiAutomation: start the helper with am instrument -w")));
            return;
        }
        AndroidDevice device = null;
        try {
            device = new AndroidDevice(automation, getContext());
            SessionServer server = new SessionServer(new HelperServer(socket), device, new Runnable() {
                public void run() {
                    // Touch schedules sleep to the millisecond: the session
                    // thread wakes as the display pipeline's threads do.
                    Process.setThreadPriority(Process.THREAD_PRIORITY_DISPLAY);
                }
            });
            Device.Info info = device.info();
            sendStatus(InstrumentationStatus.STATUS_CODE, bundle(InstrumentationStatus.ready(info.versionCode, Build.VERSION.SDK_INT)));
            server.run();
            device.close();
            finish(0, new Bundle());
        } catch (Throwable t) {
            Log.e(AndroidDevice.TAG, "the helper stopped", t);
            if (device != null) {
                device.close();
            }
            finish(1, bundle(InstrumentationStatus.failed(String.valueOf(t))));
        }
    }

    private static Bundle bundle(Map<String, String> values) {
        Bundle b = new Bundle();
        for (Map.Entry<String, String> e : values.entrySet()) {
            b.putString(e.getKey(), e.getValue());
        }
        return b;
    }
}
