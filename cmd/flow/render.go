package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/flow-runner/flow/canonical"
)

// renderError prints an error as contracts §2 specifies: for people,
// "file:line:col: CODE: message" with the hint on its own line; with --json,
// {"error": {...}}.
func renderError(w io.Writer, e *canonical.Error, asJSON bool) {
	if asJSON {
		data, _ := json.Marshal(map[string]any{"error": e})
		fmt.Fprintln(w, string(data))
		return
	}
	fmt.Fprintln(w, e.Error())
	if e.Hint != "" {
		fmt.Fprintf(w, "  hint: %s\n", e.Hint)
	}
}
