package appium

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/exec"
)

// decodeXCUITest reads WebDriverAgent's page source from its root element
// (already read from dec) to the root's end tag. Every element is a node,
// the root included: the application element has a frame, like every
// element of Maestro's iOS tree. Elements WebDriverAgent marks
// visible="false" are kept, as Maestro keeps every element of its XCTest
// snapshot; the runtime's off-screen pruning applies to both alike.
func decodeXCUITest(dec *xml.Decoder, start xml.StartElement) (*exec.Node, error) {
	root := xcuitestNode(start)
	stack := []*exec.Node{root}
	count := 1
	for len(stack) > 0 {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, unreadable("the page source is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, unreadable("the page source is deeper than %d levels", maxDepth)
			}
			if count++; count > maxNodes {
				return nil, unreadable("the page source has more than %d elements", maxNodes)
			}
			n := xcuitestNode(t)
			parent := stack[len(stack)-1]
			parent.Children = append(parent.Children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return root, nil
}

// xcuitestNode maps one element of WebDriverAgent's source the way
// Maestro's IOSDriver.mapViewHierarchy maps an XCTest snapshot element
// (mobile-dev-inc/maestro, maestro-client/src/main/java/maestro/drivers/IOSDriver.kt).
//
// The attributes are FBXPath's (appium/WebDriverAgent,
// WebDriverAgentLib/Utilities/FBXPath.m, FBElementAttribute
// supportedAttributes): type, value, name, label, enabled, visible,
// accessible, x, y, width, height, index, placeholderValue (text inputs
// only), traits, and focused on tvOS only. Their values are WDA's wd*
// properties (WebDriverAgentLib/Categories/XCUIElement+FBWebDriverAttributes.m),
// which are not XCTest's raw ones; where WDA substitutes a value, the
// substitute is undone when it can be recognised:
//
//   - Text is the value (Maestro: title, else value; the source has no
//     title). For StaticText WDA writes the label when the value is
//     empty, so a value equal to the label is no text (the label still
//     matches, as accessibilityText). For a Button WDA writes "1" when the
//     value is empty and the button is selected: that reads as Selected,
//     no text. A text input's value falls back to its placeholder, which
//     XCTest reports as an empty field's value too, so it stays.
//   - ID is name, which is the identifier, else the label: a name equal
//     to the label is no identifier.
//   - Label is label; Hint is placeholderValue; Class is type.
//   - Enabled is enabled; Focused is focused (tvOS only; iOS sources do
//     not say). Selected is the Selected accessibility trait (traits lists
//     them, newer WDA only) or the Button substitute above; Checked is
//     value "1" on a CheckBox, Switch or Toggle (Maestro's
//     CHECKABLE_ELEMENTS; WDA writes a switch's value as 0 or 1).
//   - Bounds are x, y, width, height in points, truncated to integers as
//     Kotlin's toInt reads a frame (WDA already writes CGRectIntegral
//     frames); any of the four missing or unreadable leaves Bounds nil.
//   - Scrollable is "vertical" for ScrollView, Table and CollectionView,
//     as flow's own iOS runner decides (ios-runner Hierarchy.swift): an
//     XCTest snapshot does not say which way a view scrolls, and phone
//     tables and collections overwhelmingly scroll vertically.
//   - Clickable stays nil: only Android says.
func xcuitestNode(start xml.StartElement) *exec.Node {
	attr := map[string]string{}
	for _, a := range start.Attr {
		if a.Name.Space == "" {
			attr[a.Name.Local] = a.Value
		}
	}
	typ := attr["type"]
	if typ == "" {
		typ = start.Name.Local
	}
	value, label, name := attr["value"], attr["label"], attr["name"]
	n := &exec.Node{
		Text:     value,
		Hint:     attr["placeholderValue"],
		Label:    label,
		ID:       name,
		Class:    typ,
		Bounds:   frame(start.Attr),
		Enabled:  attr["enabled"] == "true",
		Focused:  attr["focused"] == "true",
		Selected: hasTrait(attr["traits"], "Selected"),
	}
	if name == label {
		n.ID = ""
	}
	switch strings.TrimPrefix(typ, "XCUIElementType") {
	case "StaticText":
		if value == label {
			n.Text = ""
		}
	case "Button":
		if value == "1" {
			n.Text, n.Selected = "", true
		}
	case "CheckBox", "Switch", "Toggle":
		n.Checked = value == "1"
	case "ScrollView", "Table", "CollectionView":
		n.Scrollable = "vertical"
	}
	return n
}

// hasTrait reports whether WDA's traits list ("Button, Selected") holds
// trait.
func hasTrait(traits, trait string) bool {
	for t := range strings.SplitSeq(traits, ",") {
		if strings.TrimSpace(t) == trait {
			return true
		}
	}
	return false
}

// frame reads an element's x, y, width and height; nil unless all four
// are finite numbers that fit an int32, as Maestro's integer bounds do.
func frame(attrs []xml.Attr) *exec.Rect {
	var v [4]int
	seen := 0
	for _, a := range attrs {
		if a.Name.Space != "" {
			continue
		}
		i := -1
		switch a.Name.Local {
		case "x":
			i = 0
		case "y":
			i = 1
		case "width":
			i = 2
		case "height":
			i = 3
		}
		if i < 0 {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(a.Value), 64)
		if err != nil || math.IsNaN(f) || f > math.MaxInt32 || f < math.MinInt32 {
			return nil
		}
		v[i] = int(f)
		seen |= 1 << i
	}
	if seen != 0b1111 {
		return nil
	}
	return &exec.Rect{X: v[0], Y: v[1], W: v[2], H: v[3]}
}
