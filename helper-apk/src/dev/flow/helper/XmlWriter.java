package dev.flow.helper;

import java.util.List;

/**
 * Writes window roots as Maestro's UIAutomator XML (maestro-android
 * ViewHierarchy.kt): a hierarchy element with the display rotation and one
 * node element per window root, each node with the attributes PROTOCOL.md
 * lists in that order. Like Maestro it keeps only children that are visible
 * to the user (everything inside a WebView, whose contents often claim to be
 * invisible), clips bounds to the display, and replaces characters XML
 * cannot carry with '.'. Unlike Maestro it writes no declaration and no
 * indentation (flow parses the XML, nobody reads it), adds hintText, and
 * stops at maxNodes elements or maxDepth levels, saying so.
 */
public final class XmlWriter {
    /** What a dump produced. */
    public static final class Result {
        public final String xml;
        public final int nodes;
        public final boolean truncated;
        /**
         * A SurfaceView, TextureView or WebView is on screen: its pixels can
         * change without any accessibility event.
         */
        public final boolean opaque;

        Result(String xml, int nodes, boolean truncated, boolean opaque) {
            this.xml = xml;
            this.nodes = nodes;
            this.truncated = truncated;
            this.opaque = opaque;
        }
    }

    private static final String WEBVIEW = "android.webkit.WebView";

    private final StringBuilder out = new StringBuilder(16 * 1024);
    private final int width;
    private final int height;
    private final int maxNodes;
    private final int maxDepth;
    private final int[] bounds = new int[4];
    private int nodes;
    private boolean truncated;
    private boolean opaque;

    private XmlWriter(int width, int height, int maxNodes, int maxDepth) {
        this.width = width;
        this.height = height;
        this.maxNodes = maxNodes;
        this.maxDepth = maxDepth;
    }

    /**
     * Dumps the roots (which it does not recycle: their owner does) on a
     * display of width x height pixels.
     */
    public static Result write(int rotation, List<NodeSource> roots, int width, int height, int maxNodes, int maxDepth) {
        XmlWriter w = new XmlWriter(width, height, maxNodes, maxDepth);
        w.out.append("<hierarchy rotation=\"").append(rotation).append('"');
        boolean any = false;
        for (NodeSource root : roots) {
            if (root == null) {
                continue;
            }
            if (!any) {
                w.out.append('>');
                any = true;
            }
            w.node(root, 0, 1, isWebView(root));
        }
        w.out.append(any ? "</hierarchy>" : "/>");
        return new Result(w.out.toString(), w.nodes, w.truncated, w.opaque);
    }

    private void node(NodeSource n, int index, int depth, boolean insideWebView) {
        if (nodes >= maxNodes || depth > maxDepth) {
            truncated = true;
            return;
        }
        nodes++;
        String cls = str(n.className());
        if (cls.endsWith("SurfaceView") || cls.endsWith("TextureView") || cls.endsWith("WebView")) {
            opaque = true;
        }
        out.append("<node");
        attr("index", Integer.toString(index));
        attr("text", str(n.text()));
        attr("resource-id", str(n.resourceId()));
        attr("class", cls);
        attr("package", str(n.packageName()));
        attr("content-desc", str(n.contentDescription()));
        attr("checkable", n.checkable());
        attr("checked", n.checked());
        attr("clickable", n.clickable());
        attr("enabled", n.enabled());
        attr("focusable", n.focusable());
        attr("focused", n.focused());
        attr("scrollable", n.scrollable());
        attr("long-clickable", n.longClickable());
        attr("password", n.password());
        attr("selected", n.selected());
        attr("visible-to-user", n.visibleToUser());
        attr("bounds", visibleBounds(n));
        attr("hintText", str(n.hintText()));
        int count = n.childCount();
        boolean open = false;
        for (int i = 0; i < count; i++) {
            // Every child fetch is a binder call on the phone: stop asking
            // once nothing more can be written.
            if (nodes >= maxNodes || depth >= maxDepth) {
                truncated = true;
                break;
            }
            NodeSource child = n.child(i);
            if (child == null) {
                continue;
            }
            try {
                if (child.visibleToUser() || insideWebView) {
                    if (!open) {
                        out.append('>');
                        open = true;
                    }
                    node(child, i, depth + 1, insideWebView || isWebView(child));
                }
            } finally {
                child.recycle();
            }
        }
        out.append(open ? "</node>" : "/>");
    }

    private static boolean isWebView(NodeSource n) {
        return WEBVIEW.contentEquals(str(n.className()));
    }

    /** Bounds clipped to the display; off-screen nodes get [0,0][0,0] (AccessibilityNodeInfoHelper). */
    private String visibleBounds(NodeSource n) {
        n.boundsInScreen(bounds);
        int l = Math.max(bounds[0], 0);
        int t = Math.max(bounds[1], 0);
        int r = Math.min(bounds[2], width);
        int b = Math.min(bounds[3], height);
        if (l >= r || t >= b) {
            l = t = r = b = 0;
        }
        return "[" + l + "," + t + "][" + r + "," + b + "]";
    }

    private void attr(String name, boolean value) {
        attr(name, value ? "true" : "false");
    }

    private void attr(String name, String value) {
        out.append(' ').append(name).append("=\"");
        escape(value);
        out.append('"');
    }

    private static String str(CharSequence cs) {
        return cs == null ? "" : cs.toString();
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&':
                    out.append("&amp;");
                    break;
                case '<':
                    out.append("&lt;");
                    break;
                case '>':
                    out.append("&gt;");
                    break;
                case '"':
                    out.append("&quot;");
                    break;
                case '\t':
                case '\n':
                case '\r':
                    // Attribute normalization would turn them into spaces.
                    out.append("&#").append((int) c).append(';');
                    break;
                default:
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        int cp = Character.toCodePoint(c, s.charAt(i + 1));
                        if (invalid(cp)) {
                            out.append('.');
                        } else {
                            out.append(c).append(s.charAt(i + 1));
                        }
                        i++;
                    } else if (Character.isSurrogate(c) || invalid(c)) {
                        out.append('.');
                    } else {
                        out.append(c);
                    }
            }
        }
    }

    /**
     * Characters ViewHierarchy.kt's stripInvalidXMLChars replaces (XML 1.1
     * restricted and non-characters), plus NUL and U+FFFE/U+FFFF, which no
     * XML may hold.
     */
    static boolean invalid(int c) {
        return c == 0 || (c >= 0x1 && c <= 0x8) || (c >= 0xB && c <= 0xC) || (c >= 0xE && c <= 0x1F)
                || (c >= 0x7F && c <= 0x84) || (c >= 0x86 && c <= 0x9F) || (c >= 0xFDD0 && c <= 0xFDDF)
                || (c & 0xFFFE) == 0xFFFE;
    }
}
