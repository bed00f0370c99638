package ad

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// The .ad codec: agent-device's plain-text script format, read and written
// with agent-device 0.21.5's grammar (agent-device.md §3) so recordings move
// between the two tools. Parsing is purely syntactic plus the one arity
// table; what flow can run is decided by [CheckSupported] and [Steps].
//
// Grammar (§3.1):
//
//	script      := line*                          split on \r?\n
//	line        := blank | comment | annotation | env | context | action
//	comment     := '#' ...                        whole-line only
//	annotation  := '#' WS? ('agent-device:'|'flow:') ('target-v1'|'targets-v1') WS json
//	env         := 'env' WS KEY '=' VALUE          before every action
//	context     := 'context' (WS key '=' value)*   before every action
//	action      := command (WS token)*
//	token       := '"' JSON-string-body '"' | run of non-whitespace
//
// Whitespace is JavaScript's \s. Positions are 1-based; columns count runes.

// Script is a parsed .ad file.
type Script struct {
	File    string   `json:"file,omitempty"`
	Context Context  `json:"context"`
	Env     []EnvVar `json:"env,omitempty"`
	Actions []Action `json:"actions"`
}

// Context is the script's context header. The typed fields are the keys
// agent-device reads; Fields keeps every key=value in order (device=,
// kind=, theme= included) so the header is written back as it was read.
type Context struct {
	Platform  string         `json:"platform,omitempty"`
	Target    string         `json:"target,omitempty"`
	TimeoutMs int            `json:"timeoutMs,omitempty"` // 0: not set
	Retries   *int           `json:"retries,omitempty"`
	Fields    []ContextField `json:"fields,omitempty"`
}

// ContextField is one key=value of a context line.
type ContextField struct {
	Key   string        `json:"key"`
	Value string        `json:"value"`
	Pos   canonical.Pos `json:"-"`
}

// EnvVar is one env KEY=VALUE directive.
type EnvVar struct {
	Key   string        `json:"key"`
	Value string        `json:"value"`
	Pos   canonical.Pos `json:"-"`
}

// Action is one action line. Positionals and flag values are raw: ${VAR}
// references are resolved late, by [Resolve], right before the step runs.
type Action struct {
	Command     string   `json:"command"`
	Positionals []string `json:"positionals,omitempty"`
	// Flags maps a flag's long name without dashes ("count", "pause-ms",
	// "double-tap", "interactive" for snapshot -i) to its value; a switch
	// holds "true". A flag at its default (--button primary) is absent.
	Flags map[string]string `json:"flags,omitempty"`
	// RefLabel is the label recorded after an @ref (click @e3 "Log in").
	RefLabel string          `json:"refLabel,omitempty"`
	Target   *TargetEvidence `json:"target,omitempty"`  // from a target-v1 annotation
	Targets  *TargetPair     `json:"targets,omitempty"` // from a targets-v1 annotation
	// Pos is where the command word is; Line repeats Pos.Line.
	Pos  canonical.Pos `json:"-"`
	Line int           `json:"line,omitempty"`
	Raw  string        `json:"-"` // the line as written

	argPos  []canonical.Pos
	flagPos map[string]canonical.Pos
}

// ArgPos is where positional i was written; the command's position when
// unknown (an action built in code).
func (a Action) ArgPos(i int) canonical.Pos {
	if i >= 0 && i < len(a.argPos) {
		return a.argPos[i]
	}
	return a.Pos
}

// FlagPos is where the value of a flag was written, else the command's
// position.
func (a Action) FlagPos(name string) canonical.Pos {
	if p, ok := a.flagPos[name]; ok {
		return p
	}
	return a.Pos
}

// ParseOptions tune [ParseScript].
type ParseOptions struct {
	// NFC normalizes annotation text; see [Normalizer].
	NFC Normalizer
}

// pendingAnnotation is a target annotation waiting for its action line.
type pendingAnnotation struct {
	pair   bool
	single *TargetEvidence
	double *TargetPair
	line   int
	pos    canonical.Pos
}

