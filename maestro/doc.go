// Package maestro loads Maestro flow files (a header document, "---", then a
// command list) with yaml.v3 nodes, keeping file:line:col for every command
// and key, and translates them into canonical commands.
//
// Maestro-isms stop here: defaults, short forms and quirks (through compat)
// are resolved on the way in, so later stages never see Maestro syntax.
//
// maestro imports only canonical and compat (plus its YAML and JSON Schema
// libraries); it never imports planner or exec.
package maestro
