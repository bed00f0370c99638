// Package ad is the .ad script format: agent-device's plain-text test
// scripts, one command per line ("open com.example.shop", "press
// 'text=\"Log in\"'", "gesture pan 10 20 0 300"), with env and context
// header lines, ${VAR} substitution and the recorder's target annotations.
// It is flow's second input format beside maestro's YAML flows, and the
// format's own syntax rather than a compatibility shim: agent-device's
// design record (ADR 0013, amended 2026-07) keeps its positional gesture
// syntax as the script format's one codec.
//
// The grammar is agent-device 0.21.5's (research notes agent-device.md §3;
// the productions are written out at the top of script.go):
// [ParseScript] is syntax plus the one gesture arity table
// (canonical.CheckArity, shared with the CLI), so a removed form fails with
// its line and rewrite before any device action; [Resolve] substitutes
// ${VAR} late, right before a step, so interpolation never splits a token;
// [Converter.Steps] and [StepCommand] turn a resolved action into canonical
// commands; [Encode], [EncodeAction] and [GestureAction] write scripts back
// with the recorder's quoting, byte-stable.
//
// It imports only canonical. Maestro's quirks and removed Maestro forms stay
// in compat, and the conversions between .ad scripts and Maestro flows live
// in convert, which sees both; exec never imports this package.
package ad