func (p *pendingAnnotation) tag() string {
	if p.pair {
		return "targets-v1"
	}
	return "target-v1"
}

func (p *pendingAnnotation) unbound(l srcLine, why string) error {
	return l.errorf(0, "%s annotation on line %d must be immediately followed by its action line (line %d %s).",
		p.tag(), p.line, l.n, why).
		WithHint("put the annotation directly above the action it describes, or delete it")
}

// ParseScript parses a .ad script. file is used in positions and messages.
// The first error stops the parse, as in agent-device: every error is a
// *canonical.Error with a position whose Line is set. Removed gesture forms
// fail here, before any device action.
func ParseScript(file string, src []byte, opts ParseOptions) (*Script, error) {
	if err := checkUTF8(file, src); err != nil {
		return nil, err
	}
	s := &Script{File: file, Actions: []Action{}}
	seen := map[string]string{} // context metadata key -> value
	envSeen := map[string]bool{}
	var pending *pendingAnnotation
	sawAction := false
	// recognised: a line before parsed as a script's (a context, env,
	// annotation or action line); until then an error quotes nothing.
	recognised := false
	lines := splitLines(string(src))
	for i, raw := range lines {
		l := newSrcLine(file, i+1, raw)
		switch {
		case l.trimmed == "":
			if pending != nil {
				return nil, pending.unbound(l, "is blank")
			}
			continue
		case strings.HasPrefix(l.trimmed, "#"):
			kind, payload, off := matchAnnotation(l.trimmed)
			if kind == notAnnotation {
				if pending != nil {
					return nil, pending.unbound(l, "is a comment")
				}
				continue
			}
			if pending != nil {
				return nil, pending.unbound(l, "is another target annotation")
			}
			p := &pendingAnnotation{pair: kind == pairTarget, line: l.n, pos: l.pos(0)}
			var err error
			if p.pair {
				p.double, err = parseTargetsPayload(payload, opts.NFC)
			} else {
				p.single, err = parseTargetPayload(payload, opts.NFC)
			}
			if err != nil {
				return nil, canonical.Coded(err).At(l.pos(off)).With("line", l.n)
			}
			pending, recognised = p, true
			continue
		case firstWord(l.trimmed) == "env":
			if pending != nil {
				return nil, pending.unbound(l, "is an env directive")
			}
			if sawAction {
				return nil, l.errorf(0, "env directives must precede all actions (line %d).", l.n).
					WithHint("move the env line above the first action")
			}
			v, err := parseEnvLine(l)
			if err != nil {
				return nil, err
			}
			if envSeen[v.Key] {
				return nil, l.errorf(0, "Duplicate env directive %q on line %d.", v.Key, l.n).
					WithHint("keep one env " + v.Key + "=... line")
			}
			envSeen[v.Key] = true
			s.Env = append(s.Env, v)
			recognised = true
			continue
		}
		if firstWord(l.trimmed) == "context" {
			if pending != nil {
				return nil, pending.unbound(l, "did not parse as an action")
			}
			if sawAction {
				return nil, l.errorf(0, "context lines must precede all actions (line %d)", l.n).
					WithHint("move the context line to the top of the script")
			}
			if err := parseContextLine(l, &s.Context, seen); err != nil {
				return nil, err
			}
			recognised = true
			continue
		}
		toks, err := tokenize(l)
		if !recognised {
			if err != nil && !isCommand(firstWord(l.trimmed)) || err == nil && len(toks) > 0 && (notACommand(toks[0].text) || toks[0].quoted && !isCommand(toks[0].text)) {
				return nil, notAScript(l)
			}
		}
		if err != nil {
			return nil, err
		}
		a, err := parseAction(l, toks)
		if err != nil {
			return nil, err
		}
		if pending != nil {
			a.Target, a.Targets = pending.single, pending.double
			pending = nil
		}
		s.Actions = append(s.Actions, a)
		sawAction, recognised = true, true
	}
	if pending != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs,
			"%s annotation on line %d must be immediately followed by its action line (end of script reached).",
			pending.tag(), pending.line).At(pending.pos).
			WithHint("put the annotation directly above the action it describes, or delete it")
	}
	return s, nil
}

