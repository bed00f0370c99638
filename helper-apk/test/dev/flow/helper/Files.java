package dev.flow.helper;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/** Test data locations (set by helper-apk/java_test.go) and JSON comparison. */
final class Files {
    private Files() {
    }

    static File dir(String property) {
        String d = System.getProperty(property);
        if (d == null) {
            throw new IllegalStateException("-D" + property + "=DIR is not set; run the tests with go test ./helper-apk");
        }
        return new File(d);
    }

    static List<File> list(File dir, String suffix) {
        File[] all = dir.listFiles();
        if (all == null) {
            throw new IllegalStateException(dir + " is not a directory");
        }
        List<File> out = new ArrayList<File>();
        for (File f : all) {
            if (f.isFile() && f.getName().endsWith(suffix)) {
                out.add(f);
            }
        }
        java.util.Collections.sort(out);
        if (out.isEmpty()) {
            throw new IllegalStateException("no *" + suffix + " in " + dir);
        }
        return out;
    }

    static String read(File f) throws IOException {
        return new String(java.nio.file.Files.readAllBytes(f.toPath()), "UTF-8");
    }

    static List<String> lines(File f) throws IOException {
        List<String> out = new ArrayList<String>();
        for (String l : read(f).split("\n")) {
            if (!l.trim().isEmpty()) {
                out.add(l);
            }
        }
        return out;
    }

    /** JSON values equal as values: key order is free, 2 equals 2.0. */
    static boolean jsonEqual(Object a, Object b) throws JSONException {
        if (a instanceof JSONObject && b instanceof JSONObject) {
            JSONObject x = (JSONObject) a;
            JSONObject y = (JSONObject) b;
            if (x.length() != y.length()) {
                return false;
            }
            for (Iterator<String> it = x.keys(); it.hasNext();) {
                String k = it.next();
                if (!y.has(k) || !jsonEqual(x.get(k), y.get(k))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof JSONArray && b instanceof JSONArray) {
            JSONArray x = (JSONArray) a;
            JSONArray y = (JSONArray) b;
            if (x.length() != y.length()) {
                return false;
            }
            for (int i = 0; i < x.length(); i++) {
                if (!jsonEqual(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Number && b instanceof Number) {
            return ((Number) a).doubleValue() == ((Number) b).doubleValue();
        }
        return a.equals(b);
    }

    static List<String> splitWords(String s) {
        return Arrays.asList(s.split(" "));
    }
}
