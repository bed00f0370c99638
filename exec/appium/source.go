package appium

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/uiautomator"
)

// Dialect is the kind of document an Appium server sent as its page
// source (W3C GET /session/:id/source). It follows the session's driver
// and, within one session, its context: a web view or browser context
// answers with HTML.
type Dialect int

// The dialects ParseSource tells apart. DialectUnknown only comes with an
// error.
const (
	DialectUnknown Dialect = iota
	// DialectUiAutomator2 is the Appium UiAutomator2 driver's dump: a
	// <hierarchy> root with one element per node, named by its class.
	DialectUiAutomator2
	// DialectXCUITest is WebDriverAgent's source for the XCUITest driver:
	// an XCUIElementTypeApplication root, elements named by their type.
	DialectXCUITest
	// DialectHTML is a browser or web view context's DOM. ParseSource
	// does not read it: the web device reads a DOM its own way.
	DialectHTML
)

func (d Dialect) String() string {
	switch d {
	case DialectUiAutomator2:
		return "UiAutomator2"
	case DialectXCUITest:
		return "XCUITest"
	case DialectHTML:
		return "HTML"
	}
	return "unknown"
}

// Limits on a page source, for the XCUITest reader and the wrapper
// (exec/uiautomator has the same for UiAutomator2). WebDriverAgent cuts
// its snapshots at the snapshotMaxDepth setting (50 by default); the
// slack only keeps a corrupt or hostile document from exhausting the stack
// or memory.
const (
	maxDepth = 512
	maxNodes = 200000
)

// Hints for a page source flow cannot use: the first when the server sent
// something broken, the second when it sent a format flow does not read.
const (
	unreadableHint  = "the Appium server sent a page source flow cannot read; check the server's log, update its driver, and start a new session"
	unsupportedHint = "flow reads the page sources of Appium's UiAutomator2 and XCUITest drivers: start the session with appium:automationName UiAutomator2 (Android) or XCUITest (iOS), in the native app context"
)

// ParseSource reads a page source into an exec.Node tree in Maestro's
// terms, and says which dialect it was. The dialect is the document
// element's name: hierarchy → UiAutomator2 (read by exec/uiautomator,
// Maestro's AndroidDriver mapping); XCUIElementType… → XCUITest (see
// xcuitestNode); html → HTML, returned with a nil root and no error, so
// the caller can tell it is in a web context. Anything else is
// UNSUPPORTED_OPERATION, and a document that is not well-formed XML, too
// deep or too large is COMMAND_FAILED.
//
// An AppiumAUT document element, and a single app element directly
// inside it, are looked through. The XCUITest driver asks WebDriverAgent
// for its source with scope=AppiumAUT (appium/appium-xcuitest-driver,
// lib/commands/source.ts), so every real iOS source comes wrapped; and
// Appium's fake driver (@appium/fake-driver, lib/fake-app.ts loadApp)
// serves the app file it was given, but rewrites one with an <app>
// element into <AppiumAUT><app …>…</app></AppiumAUT>, so a fixture reads
// the same from a file and through the fake driver.
func ParseSource(data []byte) (*exec.Node, Dialect, error) {
	doc, err := open(data)
	if err != nil || doc.dialect == DialectHTML {
		return nil, doc.dialect, err
	}
	var root *exec.Node
	switch doc.dialect {
	case DialectUiAutomator2:
		root, err = uiautomator.Decode(doc.dec, doc.start, uiautomator.Options{Hint: unreadableHint})
	case DialectXCUITest:
		root, err = decodeXCUITest(doc.dec, doc.start)
	}
	if err != nil {
		return nil, DialectUnknown, err
	}
	if err := doc.close(); err != nil {
		return nil, DialectUnknown, err
	}
	return root, doc.dialect, nil
}

// Screen is the screen size a page source's root states, in Maestro's
// grid units: pixels for UiAutomator2, points for XCUITest.
type Screen struct {
	Width  int
	Height int
	// Rotation is UiAutomator2's rotation attribute, Android's
	// Display.getRotation (Surface.ROTATION_0…270 as 0…3). Width and
	// Height are already the rotated size (Display.getSize). XCUITest
	// states none: 0.
	Rotation int
}

// Viewport is the screen as the interaction viewport.
func (s Screen) Viewport() canonical.Viewport {
	return canonical.Viewport{Width: float64(s.Width), Height: float64(s.Height)}
}