func checkUTF8(file string, src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return canonical.NewError(canonical.CodeInvalidArgs, "script is not valid UTF-8").
		At(canonical.Pos{File: file, Line: line, Col: col}).
		WithHint("save the script as UTF-8 text")
}

// notACommand reports whether a line's first word is neither a command
// nor a misspelling of one worth quoting back: a word that is not a plain
// name (DB_PASSWORD=…, -----BEGIN, a base64 run) is no typo.
func notACommand(word string) bool {
	return !isCommand(word) && !plainWordRe().MatchString(word)
}

func isCommand(word string) bool {
	_, ok := commandSpecs()[word]
	return ok
}

var plainWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,31}$`) })

// notAScript is the error for a file whose first line is nothing an .ad
// script holds: most likely not a script at all (a key, a .env file), so
// the message describes the line and never quotes it.
func notAScript(l srcLine) *canonical.Error {
	return l.errorf(0, "%s is not an .ad script: line %d does not start with a command (it holds %d bytes of other text)", l.file, l.n, len(l.trimmed)).
		With("line", l.n).
		WithHint(".ad scripts are lines of commands: " + strings.Join(supportedCommands(), ", ") + "; check that this is the file you meant")
}

func firstWord(s string) string {
	if i := strings.IndexFunc(s, isJSSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// IsEnvKey is an env directive key: ^[A-Z_][A-Z0-9_]*$.
func IsEnvKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '_' || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// parseEnvLine reads "env KEY=VALUE" (§3.1). VALUE is raw text, or a JSON
// string when it starts with '"'; empty is allowed.
func parseEnvLine(l srcLine) (EnvVar, error) {
	body := strings.TrimLeftFunc(l.trimmed[len("env"):], isJSSpace)
	bodyOff := len(l.trimmed) - len(body)
	eq := strings.IndexByte(body, '=')
	if eq <= 0 {
		return EnvVar{}, l.errorf(bodyOff, `Invalid env directive on line %d: expected "env KEY=VALUE".`, l.n).
			WithHint("write env APP_ID=com.example.app")
	}
	key := body[:eq]
	if !IsEnvKey(key) {
		return EnvVar{}, l.errorf(bodyOff, `Invalid env key %q on line %d: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`, key, l.n).
			WithHint("rename the key, e.g. env " + envKeySuggestion(key) + "=...")
	}
	if strings.HasPrefix(key, "AD_") {
		return EnvVar{}, l.errorf(bodyOff, `Invalid env key %q on line %d: the AD_* namespace is reserved for built-in variables. Rename %s to avoid the AD_ prefix.`, key, l.n, key).
			WithHint("built-ins such as AD_PLATFORM are set by flow; pick another name")
	}
	raw := body[eq+1:]
	v := EnvVar{Key: key, Value: raw, Pos: l.pos(bodyOff)}
	if strings.HasPrefix(raw, `"`) {
		var ok bool
		if v.Value, ok = decodeJSONString(raw); !ok {
			return EnvVar{}, l.errorf(bodyOff+eq+1, "Invalid quoted env value on line %d.", l.n).
				WithHint(quotedValueHint)
		}
	}
	return v, nil
}

func envKeySuggestion(key string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(key) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	return s
}

func decodeJSONString(s string) (string, bool) {
	v, err := decodeJSONValue(s)
	if err != nil {
		return "", false
	}
	str, ok := v.(string)
	return str, ok
}

// Context header values agent-device accepts.
func contextPlatforms() []string {
	return []string{"apple", "android", "harmonyos", "vega", "linux", "ios", "macos"}
}

