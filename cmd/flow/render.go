package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/report"
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
	fmt.Fprintln(w, indentLines(printable(e.Error()), "  "))
	if e.Hint != "" {
		fmt.Fprintf(w, "  hint: %s\n", indentLines(printable(e.Hint), "        "))
	}
}

// snippetSource gives the text an error may quote: only of files flow
// read and recognized as flows or scripts (maestro.Loader.Recognized),
// never of a file a path in a flow merely names (runFlow: notes.txt), so
// an error never prints someone's secrets.
type snippetSource interface {
	Recognized(file string) ([]byte, bool)
}

// renderWithSnippet prints an error for people with the source line and a
// caret under the column when the position is known and its file is one
// src recognized.
func renderWithSnippet(w io.Writer, src snippetSource, e *canonical.Error, prefix string) {
	fmt.Fprintf(w, "%s%s\n", prefix, indentLines(printable(e.Error()), "  "))
	if e.Hint != "" {
		for i, line := range strings.Split(printable(e.Hint), "\n") {
			if i == 0 {
				fmt.Fprintf(w, "  hint: %s\n", line)
			} else {
				fmt.Fprintf(w, "        %s\n", line)
			}
		}
	}
	if e.Pos.File == "" || e.Pos.Line == 0 || src == nil {
		return
	}
	data, ok := src.Recognized(e.Pos.File)
	if !ok {
		return
	}
	text, ok := sourceLine(data, e.Pos.Line)
	if !ok {
		return
	}
	text, col := snippetWindow(text, e.Pos.Col)
	fmt.Fprintf(w, "  %4d | %s\n", e.Pos.Line, report.Printable(text))
	if col > 0 {
		fmt.Fprintf(w, "       | %s^\n", strings.Repeat(" ", caretOffset(text, col)))
	}
}

// sourceLine is line n (1-based) of data without its line break.
func sourceLine(data []byte, n int) (string, bool) {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return "", false
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return strings.TrimRight(string(data), "\r"), true
}

// snippetWidth bounds the source line of a snippet, in characters: a
// generated flow or an .ad script may hold a line of megabytes.
const snippetWidth = 160

// snippetWindow is the part of a long source line around column col (1-based,
// in characters) that a snippet shows, marked with … where cut, and the
// column within it.
func snippetWindow(line string, col int) (string, int) {
	runes := []rune(line)
	if len(runes) <= snippetWidth {
		return line, col
	}
	start := 0
	if col > snippetWidth/2 {
		start = min(col-1-snippetWidth/2, len(runes)-snippetWidth)
	}
	end := min(start+snippetWidth, len(runes))
	text := string(runes[start:end])
	if col > 0 {
		col -= start
	}
	if start > 0 {
		text = "…" + text
		if col > 0 {
			col++
		}
	}
	if end < len(runes) {
		text += "…"
	}
	return text, col
}

// caretOffset is how many columns the caret moves right to sit under
// column col (1-based, in characters) of a source line printed with
// printable: an escaped character is as wide as its escape.
func caretOffset(line string, col int) int {
	n := 0
	for i := range line {
		if n == col-1 {
			return utf8.RuneCountInString(printable(line[:i]))
		}
		n++
	}
	return utf8.RuneCountInString(printable(line)) + (col - 1 - n)
}
