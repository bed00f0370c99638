package flow

import "github.com/flow-runner/flow/canonical"

// MaestroVersionEnv is the environment variable that picks the Maestro
// semantics of a run when --maestro-version does not.
const MaestroVersionEnv = "FLOW_MAESTRO_VERSION"

// ResolveMaestroVersion is the Maestro version a run follows by the first
// two rules of the precedence flag > env > config > default: flag
// (--maestro-version) when given, else FLOW_MAESTRO_VERSION from env. ""
// means neither said: the workspace config's maestroVersion decides, else
// canonical.MaestroCurrent.
func ResolveMaestroVersion(flag string, env Env) (canonical.MaestroVersion, error) {
	if flag != "" {
		v, err := canonical.ParseMaestroVersion(flag, "--maestro-version")
		if err != nil {
			return "", err
		}
		return v, nil
	}
	if s := env.Var(MaestroVersionEnv); s != "" {
		v, err := canonical.ParseMaestroVersion(s, MaestroVersionEnv)
		if err != nil {
			return "", err
		}
		return v, nil
	}
	return "", nil
}
