package canonical

import "strings"

// MaestroVersion is the Maestro release whose semantics a run follows,
// chosen once per run (--maestro-version, FLOW_MAESTRO_VERSION, a
// workspace config's maestroVersion, else MaestroCurrent). It decides the
// defaults Maestro changed after 1.39 and which commands a flow may use;
// everything else is the same in both.
type MaestroVersion string

const (
	// Maestro139 is Maestro 1.39.10: taps are retried when the screen did
	// not change, Rhino is the default JavaScript engine, and the command
	// set is 1.39's.
	Maestro139 MaestroVersion = "1.39"
	// MaestroCurrent is the current Maestro release, 2.10 (maestro-ai and
	// maestro-utils 2.10.0 on Maven Central, September 2026): taps are not
	// retried by default since 1.41 (Maestro PR #2489), GraalJS is the
	// default engine since August 2025 (PR #2631), and the commands of
	// docs.maestro.dev's current command reference are accepted.
	MaestroCurrent MaestroVersion = "2.10"
)

// ParseMaestroVersion reads a version as --maestro-version,
// FLOW_MAESTRO_VERSION and a workspace config's maestroVersion give it:
// 1.39 (or any 1.39.x) for 1.39.10's semantics; 2.10, 2.10.x, latest or
// current for today's. from names where the value came from, for the
// error.
func ParseMaestroVersion(s, from string) (MaestroVersion, *Error) {
	v := strings.TrimSpace(s)
	switch {
	case v == "1.39" || strings.HasPrefix(v, "1.39."):
		return Maestro139, nil
	case v == "2.10" || strings.HasPrefix(v, "2.10.") || strings.EqualFold(v, "latest") || strings.EqualFold(v, "current"):
		return MaestroCurrent, nil
	}
	return "", Errorf(CodeInvalidArgs, "%s %q is not a Maestro version flow follows", from, s).
		WithHint("flow follows Maestro 1.39 (--maestro-version 1.39) or the current Maestro, 2.10 (the default; also latest)")
}

// RetryTapByDefault is whether tapOn retries a tap that changed nothing
// when the flow does not say: on in 1.39, off since 1.41 (Maestro PR
// #2489, "Do not retry taps by default").
func (v MaestroVersion) RetryTapByDefault() bool { return v == Maestro139 }

// GraalJSByDefault is whether a flow without jsEngine runs on GraalJS: off
// in 1.39 (Rhino, unless MAESTRO_USE_GRAALJS=true), on since Maestro PR
// #2631 ("Make Graal default JS engine", August 2025).
func (v MaestroVersion) GraalJSByDefault() bool { return v == MaestroCurrent }

// Or is v, or def when v is unset.
func (v MaestroVersion) Or(def MaestroVersion) MaestroVersion {
	if v == "" {
		return def
	}
	return v
}
