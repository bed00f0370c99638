package dev.flow.helper;

import java.io.IOException;
import java.io.OutputStream;

import android.content.ContentResolver;
import android.content.ContentValues;
import android.net.Uri;
import android.os.Build;
import android.provider.MediaStore;

/** addMedia: a file inserted into the media store (Maestro's Media.kt does the same). */
final class Media {
    private final ContentResolver resolver;

    Media(ContentResolver resolver) {
        this.resolver = resolver;
    }

    static String mimeType(String ext) {
        if ("jpg".equals(ext) || "jpeg".equals(ext)) {
            return "image/jpeg";
        }
        if ("mp4".equals(ext)) {
            return "video/mp4";
        }
        return "image/" + ext;
    }

    /**
     * Inserts the entry and copies body into it as it arrives, in chunks
     * (BodyStream.CHUNK), never holding the file: a video of hundreds of
     * megabytes does not fit a phone app's heap. A failed copy removes the
     * half-written entry.
     */
    String add(String name, String ext, BodyStream body) throws HelperException {
        boolean video = "mp4".equals(ext);
        ContentValues v = new ContentValues();
        v.put(MediaStore.MediaColumns.DISPLAY_NAME, name + "." + ext);
        v.put(MediaStore.MediaColumns.MIME_TYPE, mimeType(ext));
        if (Build.VERSION.SDK_INT >= 29) {
            v.put(MediaStore.MediaColumns.RELATIVE_PATH, video ? "Movies/flow" : "Pictures/flow");
        }
        Uri collection = video ? MediaStore.Video.Media.EXTERNAL_CONTENT_URI : MediaStore.Images.Media.EXTERNAL_CONTENT_URI;
        Uri uri;
        try {
            uri = resolver.insert(collection, v);
        } catch (SecurityException e) {
            throw new HelperException(HelperException.COMMAND_FAILED, "the media store refused " + name + "." + ext + ": " + e.getMessage(),
                    "below Android 10 the helper needs storage access: adb shell pm grant dev.flow.helper android.permission.WRITE_EXTERNAL_STORAGE");
        }
        if (uri == null) {
            throw new HelperException(HelperException.COMMAND_FAILED, "the media store did not take " + name + "." + ext,
                    "check the device's free storage");
        }
        try {
            OutputStream out = resolver.openOutputStream(uri);
            if (out == null) {
                throw new IOException("the provider has no stream for it");
            }
            try {
                body.copyTo(out);
            } finally {
                out.close();
            }
        } catch (IOException e) {
            try {
                resolver.delete(uri, null, null);
            } catch (RuntimeException ignored) {
                // The entry stays; the error below still says what failed.
            }
            throw new HelperException(HelperException.COMMAND_FAILED, "writing " + uri + " failed: " + e.getMessage(),
                    "check the device's free storage");
        }
        return uri.toString();
    }
}