func contextTargets() []string { return []string{"mobile", "tv", "desktop"} }

// parseContextLine reads "context key=value ...". A value may be a JSON
// string (the recorder writes device="iPhone 16"), so a quoted value is
// one value even with spaces. Keys other than platform, target, timeout
// and retries are kept but not interpreted. flow is stricter than
// agent-device: a bad value of a known key is an error (agent-device
// ignores it), and a key repeated on one line counts as a duplicate.
func parseContextLine(l srcLine, c *Context, seen map[string]string) error {
	s := l.trimmed
	i := len("context")
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if isJSSpace(r) {
			i += size
			continue
		}
		start := i
		if s[i] == '"' {
			_, next, err := scanQuoted(l, i)
			if err != nil {
				return err
			}
			i = next
			continue
		}
		for i < len(s) && s[i] != '=' {
			r, size := utf8.DecodeRuneInString(s[i:])
			if isJSSpace(r) {
				break
			}
			i += size
		}
		if i >= len(s) || s[i] != '=' || i == start {
			for i < len(s) { // a word without '=' is ignored
				r, size := utf8.DecodeRuneInString(s[i:])
				if isJSSpace(r) {
					break
				}
				i += size
			}
			continue
		}
		key := s[start:i]
		i++
		var value string
		if i < len(s) && s[i] == '"' {
			v, next, err := scanQuoted(l, i)
			if err != nil {
				return err
			}
			value, i = v, next
		} else {
			vs := i
			for i < len(s) {
				r, size := utf8.DecodeRuneInString(s[i:])
				if isJSSpace(r) {
					break
				}
				i += size
			}
			value = s[vs:i]
		}
		f := ContextField{Key: key, Value: value, Pos: l.pos(start)}
		if err := applyContextField(l, c, seen, f, start); err != nil {
			return err
		}
		c.Fields = append(c.Fields, f)
	}
	return nil
}

func applyContextField(l srcLine, c *Context, seen map[string]string, f ContextField, off int) error {
	var metaKey, norm string // agent-device's metadata key and the value compared for duplicates
	var apply func()
	switch f.Key {
	case "platform", "target":
		set := contextPlatforms()
		if f.Key == "target" {
			set = contextTargets()
		}
		if !oneOf(f.Value, set) {
			return l.errorf(off, "unknown %s %q in context header", f.Key, f.Value).
				WithHint(f.Key + " is one of: " + strings.Join(set, ", "))
		}
		metaKey, norm = f.Key, f.Value
		apply = func() {
			if f.Key == "platform" {
				c.Platform = f.Value
			} else {
				c.Target = f.Value
			}
		}
	case "timeout", "retries":
		lo, example := 0, "retries=2"
		if f.Key == "timeout" {
			lo, example = 1, "timeout=60000"
		}
		n, err := strconv.Atoi(f.Value)
		if err != nil || !allDigits(f.Value) || n < lo {
			return l.errorf(off, "%s=%s in context header is not a whole number of at least %d", f.Key, f.Value, lo).
				WithHint("write " + example)
		}
		norm = strconv.Itoa(n)
		if f.Key == "timeout" {
			metaKey, apply = "timeoutMs", func() { c.TimeoutMs = n }
		} else {
			metaKey, apply = "retries", func() { c.Retries = &n }
		}
	default:
		return nil // device=, kind=, theme=, ...: kept, not interpreted
	}
	if prev, dup := seen[metaKey]; dup {
		if prev == norm {
			return l.errorf(off, "Duplicate replay test metadata %q in context header.", metaKey).
				WithHint("keep one " + f.Key + "=")
		}
		return l.errorf(off, "Conflicting replay test metadata %q in context header: %s vs %s.", metaKey, prev, norm).
			WithHint("keep one " + f.Key + "=")
	}
	seen[metaKey] = norm
	apply()
	return nil
}

func oneOf(s string, set []string) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}
