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
// # Memory
//
// Every evaluation also has a memory budget (Options.MemoryBudget, 64 MiB by
// default): how much it may grow the heap. goja has no memory limit, so two
// mechanisms enforce it, and a script that outgrows it fails with
// SCRIPT_MEMORY_BUDGET at the position it had reached:
//   - a watchdog samples the Go heap every 2 ms while a script runs and
//     interrupts it once the last GC found more than the budget live above
//     the heap at its start, or the heap as a whole (garbage included) has
//     grown past what the collector would allow a script within budget; it
//     catches loops (string doubling, push loops) after at most the
//     allocation in progress, a few budgets in all;
//   - the built-ins that allocate, or loop over a length the script chose,
//     in one native call (which the watchdog cannot stop) check what the
//     call needs first: String repeat, padStart, padEnd, concat, split and
//     replaceAll; every Array.prototype method but push, pop and at, and
//     the array iterator behind spread and Array.from; apply,
//     Reflect.apply and Reflect.construct; JSON.stringify and JSON.parse;
//     the ArrayBuffer and typed array constructors. A call that cannot fit
//     fails before it allocates;
//   - the regular expression natives (String replace, replaceAll, match,
//     matchAll and split with a RegExp, and RegExp.prototype's
//     Symbol.replace, match and split, through which those reach it) list
//     every match before they build their result: they estimate the match
//     list, the result and goja's copies of the text first, counting the
//     matches with goja's own engine for the pattern only when the text
//     is long enough for the count to matter, and stopping the count as
//     soon as the call cannot fit (regexps.go);
//   - every guarded built-in first takes a step check (pulse): natives
//     that loop in Go calling other natives (a spread or Array.from of
//     matchAll, a replacer that is a built-in) stop at the next step once
//     the heap is over the watchdog's limits, which the step reads itself
//     every 64 calls, so a late watchdog does not let them run on.
//
// The heap is one for the whole process, so evaluations take turns: while
// one engine evaluates, the others' evaluations wait (each one's time limit
// starts when its turn does). Concurrent shards thus never see each
// other's growth; what else the process allocates meanwhile (devices,
// reports) counts against the running script, which is small next to the
// budget. Garbage present when a script starts is counted as if it were
// live, so the budget errs on the lenient side.
//
// # Scopes
//
// Variables live in a stack of scopes held in Go. The flow scope is at the
// bottom; [Engine.EnterScope] pushes one for a subflow and RunScript pushes a
// throwaway one holding its env. Code runs inside `with (scope)`, where the
// scope object answers "yes" for every name: a name no scope defines falls
// through to the real global object and, failing that, reads as null
// (Rhino) or undefined (GraalJS) instead of throwing, so ${FOO || 'x'}
// works.
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
// Maestro 1.39 runs Rhino 1.7.14 by default and GraalJS 22 when the
// top-level flow's header says `jsEngine: graaljs` or the environment has
// MAESTRO_USE_GRAALJS=true (a subflow's header does not count). Options.Dialect
// (see DialectFor) says which one to follow where a flow can see the
// difference; flow runs goja either way, so modern syntax (let, const,
// arrow functions, ??, ?., classes) works under both:
//   - numbers: GraalJS prints JavaScript's ToString ("3"). Rhino hands
//     Maestro Java objects and Maestro prints them with Kotlin's
//     toString(): whole-number literals in int range are Integers ("3";
//     but 0, 1 and -1 are Doubles, "1.0"), computed numbers are Doubles
//     ("3.0", "1.712345678901E12"), and so on (kinds.go has the rules and
//     their sources). Text built inside the script (String(n), 'x' + n)
//     follows JavaScript in both;
//   - undeclared identifiers read as null under Rhino (Maestro's root scope
//     answers null) and as undefined under GraalJS; both are falsy, so
//     ${FOO || 'x'} works either way, but ${FOO} prints "null" or
//     "undefined" and typeof FOO is "object" or "undefined";
//   - env values and maestro.copiedText: Rhino's putEnv builds
//     `var NAME = '<value>'` (with newlines dropped and quotes escaped), so
//     the value goes through a string literal: escapes are processed and a
//     trailing backslash, a carriage return or a non-identifier name fail,
//     as in Maestro (DefineVars, SetCopiedText). GraalJS binds them
//     verbatim, any name allowed. runScript env is verbatim under both;
//   - plain objects and arrays print as JSON under both (Rhino prints
//     "[object Object]" or a Java class name and hash, GraalJS its own
//     display form; JSON is non-blank like them, and useful);
//   - variables declared by ${...} persist in their scope, and subflow and
//     runScript scopes are honoured, under both (Rhino's behaviour; GraalJS
//     keeps nothing between evaluations and leaks runScript env globally).
//
// # Known limits
//
//   - goja cannot interrupt native code. A regexp that backtracks
//     catastrophically (regexp2 handles those with backreferences or
//     lookarounds) keeps its goroutine busy: the evaluation still fails at
//     its deadline, then the engine refuses scripts (SCRIPT_ENGINE_BUSY)
//     until the match gives up, which regexp2 does after DefaultTimeout
//     (a process-wide setting this package applies once).
//   - The watchdog acts between two instructions, so a string that doubles
//     overshoots the budget by the doubling in progress (and by one more when
//     the watchdog wakes late on a loaded machine). Natives not listed above
//     that build their result in one call (normalize, a spread of a long
//     string) are bounded by the sizes of their inputs, not checked.
//     Absurdly nested source can exhaust the Go stack in goja's parser.
//   - RegExp.prototype.exec is not wrapped: goja watches that property and
//     would send every regexp call down its generic path (exec for each
//     match, every result kept: ten times the memory, and a quadratic
//     split). A script stuck in a direct exec call is reported as stuck
//     in a built-in, not in a regular expression.
//   - The built-ins the guards wrap are replaced by natives with the
//     original's name, length and static properties; a script cannot tell
//     short of comparing them with a reference taken elsewhere (there is
//     none: the guards are in place before any script runs).
//   - Rhino's number types are worked out from the code, not tracked in
//     the engine: a number kept where flow keeps no record (an object
//     property other than output.*, an array element, a function's return
//     value, a variable changed through an alias) prints by its value:
//     digits for a whole number in int range (an Integer in Rhino when it
//     came from a literal or JSON, a Double when it was computed), Java's
//     double form otherwise. A condition whose branches give different
//     types (c ? 1 : parseInt(x)) prints by the value too. Rhino's error
//     messages are not imitated: errors read as goja writes them.
//   - Code built with Function() or indirect eval runs outside the scopes:
//     it sees real globals (output, maestro, ...) but not flow variables.
//   - multipartForm file parts ({filePath}) are refused: scripts cannot
//     read files.
//
// # Imports
//
// js imports canonical, goja (its ast, to classify and instrument code for
// Rhino's numbers) and regexp2 (for its match timeout), and the standard
// library only, never exec or any adapter: the runtime owns it and
// passes templates and scripts in.
package js
