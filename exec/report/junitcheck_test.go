package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// xmlNode is a parsed element: enough of a DOM to check structure.
type xmlNode struct {
	Name     string
	Attrs    map[string]string
	Children []*xmlNode
	Text     string
}

func (n *xmlNode) children(name string) []*xmlNode {
	var out []*xmlNode
	for _, c := range n.Children {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// parseXML parses a document into its root element, strictly.
func parseXML(data []byte) (*xmlNode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*xmlNode
	var root *xmlNode
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{Name: t.Name.Local, Attrs: map[string]string{}}
			for _, a := range t.Attr {
				n.Attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.Children = append(top.Children, n)
			} else if root != nil {
				return nil, fmt.Errorf("second root element <%s>", n.Name)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].Text += string(t)
			} else if strings.TrimSpace(string(t)) != "" {
				return nil, fmt.Errorf("text outside the root element: %q", t)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// validateJUnit checks a document against the structure JUnit consumers
// rely on (the rules of testdata/junit.xsd) plus the counts an XSD cannot
// express. It returns every problem found.
func validateJUnit(data []byte) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !bytes.HasPrefix(data, []byte("<?xml ")) {
		bad("missing XML declaration")
	}
	root, err := parseXML(data)
	if err != nil {
		return append(problems, "not well-formed: "+err.Error())
	}
	if root.Name != "testsuites" {
		return append(problems, fmt.Sprintf("root is <%s>, want <testsuites>", root.Name))
	}
	checkAttrs(root, nil, []string{"name", "tests", "failures", "errors", "skipped", "disabled", "time"}, bad)
	for _, c := range root.Children {
		if c.Name != "testsuite" {
			bad("<testsuites> contains <%s>", c.Name)
		}
	}
	for i, s := range root.children("testsuite") {
		where := fmt.Sprintf("testsuite %d", i+1)
		checkAttrs(s, []string{"name", "tests", "failures"},
			[]string{"errors", "skipped", "disabled", "time", "timestamp", "hostname", "id", "package", "device"}, bad)
		if s.Attrs["name"] == "" {
			bad("%s: empty name", where)
		}
		checkOrder(s, where, []string{"properties", "testcase", "system-out", "system-err"}, bad)
		cases := s.children("testcase")
		var failures, errs, skipped int
		for j, c := range cases {
			cw := fmt.Sprintf("%s testcase %d", where, j+1)
			checkAttrs(c, []string{"name", "classname", "time"}, []string{"id", "status", "assertions", "file", "line"}, bad)
			for _, a := range []string{"name", "classname"} {
				if _, ok := c.Attrs[a]; ok && c.Attrs[a] == "" {
					bad("%s: empty %s", cw, a)
				}
			}
			if t, ok := c.Attrs["time"]; ok && !isSeconds(t) {
				bad("%s: time %q is not a non-negative number", cw, t)
			}
			checkOrder(c, cw, []string{"outcome", "system-out", "system-err"}, bad)
			var outcomes int
			for _, o := range c.Children {
				switch o.Name {
				case "failure":
					failures++
				case "error":
					errs++
				case "skipped":
					skipped++
				default:
					continue
				}
				outcomes++
				allowed := []string{"message", "type"}
				if o.Name == "skipped" {
					allowed = []string{"message"}
				}
				checkAttrs(o, nil, allowed, bad)
				if len(o.Children) > 0 {
					bad("%s: <%s> has child elements", cw, o.Name)
				}
			}
			if outcomes > 1 {
				bad("%s: %d outcome elements, want at most one of failure, error, skipped", cw, outcomes)
			}
		}
		checkCount(s, where, "tests", len(cases), true, bad)
		checkCount(s, where, "failures", failures, true, bad)
		checkCount(s, where, "errors", errs, errs > 0, bad)
		checkCount(s, where, "skipped", skipped, skipped > 0, bad)
		if t, ok := s.Attrs["time"]; ok && !isSeconds(t) {
			bad("%s: time %q is not a non-negative number", where, t)
		}
	}
	return problems
}

// checkAttrs reports missing required and unknown attributes.
func checkAttrs(n *xmlNode, required, optional []string, bad func(string, ...any)) {
	for _, a := range required {
		if _, ok := n.Attrs[a]; !ok {
			bad("<%s> lacks required attribute %s", n.Name, a)
		}
	}
	keys := make([]string, 0, len(n.Attrs))
	for k := range n.Attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			bad("<%s> has unknown attribute %s", n.Name, k)
		}
	}
}

// checkOrder reports children that are unknown or out of the given order;
// "outcome" stands for failure, error and skipped.
func checkOrder(n *xmlNode, where string, order []string, bad func(string, ...any)) {
	last := -1
	for _, c := range n.Children {
		name := c.Name
		if name == "failure" || name == "error" || name == "skipped" {
			name = "outcome"
		}
		i := slices.Index(order, name)
		switch {
		case i < 0:
			bad("%s: unexpected <%s>", where, c.Name)
		case i < last:
			bad("%s: <%s> out of order", where, c.Name)
		default:
			last = i
		}
	}
}

// checkCount compares a count attribute with the elements counted; must
// says the attribute is required to be present.
func checkCount(n *xmlNode, where, attr string, want int, must bool, bad func(string, ...any)) {
	v, ok := n.Attrs[attr]
	if !ok {
		if must {
			bad("%s: no %s attribute for %d", where, attr, want)
		}
		return
	}
	got, err := strconv.Atoi(v)
	switch {
	case err != nil || got < 0:
		bad("%s: %s=%q is not a count", where, attr, v)
	case got != want:
		bad("%s: %s=%d but it has %d", where, attr, got, want)
	}
}

// isSeconds accepts what xs:decimal with minInclusive 0 accepts, in the
// plain form a report uses: 12, 0.5.
func isSeconds(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	return whole != "" && digits(whole) && (!dot || frac != "" && digits(frac))
}

func digits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}
