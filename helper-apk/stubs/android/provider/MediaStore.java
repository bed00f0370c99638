package android.provider;

import android.net.Uri;

/**
 * Stub, not shipped: only the members the helper calls, so javac checks
 * each call. Source: developer.android.com/reference/android/provider/MediaStore
 * (signatures, constant values), checked member by member against the
 * API 28 android.jar (members newer than 28 against the page only). Each
 * member says the API level that added it; the helper's minSdk is 24
 * (helper-apk/manifest.go).
 */
public final class MediaStore {
    private MediaStore() {
        throw new RuntimeException("Stub!");
    }

    // API 1
    public interface MediaColumns {
        // API 1
        String DISPLAY_NAME = "_display_name";
        // API 1
        String MIME_TYPE = "mime_type";
        // API 29
        String RELATIVE_PATH = "relative_path";
    }

    // API 1
    public static final class Images {
        private Images() {
            throw new RuntimeException("Stub!");
        }

        // API 1
        public static final class Media {
            // API 1
            public static final Uri EXTERNAL_CONTENT_URI = null;

            private Media() {
                throw new RuntimeException("Stub!");
            }
        }
    }

    // API 1
    public static final class Video {
        private Video() {
            throw new RuntimeException("Stub!");
        }

        // API 1
        public static final class Media {
            // API 1
            public static final Uri EXTERNAL_CONTENT_URI = null;

            private Media() {
                throw new RuntimeException("Stub!");
            }
        }
    }
}
