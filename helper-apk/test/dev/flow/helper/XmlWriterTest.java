package dev.flow.helper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.Test;

public class XmlWriterTest {
    private static XmlWriter.Result write(TestNode... roots) {
        return XmlWriter.write(0, Arrays.<NodeSource>asList(roots), 1080, 2400, 5000, 128);
    }

    @Test
    public void writesMaestroAttributesInOrder() {
        TestNode n = new TestNode("android.widget.CheckBox").text("Remember me").bounds(10, 20, 300, 80);
        n.resourceId = "com.example:id/remember";
        n.contentDescription = "remember";
        n.hintText = "hint";
        n.checkable = n.checked = n.clickable = n.focusable = n.longClickable = n.selected = true;
        XmlWriter.Result r = XmlWriter.write(1, Collections.<NodeSource>singletonList(n), 1080, 2400, 5000, 128);
        assertEquals("<hierarchy rotation=\"1\"><node index=\"0\" text=\"Remember me\" resource-id=\"com.example:id/remember\""
                + " class=\"android.widget.CheckBox\" package=\"com.example\" content-desc=\"remember\" checkable=\"true\""
                + " checked=\"true\" clickable=\"true\" enabled=\"true\" focusable=\"true\" focused=\"false\" scrollable=\"false\""
                + " long-clickable=\"true\" password=\"false\" selected=\"true\" visible-to-user=\"true\" bounds=\"[10,20][300,80]\""
                + " hintText=\"hint\"/></hierarchy>", r.xml);
        assertEquals(1, r.nodes);
        assertFalse(r.truncated);
        assertFalse(r.opaque);
    }

    @Test
    public void escapesAndReplacesWhatXmlCannotHold() throws Exception {
        String text = "a&b<c>\"d'\n\t\u0001\u0085\uFFFF\ud83d\ude00\ud800x";
        XmlWriter.Result r = write(new TestNode("android.widget.TextView").text(text));
        assertTrue(r.xml, r.xml.contains(" text=\"a&amp;b&lt;c&gt;&quot;d'&#10;&#9;.\u0085.\ud83d\ude00.x\""));
        // A parser reads back the text, with the replaced characters as '.'.
        TestNode back = (TestNode) TestNode.fromXml(r.xml).get(0);
        assertEquals("a&b<c>\"d'\n\t.\u0085.\ud83d\ude00.x", back.text);
    }

    @Test
    public void keepsVisibleChildrenAndAllOfAWebView() {
        TestNode web = new TestNode("android.webkit.WebView").add(new TestNode("android.view.View").text("in page").invisible());
        TestNode root = new TestNode("android.widget.FrameLayout").add(
                new TestNode("android.widget.TextView").text("hidden").invisible(),
                new TestNode("android.widget.TextView").text("shown"),
                web);
        XmlWriter.Result r = write(root);
        assertFalse(r.xml.contains("hidden"));
        // index is the child's position in its parent, hidden siblings included.
        assertTrue(r.xml, r.xml.contains("<node index=\"1\" text=\"shown\""));
        assertTrue(r.xml, r.xml.contains("<node index=\"0\" text=\"in page\""));
        assertEquals(4, r.nodes);
        assertTrue(r.opaque);
    }

    @Test
    public void clipsBoundsToTheDisplay() {
        XmlWriter.Result r = write(new TestNode("a").bounds(-10, -20, 2000, 3000), new TestNode("b").bounds(1100, 0, 1200, 50));
        assertTrue(r.xml, r.xml.contains("class=\"a\"") && r.xml.contains("bounds=\"[0,0][1080,2400]\""));
        assertTrue(r.xml, r.xml.contains("bounds=\"[0,0][0,0]\""));
    }

    @Test
    public void stopsAtMaxNodesAndMaxDepthAndSaysSo() throws Exception {
        TestNode root = new TestNode("r").add(new TestNode("a"), new TestNode("b"), new TestNode("c"), new TestNode("d"));
        XmlWriter.Result r = XmlWriter.write(0, Collections.<NodeSource>singletonList(root), 1080, 2400, 3, 128);
        assertEquals(3, r.nodes);
        assertTrue(r.truncated);
        assertEquals(3, countNodes(r.xml));
        assertEquals(0, root.children.get(3).fetched);

        TestNode chain = new TestNode("1").add(new TestNode("2").add(new TestNode("3").add(new TestNode("4"))));
        r = XmlWriter.write(0, Collections.<NodeSource>singletonList(chain), 1080, 2400, 5000, 2);
        assertEquals(2, r.nodes);
        assertTrue(r.truncated);
        assertEquals(2, countNodes(r.xml));

        r = XmlWriter.write(0, Collections.<NodeSource>singletonList(chain), 1080, 2400, 5000, 4);
        assertEquals(4, r.nodes);
        assertFalse(r.truncated);
    }

    private static int countNodes(String xml) throws Exception {
        javax.xml.parsers.DocumentBuilder b = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder();
        return b.parse(new org.xml.sax.InputSource(new java.io.StringReader(xml))).getElementsByTagName("node").getLength();
    }

    @Test
    public void recyclesEveryChildOnceAndLeavesRootsToTheirOwner() {
        TestNode hidden = new TestNode("h").invisible();
        TestNode leaf = new TestNode("l");
        TestNode mid = new TestNode("m").add(leaf);
        TestNode root = new TestNode("r").add(mid, hidden, null);
        write(root);
        assertEquals(0, root.recycled);
        assertEquals(1, mid.recycled);
        assertEquals(1, leaf.recycled);
        assertEquals(1, hidden.recycled);
    }

    @Test
    public void opaqueForSurfacesAndEmptyWithoutWindows() {
        assertTrue(write(new TestNode("android.view.SurfaceView")).opaque);
        assertTrue(write(new TestNode("android.view.TextureView")).opaque);
        XmlWriter.Result none = XmlWriter.write(3, Collections.<NodeSource>emptyList(), 1080, 2400, 5000, 128);
        assertEquals("<hierarchy rotation=\"3\"/>", none.xml);
        assertEquals(0, none.nodes);
        List<NodeSource> onlyNull = Arrays.asList((NodeSource) null);
        assertEquals("<hierarchy rotation=\"0\"/>", XmlWriter.write(0, onlyNull, 1080, 2400, 5000, 128).xml);
    }
}
