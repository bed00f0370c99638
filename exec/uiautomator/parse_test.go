package uiautomator

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// A dump in the attribute order of Maestro's ViewHierarchy.kt
// (maestro-android/.../ViewHierarchy.kt serializeNode), two windows.
const sampleDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[0,0][1080,2400]" hintText="">
    <node index="0" text="" resource-id="com.example:id/email" class="android.widget.EditText" package="com.example" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="false" selected="false" visible-to-user="true" bounds="[42,300][1038,420]" hintText="Email &amp; more"/>
    <node index="1" text="Remember me" resource-id="remember" class="android.widget.CheckBox" package="com.example" content-desc="remember-box" checkable="true" checked="true" clickable="true" enabled="false" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="true" visible-to-user="true" bounds="[42,450][600,520]" hintText=""/>
    <node index="2" text="" resource-id="feed" class="androidx.recyclerview.widget.RecyclerView" package="com.example" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" scrollable="true" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[0,600][1080,1600]" hintText="">
      <node index="0" text="Row 1" class="android.widget.TextView" bounds="[0,600][1080,800]" enabled="true"/>
      <node index="1" text="Row 2" class="android.widget.TextView" bounds="[0,800][1080,1000]" enabled="true"/>
    </node>
    <node index="3" text="" resource-id="carousel" class="androidx.recyclerview.widget.RecyclerView" scrollable="true" bounds="[0,1600][1080,1900]">
      <node index="0" text="A" class="android.widget.ImageView" bounds="[0,1600][400,1900]"/>
      <node index="1" text="B" class="android.widget.ImageView" bounds="[400,1600][800,1900]"/>
      <node index="2" text="C" class="android.widget.ImageView" bounds="[800,1600][1080,1900]"/>
    </node>
    <node index="4" class="android.widget.HorizontalScrollView" scrollable="true" bounds="[0,1900][1080,2000]"/>
    <node index="5" class="androidx.viewpager2.widget.ViewPager2" bounds="[0,2000][1080,2300]">
      <node index="0" class="androidx.recyclerview.widget.RecyclerView" scrollable="true" bounds="[0,2000][1080,2300]">
        <node index="0" text="page" class="android.widget.TextView" bounds="[0,2000][1080,2300]"/>
      </node>
    </node>
    <node index="6" class="android.widget.ScrollView" scrollable="false" bounds="[1,2][3,x]"/>
  </node>
  <node index="0" text="" class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" bounds="[0,1700][1080,2400]"/>
</hierarchy>`

func bp(b bool) *bool { return &b }

// testHint is a caller's choice of hint; every error must carry it.
const testHint = "test hint"

func TestParseMaestroDump(t *testing.T) {
	root, err := Parse([]byte(sampleDump), Options{Hint: testHint})
	if err != nil {
		t.Fatal(err)
	}
	if root.Bounds != nil || root.Enabled || root.Clickable == nil || *root.Clickable || len(root.Children) != 2 {
		t.Fatalf("root = %+v", root)
	}
	app := root.Children[0]
	kids := app.Children
	if len(kids) != 7 {
		t.Fatalf("%d children", len(kids))
	}
	want := []exec.Node{
		{ID: "com.example:id/email", Hint: "Email & more", Class: "android.widget.EditText", Bounds: &exec.Rect{X: 42, Y: 300, W: 996, H: 120}, Enabled: true, Focused: true, Clickable: bp(true)},
		{Text: "Remember me", ID: "remember", Label: "remember-box", Class: "android.widget.CheckBox", Bounds: &exec.Rect{X: 42, Y: 450, W: 558, H: 70}, Checked: true, Selected: true, Clickable: bp(true)},
	}
	for i, w := range want {
		got := *kids[i]
		got.Children = nil
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("node %d\n got %s\nwant %s", i, gj, wj)
		}
	}
	axes := map[int]string{2: "vertical", 3: "horizontal", 4: "horizontal", 6: ""}
	for i, axis := range axes {
		if kids[i].Scrollable != axis {
			t.Errorf("node %d (%s) scrolls %q, want %q", i, kids[i].Class, kids[i].Scrollable, axis)
		}
	}
	if pager := kids[5].Children[0]; pager.Scrollable != "horizontal" {
		t.Errorf("the list inside a ViewPager2 scrolls %q", pager.Scrollable)
	}
	if kids[6].Bounds != nil {
		t.Errorf("malformed bounds parsed as %+v", kids[6].Bounds)
	}
	// A missing clickable is false, not unknown (Maestro's getAttribute).
	if row := kids[2].Children[0]; row.Clickable == nil || *row.Clickable || row.Text != "Row 1" {
		t.Errorf("row = %+v", row)
	}
}

func TestScrollAxisByClass(t *testing.T) {
	for class, want := range map[string]string{
		"android.widget.HorizontalScrollView":       "horizontal",
		"androidx.viewpager.widget.ViewPager":       "horizontal",
		"android.widget.ScrollView":                 "vertical",
		"androidx.core.widget.NestedScrollView":     "vertical",
		"android.widget.ListView":                   "vertical",
		"android.widget.GridView":                   "vertical",
		"androidx.recyclerview.widget.RecyclerView": pendingAxis,
		"android.view.View":                         pendingAxis,
		"":                                          pendingAxis,
	} {
		if got := scrollAxis(class); got != want {
			t.Errorf("%q: %q, want %q", class, got, want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	deep := strings.Repeat("<node>", maxDepth+1) + strings.Repeat("</node>", maxDepth+1)
	for name, doc := range map[string]string{
		"empty":      "",
		"unclosed":   "<hierarchy><node>",
		"two roots":  "<hierarchy/><hierarchy/>",
		"too deep":   deep,
		"not xml":    "{\"xml\":1}",
		"bad entity": "<hierarchy><node text=\"&nope;\"/></hierarchy>",
		"trailing":   "<hierarchy/><!-- ok --><node/>",
		"json":       `{"xml":"<hierarchy/>"}`,
		"only a PI":  "<?xml version='1.0'?>",
		"too many":   "<hierarchy>" + strings.Repeat("<node/>", maxNodes) + "</hierarchy>",
	} {
		_, err := Parse([]byte(doc), Options{Hint: testHint})
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Hint != testHint {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// Exactly at the bound still parses.
	ok := strings.Repeat("<node>", maxDepth) + strings.Repeat("</node>", maxDepth)
	if _, err := Parse([]byte(ok), Options{Hint: testHint}); err != nil {
		t.Errorf("depth %d: %v", maxDepth, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(sampleDump))
	f.Add([]byte(`<hierarchy><node bounds="[0,0][-5,9999999999]" scrollable="true"/></hierarchy>`))
	f.Add([]byte(`<a><b><c/></b></a>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := Parse(data, Options{Hint: testHint})
		if err != nil {
			if _, ok := canonical.AsError(err); !ok {
				t.Fatalf("uncoded error %v", err)
			}
			return
		}
		depth := 0
		var walk func(n *exec.Node, d int)
		walk = func(n *exec.Node, d int) {
			if d > depth {
				depth = d
			}
			if n.Clickable == nil {
				t.Fatal("a node without clickable")
			}
			switch n.Scrollable {
			case "", "vertical", "horizontal":
			default:
				t.Fatalf("scrollable %q", n.Scrollable)
			}
			for _, c := range n.Children {
				walk(c, d+1)
			}
		}
		walk(root, 1)
		if depth > maxDepth {
			t.Fatalf("depth %d beyond the bound", depth)
		}
	})
}