// ParseScreen reads the screen size from a page source's root, reading
// no further than the root's start tag, so a device gets its viewport
// from the source it already fetched. The root is UiAutomator2's
// <hierarchy> (AccessibilityNodeInfoDumper.addDisplayInfo writes width,
// height and rotation on it) or XCUITest's application element (its
// frame). The Screen is zero when the root does not state a size, and
// always for DialectHTML. Errors are ParseSource's.
func ParseScreen(data []byte) (Screen, Dialect, error) {
	doc, err := open(data)
	if err != nil || doc.dialect == DialectHTML {
		return Screen{}, doc.dialect, err
	}
	var s Screen
	switch doc.dialect {
	case DialectUiAutomator2:
		s.Width = intAttr(doc.start, "width")
		s.Height = intAttr(doc.start, "height")
		s.Rotation = intAttr(doc.start, "rotation")
	case DialectXCUITest:
		if r := frame(doc.start.Attr); r != nil {
			s.Width, s.Height = r.W, r.H
		}
	}
	if s.Width <= 0 || s.Height <= 0 {
		return Screen{}, doc.dialect, nil
	}
	return s, doc.dialect, nil
}

// document is a page source opened at its own document element.
type document struct {
	dec     *xml.Decoder
	start   xml.StartElement
	dialect Dialect
}

// open reads up to the page source's document element, through the fake
// driver's wrapper, and decides the dialect.
func open(data []byte) (document, error) {
	if looksLikeHTML(data) {
		// Checked on the bytes: HTML is rarely well-formed XML, and a
		// browser context's source is not ours to read.
		return document{dialect: DialectHTML}, nil
	}
	doc := document{dec: xml.NewDecoder(bytes.NewReader(data))}
	start, err := nextElement(doc.dec)
	if err != nil {
		return document{}, err
	}
	if start.Name.Local == "AppiumAUT" {
		if start, err = nextElement(doc.dec); err != nil {
			return document{}, err
		}
		if start.Name.Local == "app" {
			if start, err = nextElement(doc.dec); err != nil {
				return document{}, err
			}
		}
	}
	doc.start = start
	switch name := start.Name.Local; {
	case name == "hierarchy":
		doc.dialect = DialectUiAutomator2
	case strings.HasPrefix(name, "XCUIElementType"):
		doc.dialect = DialectXCUITest
	case strings.EqualFold(name, "html"):
		doc.dialect = DialectHTML
	default:
		return document{}, canonical.Errorf(canonical.CodeUnsupportedOperation,
			"the page source's document element is <%s>, neither UiAutomator2's <hierarchy> nor an XCUITest <XCUIElementType…> element", name).
			WithHint(unsupportedHint)
	}
	return doc, nil
}

// nextElement reads up to the next start tag; an end tag or the end of
// the document first means there is none where one must be.
func nextElement(dec *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return xml.StartElement{}, unreadable("the page source is empty")
		}
		if err != nil {
			return xml.StartElement{}, unreadable("the page source is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.EndElement:
			return xml.StartElement{}, unreadable("the page source's <%s> holds no element", t.Name.Local)
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				// encoding/xml lets text stand outside the document
				// element; a whole JSON response passed by mistake would
				// otherwise read as the document inside its string.
				return xml.StartElement{}, unreadable("the page source has text outside its document element")
			}
		}
	}
}

// close reads what follows the document element: the wrapper's end tags
// (the decoder checks they match) and nothing else but whitespace,
// comments and processing instructions.
func (d document) close() error {
	for {
		tok, err := d.dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return unreadable("the page source is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return unreadable("the page source has more than one document element")
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return unreadable("the page source has text outside its document element")
			}
		}
	}
}

// unreadable is the error of a page source that cannot be read: the
// Appium server or its driver is broken (DEVICE_UNAVAILABLE, exit 3), as
// uiautomator says of a dump.
func unreadable(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, format, args...).WithHint(unreadableHint).With("reason", "UNREADABLE_HIERARCHY")
}

// looksLikeHTML: the source starts (after a byte-order mark and
// whitespace) with an HTML doctype or an <html> tag, as chromedriver's and
// Safari's page sources do.
func looksLikeHTML(data []byte) bool {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	head := strings.ToLower(string(data[:min(len(data), len("<!doctype html "))]))
	for _, tag := range []string{"<!doctype html", "<html"} {
		if rest, ok := strings.CutPrefix(head, tag); ok && (rest == "" || strings.ContainsAny(rest[:1], "> \t\r\n")) {
			return true
		}
	}
	return false
}

func intAttr(e xml.StartElement, name string) int {
	for _, a := range e.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			v, err := strconv.Atoi(strings.TrimSpace(a.Value))
			if err != nil {
				return 0
			}
			return v
		}
	}
	return 0
}
