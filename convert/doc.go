// Package convert turns Maestro flows into .ad scripts and back, through
// the canonical model both formats load into: [ToAd] writes canonical
// commands as .ad lines (checking each line loads back with the ad codec),
// [ToMaestro] and [ToMaestroFor] as Maestro YAML (inverting compat's
// Maestro quirks, for a chosen Maestro version). A conversion is exact or
// it fails with a [ConvertError] listing every command the other format
// cannot express.
//
// It is the one place both formats are visible: it imports ad and compat,
// and neither imports it. It writes Maestro YAML itself (yaml.go), so it
// needs no YAML library; cmd/flow's convert tests load what it writes with
// the maestro loader.
package convert