// An Appium UiAutomator2 dump in the server's attribute order
// (UiElementSnapshot.SUPPORTED_ATTRIBUTES; root from
// AccessibilityNodeInfoDumper.addDisplayInfo), cut down to the attributes
// that differ from Maestro's and the visibility cases.
const appiumDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">
  <android.widget.FrameLayout index="0" package="com.example" class="android.widget.FrameLayout" text="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[0,0][1080,2400]" displayed="true">
    <android.widget.EditText index="0" package="com.example" class="android.widget.EditText" text="Email" resource-id="com.example:id/email" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" long-clickable="true" password="false" scrollable="false" selected="false" bounds="[42,300][1038,420]" displayed="true" hint="Email" showing-hint="true" />
    <android.widget.TextView index="1" package="com.example" class="android.widget.TextView" text="Hidden" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[0,0][0,0]" displayed="false">
      <android.widget.TextView index="0" package="com.example" class="android.widget.TextView" text="Hidden child" bounds="[0,0][0,0]" displayed="true" />
    </android.widget.TextView>
    <android.webkit.WebView index="2" package="com.example" class="android.webkit.WebView" text="" clickable="false" enabled="true" scrollable="true" bounds="[0,500][1080,1500]" displayed="true">
      <android.view.View index="0" package="com.example" class="android.view.View" text="Below the fold" enabled="true" bounds="[0,1500][1080,1500]" displayed="false" />
    </android.webkit.WebView>
  </android.widget.FrameLayout>
  <android.widget.FrameLayout index="1" package="com.android.systemui" class="android.widget.FrameLayout" text="" enabled="true" bounds="[0,0][1080,63]" displayed="false" />
</hierarchy>`

func TestParseAppiumDump(t *testing.T) {
	root, err := Parse([]byte(appiumDump), Options{Hint: testHint})
	if err != nil {
		t.Fatal(err)
	}
	// The root's class and display size are not a node's: Maestro's root
	// has no bounds, whatever the writer put on it.
	if root.Bounds != nil || root.Class != "" || len(root.Children) != 2 {
		t.Fatalf("root = %+v", root)
	}
	app := root.Children[0]
	if len(app.Children) != 2 {
		t.Fatalf("app children = %d, want the EditText and the WebView (the hidden TextView dropped with its child)", len(app.Children))
	}
	email := app.Children[0]
	if email.Hint != "Email" || email.Text != "Email" || email.ID != "com.example:id/email" || email.Class != "android.widget.EditText" {
		t.Errorf("email = %+v", email)
	}
	web := app.Children[1]
	if len(web.Children) != 1 || web.Children[0].Text != "Below the fold" {
		t.Errorf("an invisible node inside a WebView must stay, as in Maestro's dump: %+v", web.Children)
	}
	if web.Scrollable != "vertical" {
		t.Errorf("web view scrolls %q", web.Scrollable)
	}
	// Window roots are written whatever their visibility, by both writers.
	if bar := root.Children[1]; bar.Class != "android.widget.FrameLayout" || bar.Bounds == nil || bar.Bounds.H != 63 {
		t.Errorf("status bar window = %+v", bar)
	}
}

// A displayed="false" node deep inside a dropped subtree still counts
// against the bounds: the decoder reads it all the same.
func TestDroppedSubtreesCount(t *testing.T) {
	deep := `<hierarchy><w><n displayed="false">` + strings.Repeat("<n>", maxDepth) + strings.Repeat("</n>", maxDepth) + `</n></w></hierarchy>`
	if _, err := Parse([]byte(deep), Options{Hint: testHint}); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
		t.Errorf("err = %v", err)
	}
}
