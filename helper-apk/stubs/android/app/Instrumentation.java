package android.app;

import android.content.Context;
import android.os.Bundle;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/app/Instrumentation
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public class Instrumentation {
    // API 1
    public Instrumentation() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void onCreate(Bundle arguments) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void start() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void onStart() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public Context getContext() {
        throw new RuntimeException("Stub!");
    }

    // API 18
    public UiAutomation getUiAutomation() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void sendStatus(int resultCode, Bundle results) {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public void finish(int resultCode, Bundle results) {
        throw new RuntimeException("Stub!");
    }
}
