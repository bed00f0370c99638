package dev.flow.helper;

import java.util.ArrayList;
import java.util.List;

/** A NodeSource built by hand or from XML; it counts recycles and child fetches. */
final class TestNode implements NodeSource {
    String text = "";
    String resourceId = "";
    String className = "android.view.View";
    String packageName = "com.example";
    String contentDescription = "";
    String hintText = "";
    boolean checkable, checked, clickable, focusable, focused, scrollable, longClickable, password, selected;
    boolean enabled = true;
    boolean visible = true;
    int[] bounds = {0, 0, 100, 100};
    final List<TestNode> children = new ArrayList<TestNode>();
    int recycled;
    int fetched;

    TestNode(String className) {
        this.className = className;
    }

    TestNode text(String t) {
        text = t;
        return this;
    }

    TestNode bounds(int l, int t, int r, int b) {
        bounds = new int[] {l, t, r, b};
        return this;
    }

    TestNode invisible() {
        visible = false;
        return this;
    }

    TestNode add(TestNode... cs) {
        for (TestNode c : cs) {
            children.add(c);
        }
        return this;
    }

    public CharSequence text() {
        return text;
    }

    public CharSequence resourceId() {
        return resourceId;
    }

    public CharSequence className() {
        return className;
    }

    public CharSequence packageName() {
        return packageName;
    }

    public CharSequence contentDescription() {
        return contentDescription;
    }

    public CharSequence hintText() {
        return hintText;
    }

    public boolean checkable() {
        return checkable;
    }

    public boolean checked() {
        return checked;
    }

    public boolean clickable() {
        return clickable;
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean focusable() {
        return focusable;
    }

    public boolean focused() {
        return focused;
    }

    public boolean scrollable() {
        return scrollable;
    }

    public boolean longClickable() {
        return longClickable;
    }

    public boolean password() {
        return password;
    }

    public boolean selected() {
        return selected;
    }

    public boolean visibleToUser() {
        return visible;
    }

    public void boundsInScreen(int[] ltrb) {
        System.arraycopy(bounds, 0, ltrb, 0, 4);
    }

    public int childCount() {
        return children.size();
    }

    public NodeSource child(int index) {
        TestNode c = children.get(index);
        if (c != null) {
            c.fetched++;
        }
        return c;
    }

    public void recycle() {
        recycled++;
    }

    /** The tree a Maestro-schema document describes (the roots under hierarchy). */
    static List<NodeSource> fromXml(String xml) throws Exception {
        javax.xml.parsers.DocumentBuilder b = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder();
        org.w3c.dom.Document d = b.parse(new org.xml.sax.InputSource(new java.io.StringReader(xml)));
        List<NodeSource> roots = new ArrayList<NodeSource>();
        org.w3c.dom.NodeList list = d.getDocumentElement().getChildNodes();
        for (int i = 0; i < list.getLength(); i++) {
            if (list.item(i) instanceof org.w3c.dom.Element) {
                roots.add(from((org.w3c.dom.Element) list.item(i)));
            }
        }
        return roots;
    }

    static int rotation(String xml) throws Exception {
        javax.xml.parsers.DocumentBuilder b = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder();
        org.w3c.dom.Document d = b.parse(new org.xml.sax.InputSource(new java.io.StringReader(xml)));
        return Integer.parseInt(d.getDocumentElement().getAttribute("rotation"));
    }

    private static TestNode from(org.w3c.dom.Element e) {
        TestNode n = new TestNode(e.getAttribute("class"));
        n.text = e.getAttribute("text");
        n.resourceId = e.getAttribute("resource-id");
        n.packageName = e.getAttribute("package");
        n.contentDescription = e.getAttribute("content-desc");
        n.hintText = e.getAttribute("hintText");
        n.checkable = bool(e, "checkable");
        n.checked = bool(e, "checked");
        n.clickable = bool(e, "clickable");
        n.enabled = bool(e, "enabled");
        n.focusable = bool(e, "focusable");
        n.focused = bool(e, "focused");
        n.scrollable = bool(e, "scrollable");
        n.longClickable = bool(e, "long-clickable");
        n.password = bool(e, "password");
        n.selected = bool(e, "selected");
        n.visible = bool(e, "visible-to-user");
        String[] p = e.getAttribute("bounds").replace("][", ",").replace("[", "").replace("]", "").split(",");
        n.bounds = new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3])};
        org.w3c.dom.NodeList list = e.getChildNodes();
        for (int i = 0; i < list.getLength(); i++) {
            if (list.item(i) instanceof org.w3c.dom.Element) {
                n.children.add(from((org.w3c.dom.Element) list.item(i)));
            }
        }
        return n;
    }

    private static boolean bool(org.w3c.dom.Element e, String name) {
        return "true".equals(e.getAttribute(name));
    }
}
