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
// # Imports
//
// js imports canonical, goja and the standard library only, never exec or
// any adapter: the runtime owns it and passes templates and scripts in.
package js
