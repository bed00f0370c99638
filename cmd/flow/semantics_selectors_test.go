package main

import "testing"

// TestSemanticsSelectors: relative selectors, index, childOf,
// containsDescendants, state flags and the text regex rules (§2) on the
// selectors app, whose cells write what was tapped into "status".
func TestSemanticsSelectors(t *testing.T) {
	t.Parallel()
	launch := []string{"launchApp com.sem.selectors", `observed - navigate screen="grid"`}
	tapped := func(id, x, y, status string) []string {
		return []string{"tap " + x + "," + y, "observed " + id + " tap", `observed status text text="` + status + `"`}
	}
	cat := func(parts ...[]string) []string {
		out := append([]string{}, launch...)
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	runSemCases(t, []semCase{{
		// Relative filters keep elements whose top-left lies on that side
		// of the anchor's and order them by the distance between centres;
		// combined filters keep the first one's order.
		name: "relative",
		flow: "sel_relative.yaml",
		events: cat(tapped("c2", "500", "650", "C2"), tapped("a2", "500", "250", "A2"), tapped("b1", "150", "450", "B1"),
			tapped("b3", "850", "450", "B3"), tapped("b2", "500", "450", "B2"), tapped("c2", "500", "650", "C2")),
		steps: []string{"L3 launchApp passed 300ms",
			"L4 tapOn passed 450ms", "L5 assertVisible passed 0ms", "L6 tapOn passed 450ms", "L7 assertVisible passed 0ms",
			"L8 tapOn passed 450ms", "L9 assertVisible passed 0ms", "L10 tapOn passed 450ms", "L11 assertVisible passed 0ms",
			"L12 tapOn passed 450ms", "L13 assertVisible passed 0ms", "L14 tapOn passed 450ms", "L15 assertVisible passed 0ms"},
	}, {
		// Without index the first in document order wins (the lower Item);
		// index counts top to bottom. childOf scopes the search.
		name: "index_and_child_of",
		flow: "sel_index.yaml",
		events: cat(tapped("item_low", "500", "1040", "low"), tapped("item_high", "500", "940", "high"),
			tapped("item_low", "500", "1040", "low"), tapped("leaf_a", "250", "1300", "leaf a"),
			tapped("leaf_b", "750", "1300", "leaf b")),
		steps: []string{"L3 launchApp passed 300ms",
			"L4 tapOn passed 450ms", "L5 assertVisible passed 0ms", "L6 tapOn passed 450ms", "L7 assertVisible passed 0ms",
			"L8 tapOn passed 450ms", "L9 assertVisible passed 0ms", "L10 assertNotVisible passed 500ms",
			"L11 tapOn passed 450ms", "L12 assertVisible passed 0ms", "L13 tapOn passed 450ms", "L14 assertVisible passed 0ms",
			"L15 assertNotVisible passed 500ms"},
	}, {
		// Descendants at any depth, each with its own filters; the root
		// contains everything but the clickable card ranks first.
		name:   "contains_descendants",
		flow:   "sel_descendants.yaml",
		events: cat(tapped("card_2", "750", "1550", "card 2"), tapped("card_1", "250", "1550", "card 1")),
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms", "L5 assertVisible passed 0ms",
			"L6 tapOn passed 450ms", "L7 assertVisible passed 0ms", "L8 assertVisible passed 0ms",
			"L9 assertNotVisible passed 500ms", "L10 assertNotVisible passed 500ms"},
	}, {
		name:   "checked_and_enabled",
		flow:   "sel_state.yaml",
		events: cat([]string{"tap 250,1740", "observed remember tap", "observed remember toggle checked=true"}),
		steps: []string{"L3 launchApp passed 300ms", "L4 assertVisible passed 0ms", "L5 assertNotVisible passed 500ms",
			"L6 tapOn passed 450ms", "L7 assertVisible passed 0ms", "L8 assertNotVisible passed 500ms",
			"L9 assertVisible passed 0ms", "L10 assertNotVisible passed 500ms", "L11 assertVisible passed 0ms"},
	}, {
		// Full match, case-insensitive, dot matches a line break, a line
		// break also reads as a space, an invalid regex matches literally,
		// ids are regexes too, and ${} is evaluated first.
		name:   "text_regex",
		flow:   "sel_regex.yaml",
		events: launch,
		steps: []string{"L3 launchApp passed 300ms",
			"L4 assertVisible passed 0ms",      // log ?in
			"L5 assertVisible passed 0ms",      // LOG IN
			"L6 assertNotVisible passed 500ms", // Log: no partial match
			"L7 assertNotVisible passed 500ms", // og in
			"L8 assertVisible passed 0ms",      // Hello World matches "Hello\nWorld"
			"L9 assertVisible passed 0ms",      // hello.world
			"L10 assertVisible passed 0ms",     // Hello.*
			"L11 assertVisible passed 0ms",     // \+123456
			"L12 assertVisible passed 0ms",     // Price (USD
			"L13 assertVisible passed 0ms",     // B[0-9]
			"L14 assertNotVisible passed 500ms",
			"L15 assertVisible passed 0ms", // id c[0-9]
			"L16 assertNotVisible passed 500ms",
			"L17 assertVisible passed 0ms", // ${'C' + 3}
		},
	}})
}
