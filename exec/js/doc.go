// Package js is flow's JavaScript engine: it evaluates Maestro's ${...}
// templates, evalScript, runScript files and the `when: true:` conditions on
// goja, with the globals Maestro scripts expect (output, maestro, json,
// relativePoint, console.log and http.*).
//
// One [Engine] serves one top-level flow run, as Maestro creates a fresh
// engine per flow: output, variables and maestro.copiedText never carry over
// to the next flow. An Engine is not safe for concurrent use; the runtime
// calls it from the goroutine that runs the flow.
//
// # Sandbox
//
// Scripts see only ECMAScript built-ins plus the globals above: no require,
// process, file system, timers, fetch or XMLHttpRequest. The only way out is
// http.*, which goes through the configured *http.Client. Every evaluation
// runs under a deadline (Options.Timeout): a timer and the caller's context
// interrupt the VM, and the engine stays usable afterwards. Source maps
// (//# sourceMappingURL=...) are never loaded, since goja would read them
// from disk.
//
// # Scopes
//
// Variables live in a stack of scopes held in Go. The flow scope is at the
// bottom; [Engine.EnterScope] pushes one for a subflow and RunScript pushes a
// throwaway one holding its env. Code runs inside `with (scope)`, where the
// scope object answers "yes" for every name: a name no scope defines falls
// through to the real global object and, failing that, reads as undefined
// instead of throwing (GraalJS semantics, so ${FOO || 'x'} works).
//
// What persists where:
//   - var declarations are made in the innermost scope: in ${...} and
//     evalScript that is the flow or subflow scope (so they persist, as in
//     Rhino); in runScript it is the script's own scope (so they do not
//     leak);
//   - top-level let and const in ${...} are treated as var, so they persist
//     like Rhino's do (and can be declared again without an error); inside
//     runScript they stay local;
//   - function and class declarations are local to the evaluation that
//     declares them (assign a function to output.* to share it);
//   - assigning to a name that no scope declares creates it in the flow
//     scope, as sloppy-mode JavaScript does with globals (Rhino and GraalJS
//     both reject such assignments; flow accepts them).
//
// # Where Rhino and GraalJS differ
//
// Maestro 1.39 runs Rhino by default and GraalJS on request. Where they
// disagree flow picks one, per behaviour:
//   - undeclared identifiers read as undefined (GraalJS; Rhino gives null);
//   - numbers print with JavaScript's ToString, ${parseInt('1')} is "1"
//     (GraalJS; Rhino prints computed numbers as Java doubles, "1.0");
//   - plain objects and arrays print as JSON, never blank (both engines
//     print something non-blank, so `when: true: ${[]}` runs);
//   - env values and maestro.copiedText are bound verbatim (GraalJS; Rhino
//     drops newlines and processes backslash escapes);
//   - variables declared by ${...} persist in their scope, and subflow and
//     runScript scopes are honoured (Rhino; GraalJS keeps nothing between
//     evaluations and leaks runScript env globally);
//   - modern syntax (??, ?., arrow functions, classes) works everywhere
//     (GraalJS; Rhino is ES5-ish).
//
// # Known limits
//
//   - goja cannot interrupt native code. A regexp that backtracks
//     catastrophically (regexp2 handles those with backreferences or
//     lookarounds) keeps its goroutine busy: the evaluation still fails at
//     its deadline, then the engine refuses scripts (SCRIPT_ENGINE_BUSY)
//     until the match gives up, which regexp2 does after DefaultTimeout
//     (a process-wide setting this package applies once).
//   - There is no memory limit; an allocation loop is stopped only by the
//     deadline. Absurdly nested source can exhaust the Go stack in goja's
//     parser.
//   - Code built with Function() or indirect eval runs outside the scopes:
//     it sees real globals (output, maestro, ...) but not flow variables.
//   - multipartForm file parts ({filePath}) are refused: scripts cannot
//     read files.
//
// # Imports
//
// js imports canonical, goja (and regexp2, for its match timeout) and the
// standard library only, never exec or any adapter: the runtime owns it and
// passes templates and scripts in.
package js
