// Package studio is the server behind `flow studio`: a local page that
// shows one device session's screen and element tree, suggests selectors
// the runtime's own matcher finds unique, runs one Maestro command or .ad
// line at a time, and appends the steps that passed to a flow file it
// watches for edits.
//
// The device session comes from the caller (cmd/flow opens it through the
// Go API, as flow mcp does), so studio works on every device flow drives
// and never opens one itself. The page is plain HTML, CSS and JavaScript
// embedded in the binary.
package studio
