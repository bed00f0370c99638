// Package report renders a finished run ([exec.RunResult]) as the reports
// `flow test --format junit|json|html` writes.
//
//   - [JUnit] is Maestro's JUnit XML, attribute for attribute (maestro-reference
//     §4.5), plus <skipped/> for flows that did not run.
//   - [JSON] is the contract report of contracts §6. It only ever gains fields.
//   - [HTML] is one self-contained page: inline CSS, no script, no network,
//     the failure screenshot embedded as a data: URI.
//
// Every renderer is deterministic: the same RunResult gives the same bytes
// (no clock, no map iteration in output), so reports can be snapshot-tested
// and diffed between runs. Each renders into memory first, so a failed
// render writes nothing to w.
//
// report imports canonical and exec only; it never reads files itself (the
// HTML renderer asks [HTMLOptions.ReadArtifact] for artifact bytes).
package report
