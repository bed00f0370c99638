package ad

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// ${VAR} in .ad scripts (agent-device.md §3.5):
//
//	ref      := '${' NAME ( ':-' fallback )? '}'
//	NAME     := [A-Za-z_][A-Za-z0-9_.]*
//	fallback := ( [^}\\] | '\' any-but-line-break )*     \x gives x
//	escape   := '\${'                                   a literal ${
//
// Text that does not match (no closing brace, a bad name, a backslash
// before a line break in the fallback) stays as written. There is no
// nesting. Resolution runs late: after parsing and the arity check, right
// before each step, on each positional and flag value on its own, so one
// token stays one argument whatever the value holds.

// Built-in variables flow sets for every script. User sources may not use
// the AD_ prefix.
const (
	VarSession    = "AD_SESSION"     // the run's session name
	VarFilename   = "AD_FILENAME"    // the script path relative to the working directory
	VarPlatform   = "AD_PLATFORM"    // ios, android, ...
	VarTarget     = "AD_TARGET"      // mobile, tv, desktop
	VarDevice     = "AD_DEVICE"      // the device name
	VarDeviceID   = "AD_DEVICE_ID"   // serial or UDID
	VarShardIndex = "AD_SHARD_INDEX" // 0-based shard of this run
	VarShardCount = "AD_SHARD_COUNT" // number of shards
	VarArtifacts  = "AD_ARTIFACTS"   // the directory artifacts are written to
)

// BuiltinVarNames lists the built-in variables in a stable order.
func BuiltinVarNames() []string {
	return []string{VarSession, VarFilename, VarPlatform, VarTarget, VarDevice, VarDeviceID,
		VarShardIndex, VarShardCount, VarArtifacts}
}

// Builtins are the values of the built-in variables for one run.
type Builtins struct {
	Session    string
	Filename   string
	Platform   string
	Target     string
	Device     string
	DeviceID   string
	ShardIndex int
	ShardCount int
	Artifacts  string
}

// Vars is the built-ins as variables.
func (b Builtins) Vars() map[string]string {
	return map[string]string{
		VarSession: b.Session, VarFilename: b.Filename, VarPlatform: b.Platform, VarTarget: b.Target,
		VarDevice: b.Device, VarDeviceID: b.DeviceID, VarShardIndex: strconv.Itoa(b.ShardIndex),
		VarShardCount: strconv.Itoa(b.ShardCount), VarArtifacts: b.Artifacts,
	}
}

// VarSources are the layers of variables, lowest precedence first:
// built-ins < script env < shell AD_VAR_* < CLI -e.
type VarSources struct {
	Builtins map[string]string
	File     map[string]string // the script's env directives
	Shell    map[string]string // AD_VAR_<KEY> with the prefix removed; see [ShellVars]
	CLI      map[string]string // -e KEY=VALUE; see [ParseCLIVars]
}

// Scope is the merged variables a script resolves against.
type Scope struct {
	values map[string]string
}

// Lookup returns a variable's value.
func (s Scope) Lookup(name string) (string, bool) {
	v, ok := s.values[name]
	return v, ok
}

// Names lists the defined variables, sorted.
func (s Scope) Names() []string {
	out := make([]string, 0, len(s.values))
	for k := range s.values {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func reservedKeyError(key string) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs,
		"The AD_* namespace is reserved for built-in variables. Rename %s to avoid the AD_ prefix.", key).
		WithHint("built-ins are " + strings.Join(BuiltinVarNames(), ", "))
}

// NewScope merges the sources. A user key (script env, shell, CLI) that
// starts with AD_ is refused: only built-ins live there.
func NewScope(src VarSources) (Scope, error) {
	merged := map[string]string{}
	for k, v := range src.Builtins {
		merged[k] = v
	}
	for _, layer := range []map[string]string{src.File, src.Shell, src.CLI} {
		keys := make([]string, 0, len(layer))
		for k := range layer {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.HasPrefix(k, "AD_") {
				return Scope{}, reservedKeyError(k)
			}
			merged[k] = layer[k]
		}
	}
	return Scope{values: merged}, nil
}

// ScriptVars is a script's env directives as a map.
func (s *Script) ScriptVars() map[string]string {
	out := make(map[string]string, len(s.Env))
	for _, e := range s.Env {
		out[e.Key] = e.Value
	}
	return out
}

// ShellVars collects AD_VAR_<KEY>=value entries of an environment
// ("KEY=value" strings, as os.Environ gives). A key that does not match
// the env key rule, or that would land in AD_* again (AD_VAR_AD_X), is
// skipped, as agent-device does.
func ShellVars(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		key, ok := strings.CutPrefix(k, "AD_VAR_")
		if !ok || !IsEnvKey(key) || strings.HasPrefix(key, "AD_") {
			continue
		}
		out[key] = v
	}
	return out
}

// ParseCLIVars reads -e KEY=VALUE entries.
func ParseCLIVars(entries []string) (map[string]string, error) {
	out := map[string]string{}
	for _, e := range entries {
		eq := strings.IndexByte(e, '=')
		if eq <= 0 {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "Invalid -e entry %q: expected KEY=VALUE.", e).
				WithHint("write -e APP_ID=com.example.app")
		}
		key := e[:eq]
		if !IsEnvKey(key) {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs,
				"Invalid -e key %q: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).", key).
				WithHint("rename the key, e.g. -e " + envKeySuggestion(key) + "=...")
		}
		if strings.HasPrefix(key, "AD_") {
			return nil, reservedKeyError(key)
		}
		out[key] = e[eq+1:]
	}
	return out, nil
}

// varRef is one match of the ${...} grammar in a string.
type varRef struct {
	start, end  int // s[start:end] is the whole match
	escape      bool
	name        string
	fallback    string
	hasFallback bool
}

// scanVars finds the ${...} references and \${ escapes of s, left to
// right, as successive matches of agent-device's regex would.
func scanVars(s string) []varRef {
	var out []varRef
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], `\${`) {
			out = append(out, varRef{start: i, end: i + 3, escape: true})
			i += 3
			continue
		}
		if strings.HasPrefix(s[i:], "${") {
			if r, ok := matchRef(s, i); ok {
				out = append(out, r)
				i = r.end
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return out
}

func isNameStart(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func isNameChar(c byte) bool { return isNameStart(c) || c == '.' || (c >= '0' && c <= '9') }

// matchRef matches ${NAME(:-fallback)?} at s[i:].
func matchRef(s string, i int) (varRef, bool) {
	j := i + 2
	if j >= len(s) || !isNameStart(s[j]) {
		return varRef{}, false
	}
	for j < len(s) && isNameChar(s[j]) {
		j++
	}
	r := varRef{start: i, name: s[i+2 : j]}
	if strings.HasPrefix(s[j:], "}") {
		r.end = j + 1
		return r, true
	}
	if !strings.HasPrefix(s[j:], ":-") {
		return varRef{}, false
	}
	var fb strings.Builder
	for k := j + 2; k < len(s); {
		c := s[k]
		switch c {
		case '}':
			r.end, r.fallback, r.hasFallback = k+1, fb.String(), true
			return r, true
		case '\\':
			next, size := utf8.DecodeRuneInString(s[k+1:])
			if size == 0 || IsLineTerminator(next) {
				return varRef{}, false // JavaScript's "." stops at a line break
			}
			fb.WriteRune(next)
			k += 1 + size
		default:
			_, size := utf8.DecodeRuneInString(s[k:])
			fb.WriteString(s[k : k+size])
			k += size
		}
	}
	return varRef{}, false
}

// HasVars reports whether s holds a ${VAR} reference (an escaped \${ is
// not one).
func HasVars(s string) bool {
	if !strings.Contains(s, "${") {
		return false
	}
	for _, r := range scanVars(s) {
		if !r.escape {
			return true
		}
	}
	return false
}

// ResolveString substitutes the references of one value. pos locates the
// value for the unresolved-variable error.
func ResolveString(s string, scope Scope, pos canonical.Pos) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	refs := scanVars(s)
	if len(refs) == 0 {
		return s, nil
	}
	var b strings.Builder
	last := 0
	for _, r := range refs {
		b.WriteString(s[last:r.start])
		last = r.end
		switch v, ok := scope.Lookup(r.name); {
		case r.escape:
			b.WriteString("${")
		case ok:
			b.WriteString(v)
		case r.hasFallback:
			b.WriteString(r.fallback)
		default:
			file := pos.File
			if file == "" {
				file = "<script>"
			}
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "Unresolved variable ${%s} at %s:%d.", r.name, file, pos.Line).
				At(pos).With("variable", r.name).
				WithHint("define it with env " + r.name + "=... in the script, AD_VAR_" + r.name + "=... in the shell, or -e " +
					r.name + "=...; or give a fallback: ${" + r.name + ":-value}")
		}
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// Resolve returns the action with its positionals and flag values
// resolved. It is applied right before the step runs; the parsed action is
// left untouched. Each value is resolved on its own, so a value with
// spaces stays one argument.
func Resolve(a Action, scope Scope) (Action, error) {
	out := a
	out.Positionals = make([]string, len(a.Positionals))
	for i, p := range a.Positionals {
		v, err := ResolveString(p, scope, a.ArgPos(i))
		if err != nil {
			return Action{}, err
		}
		out.Positionals[i] = v
	}
	if a.Flags != nil {
		out.Flags = make(map[string]string, len(a.Flags))
		for _, k := range sortedKeys(a.Flags) {
			v, err := ResolveString(a.Flags[k], scope, a.FlagPos(k))
			if err != nil {
				return Action{}, err
			}
			out.Flags[k] = v
		}
	}
	return out, nil
}

// actionHasVars reports whether any value of the action needs resolution.
func actionHasVars(a Action) bool {
	for _, p := range a.Positionals {
		if HasVars(p) {
			return true
		}
	}
	for _, v := range a.Flags {
		if HasVars(v) {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
