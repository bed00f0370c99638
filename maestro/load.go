package maestro

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
)

// Source is where the loader reads files. Paths are slash-separated; the CLI
// passes the real file system, tests an in-memory one. It must be safe for
// concurrent use: planning a workspace reads its flow files ahead on
// another goroutine while the loader reads the subflows they name.
type Source interface {
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// Loader loads flow files and everything they reference (subflows, scripts,
// media) at load time, as Maestro does. It caches each file, so a subflow
// used by many flows is read and checked once.
type Loader struct {
	src      Source
	flows    map[string]*canonical.Flow
	failed   map[string]bool
	loading  []string
	order    []string
	partial  []*canonical.Flow
	schema   *schemaValidator
	problems []*canonical.Error
	warnings []*canonical.Error
	// ctx stops loading (Ctrl-C); stop is the INTERRUPTED error once it
	// has, and every entry point then returns it.
	ctx  context.Context
	stop *canonical.Error
	// specs is commandSpecs(), built once: building it per command was
	// most of the time spent loading a long flow.
	specs map[string]commandSpec
	// recognized holds the text of every file read as a flow whose header
	// names an app: the only files an error may quote (Recognized).
	recognized map[string][]byte
	// scripts is the text of each runScript file read, by path.
	scripts map[string]string
	// depths is how deep each loaded flow's blocks nest (chain.go).
	depths map[*canonical.Flow]int
	// version is the Maestro semantics flows are read with; versionFixed
	// says a flag or FLOW_MAESTRO_VERSION chose it, so a workspace
	// config's maestroVersion does not change it.
	version      canonical.MaestroVersion
	versionFixed bool
}

// NewLoader returns a loader reading from src.
func NewLoader(src Source) *Loader {
	return &Loader{src: src, flows: map[string]*canonical.Flow{}, failed: map[string]bool{}, ctx: context.Background(),
		specs: commandSpecsFor(canonical.MaestroCurrent), recognized: map[string][]byte{}, scripts: map[string]string{},
		version: canonical.MaestroCurrent}
}

// WithContext makes loading stop once ctx is done: between files, between
// commands and between the schema checks of a file's commands. Load,
// LoadBytes, LoadConfig and Plan then return an INTERRUPTED error (and no
// flow: what was read so far is incomplete), so a Ctrl-C during a long
// load stops flow at once.
func (l *Loader) WithContext(ctx context.Context) *Loader {
	l.ctx = ctx
	return l
}

// interrupted reports whether loading must stop, recording why once.
func (l *Loader) interrupted() bool {
	if l.stop == nil && l.ctx.Err() != nil {
		l.stop = canonical.Interrupted(l.ctx.Err())
		l.stop.Message = "loading was interrupted"
	}
	return l.stop != nil
}

// Flows are every flow file loaded so far, subflows included, each once,
// in the order they finished loading.
func (l *Loader) Flows() []*canonical.Flow {
	out := make([]*canonical.Flow, 0, len(l.order))
	for _, p := range l.order {
		out = append(out, l.flows[p])
	}
	return out
}

// Partial are the flows that loaded with problems, holding the commands
// that did decode: flow check still counts and plans them.
func (l *Loader) Partial() []*canonical.Flow { return l.partial }

// Problems are every error found so far, in the order found.
func (l *Loader) Problems() []*canonical.Error { return l.problems }

// Warnings are what Maestro accepts but a reader should know (ignored keys,
// clamped durations, near-miss header keys).
func (l *Loader) Warnings() []*canonical.Error { return l.warnings }

// Recognized returns the text of file when the loader read it as a flow
// and found a flow header in it (a mapping with appId or url), so an error
// may show its lines. A file a path merely named (runFlow: notes.txt, a
// symlink to a secret) is not recognized, and its lines are never shown.
func (l *Loader) Recognized(file string) ([]byte, bool) {
	data, ok := l.recognized[file]
	return data, ok
}

// LoadError carries every problem of a load; errors.As finds the first
// *canonical.Error in it.
type LoadError struct {
	Problems []*canonical.Error
}

func (e *LoadError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap exposes each problem to errors.As and errors.Is.
func (e *LoadError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// fileCtx is what commands need to know about the file they are in.
type fileCtx struct {
	path  string
	dir   string
	appID canonical.Template
}

// Load loads one flow file and the files it references. The error, if any,
// is a *LoadError listing every problem found in this file and its
// subflows.
func (l *Loader) Load(file string) (*canonical.Flow, error) {
	return l.loadTop(file, nil)
}

// loadTop is Load with what a prefetcher read and prepared of the file
// ahead, if anything (ahead may be nil).
func (l *Loader) loadTop(file string, ahead *fetched) (*canonical.Flow, error) {
	before := len(l.problems)
	f := l.loadAhead(file, nil, canonical.Pos{}, ahead)
	if l.interrupted() {
		return nil, l.stop
	}
	if len(l.problems) > before || f == nil {
		return f, &LoadError{Problems: append([]*canonical.Error{}, l.problems[before:]...)}
	}
	return f, nil
}

// LoadBytes loads a flow from memory (tests, fuzzing, stdin). Files it
// references are read from the Source relative to file's directory.
func (l *Loader) LoadBytes(file string, data []byte) (*canonical.Flow, error) {
	if l.interrupted() {
		return nil, l.stop
	}
	before := len(l.problems)
	file = path.Clean(file)
	if len(data) > MaxFileSize {
		l.problem(tooLarge(file, "flow", int64(len(data)), MaxFileSize).At(canonical.Pos{File: file}))
		return nil, &LoadError{Problems: append([]*canonical.Error{}, l.problems[before:]...)}
	}
	l.loading = append(l.loading, file)
	f := l.parse(file, data)
	l.loading = l.loading[:len(l.loading)-1]
	if l.interrupted() {
		return nil, l.stop
	}
	if f != nil {
		l.flows[file] = f
		l.order = append(l.order, file)
	}
	if len(l.problems) > before || f == nil {
		return f, &LoadError{Problems: append([]*canonical.Error{}, l.problems[before:]...)}
	}
	return f, nil
}

func (l *Loader) problem(e *canonical.Error) { l.problems = append(l.problems, e) }

// load returns the cached or freshly parsed flow; nil when it cannot be
// read or parsed (the problem is recorded once, in the file itself).
func (l *Loader) load(file string, from *decoder, at canonical.Pos) *canonical.Flow {
	return l.loadAhead(file, from, at, nil)
}

// loadAhead is load with the prefetcher's reading and first half of
// parsing of a top-level file (from is nil), when it has them for file.
func (l *Loader) loadAhead(file string, from *decoder, at canonical.Pos, ahead *fetched) *canonical.Flow {
	file = path.Clean(file)
	if ahead != nil && (from != nil || ahead.file != file) {
		ahead = nil
	}
	if f, ok := l.flows[file]; ok {
		return f
	}
	if l.failed[file] || l.interrupted() {
		return nil
	}
	for i, p := range l.loading {
		if p == file {
			chain := append(append([]string{}, l.loading[i:]...), file)
			l.problem(canonical.Errorf(canonical.CodeInvalidArgs, "runFlow cycle: %s", strings.Join(chain, " -> ")).
				At(at).WithHint("a flow cannot run itself, directly or through its subflows; Maestro overflows its stack here"))
			return nil
		}
	}
	if from == nil {
		at = canonical.Pos{File: file}
	}
	var data []byte
	var err *canonical.Error
	if ahead != nil {
		data, err = ahead.data, ahead.err
	} else {
		data, err = l.readSource(file, "flow file", at)
	}
	if err != nil {
		if err.Hint == "" {
			err.Hint = "check the path; flow paths are relative to the current directory"
		}
		l.failed[file] = true
		l.problem(err)
		return nil
	}
	l.loading = append(l.loading, file)
	var f *canonical.Flow
	if ahead != nil && ahead.prepared != nil {
		f = l.parsePrepared(ahead.prepared)
	} else {
		f = l.parse(file, data)
	}
	l.loading = l.loading[:len(l.loading)-1]
	if l.interrupted() {
		return nil // incomplete: neither cached nor failed
	}
	if f == nil {
		l.failed[file] = true
	} else {
		l.flows[file] = f
		l.order = append(l.order, file)
	}
	return f
}

// readSource reads a file the loader parses, refusing before reading it
// anything but a regular file of at most MaxFileSize bytes (a folder,
// /dev/zero, a FIFO, a log file named by mistake). The error is at at, the
// position that names the file.
func (l *Loader) readSource(file, what string, at canonical.Pos) ([]byte, *canonical.Error) {
	info, err := l.src.Stat(file)
	return l.readStated(file, what, at, info, err)
}

// readStated is readSource once the file is stat'ed (info, err).
func (l *Loader) readStated(file, what string, at canonical.Pos, info fs.FileInfo, err error) ([]byte, *canonical.Error) {
	if err == nil {
		if e := CheckFileInfo(file, what, info, MaxFileSize); e != nil {
			return nil, e.At(at)
		}
	}
	data, err := l.src.ReadFile(file)
	if err == nil && len(data) > MaxFileSize {
		// A Source without the limit, or a file that grew after Stat.
		return nil, tooLarge(file, what, int64(len(data)), MaxFileSize).At(at)
	}
	if err != nil {
		var pe *fs.PathError
		if ce, ok := canonical.AsError(err); ok && !errors.As(err, &pe) {
			e := *ce // the Source's own refusal (a file that grew, a FIFO swapped in)
			return nil, e.At(at)
		}
		e := canonical.Errorf(canonical.CodeInvalidArgs, "cannot read %s %s: %s", what, file, errText(err)).At(at)
		// The hint names the cause; a missing file's is the caller's,
		// which knows where its paths are relative to.
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, fs.ErrPermission):
			e.Hint = "flow may not read this file: check its permissions"
		default:
			e.Hint = "check that " + file + " is a file flow can read"
		}
		return nil, e
	}
	return data, nil
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// parse reads the two documents of a flow file: the header and the command
// list (maestro-reference §3.1).
func (l *Loader) parse(file string, data []byte) *canonical.Flow {
	return l.parsePrepared(prepare(l.ctx, file, data, nil, l.version))
}

// prepared is the first half of parsing a flow file: what needs nothing
// of the loader's state, so a prefetcher can do it on another core while
// the loader decodes the files before it (prefetch.go). The second half,
// parsePrepared, records its problems and warnings in file order.
type prepared struct {
	file string
	data []byte
	// d carries the warnings found so far; the second half goes on
	// decoding with it, so warnings keep their order and dedupe.
	d    *decoder
	docs []*yaml.Node
	// recognized: the file's header names an app (Loader.Recognized).
	recognized bool
	// problems, when set, end the parse: the file is not a flow.
	problems []*canonical.Error
	// schema holds the schema check's result when the prefetcher ran it
	// ahead (schemaDone); the check reads only the nodes, so its result
	// is the one checkSchema would find.
	schema     []*canonical.Error
	schemaDone bool
}

// prepare splits data into YAML documents and checks what needs no
// loader state: the YAML itself, aliases, the number of documents and
// the limits on the flow's shape. With a validator it also runs the
// schema check ahead, for parsePrepared to use if it gets that far.
func prepare(ctx context.Context, file string, data []byte, v *schemaValidator, version canonical.MaestroVersion) *prepared {
	d := &decoder{file: file, ctx: ctx, version: version}
	p := &prepared{file: file, data: data, d: d}
	problem := func(e *canonical.Error) *prepared {
		p.problems = append(p.problems, e)
		return p
	}
	docs, err := documents(data)
	p.recognized = (err == nil && len(docs) > 0 && namesApp(docs[0])) || (err != nil && headerNamesApp(data))
	if err != nil {
		if line, ok := missingSeparator(data); ok {
			return problem(canonical.NewError(canonical.CodeInvalidArgs, "the commands start without a --- line after the header").
				At(canonical.Pos{File: file, Line: line, Col: 1}).Wrap(err).
				WithHint("put a line with --- between the header (appId: ...) and the first command"))
		}
		pos := canonical.Pos{File: file, Line: yamlErrorLine(err)}
		if at, ok := tabIndent(data, pos.Line, yamlErrorText(err)); ok {
			return problem(tabError(file, at, err))
		}
		hint := "fix the YAML syntax near this line: check indentation, colons and quotes"
		if pos.Line == 0 {
			// yaml.v3 gives reader errors and unknown anchors no line; find it.
			var h string
			pos.Line, pos.Col, h = locateYAMLError(data, yamlErrorText(err))
			if h != "" {
				hint = h
			}
		}
		text, cause := yamlErrorText(err), err
		if !p.recognized && text != yamlWithoutValues(text) {
			// Not a flow (no header names an app): the file may be a
			// secret, and yaml.v3's message quotes a name from it.
			text, cause = yamlWithoutValues(text), nil
			hint = "quote the text if you mean *name literally, or define the anchor (&name) first"
		}
		return problem(canonical.Errorf(canonical.CodeInvalidArgs, "invalid YAML: %s", text).At(pos).Wrap(cause).WithHint(hint))
	}
	for _, doc := range docs {
		if err := d.literalAliases(doc); err != nil {
			return problem(canonical.Coded(err))
		}
	}
	switch {
	case len(docs) == 0:
		return problem(canonical.NewError(canonical.CodeInvalidArgs, "flow file is empty").At(canonical.Pos{File: file, Line: 1, Col: 1}).
			WithHint("a flow is a header (appId: ...), a line with ---, then the list of commands"))
	case len(docs) == 1:
		n := docs[0]
		if n.Kind == yaml.SequenceNode {
			return problem(d.errorf(n, "flow has commands but no header").
				WithHint("start the file with\nappId: com.example.app\n---"))
		}
		return problem(d.errorf(n, "flow has a header but no commands").
			WithHint("after the header write a line with --- and then the commands, one per line starting with -"))
	case len(docs) > 2:
		return problem(d.errorf(docs[2], "flow file has %d documents; a flow has exactly a header and a command list", len(docs)).
			WithHint("remove the extra --- separators: only one goes between the header and the commands"))
	}
	if errs := checkShape(d, docs[0], docs[1]); len(errs) > 0 {
		p.problems = errs
		return p
	}
	p.docs = docs
	if v != nil {
		p.schema = append(v.validate(d, docs[0], true), v.validate(d, docs[1], false)...)
		p.schemaDone = true
	}
	return p
}

// parsePrepared is the second half of parse: it records what prepare
// found and decodes the header and the commands, loading what they
// reference.
func (l *Loader) parsePrepared(p *prepared) *canonical.Flow {
	file, d, docs := p.file, p.d, p.docs
	defer func() { l.warnings = append(l.warnings, d.warnings...) }()
	if p.recognized {
		l.recognized[file] = p.data
	}
	if len(p.problems) > 0 {
		l.problems = append(l.problems, p.problems...)
		return nil
	}
	f := &canonical.Flow{File: file, Name: stem(file), Pos: d.pos(docs[0]), MaestroVersion: l.version}
	fc := &fileCtx{path: file, dir: path.Dir(file)}
	if !l.header(d, docs[0], f, fc) {
		return nil
	}
	cmds := docs[1]
	if cmds.Kind != yaml.SequenceNode {
		l.problem(d.errorf(cmds, "the commands must be a list, got %s", kindName(cmds)).
			WithHint("write each command on its own line starting with \"- \", for example\n- launchApp\n- tapOn: \"Log in\""))
		return nil
	}
	if len(cmds.Content) == 0 {
		l.problem(d.errorf(cmds, "flow has no commands").WithHint("add at least one command after ---, for example - launchApp"))
		return nil
	}
	before := len(l.problems)
	f.Commands = l.commands(d, fc, cmds)
	if len(l.problems) > before {
		// Kept for flow check, which still plans the commands that
		// decoded; a flow with problems never runs.
		l.partial = append(l.partial, f)
		return nil
	}
	if l.interrupted() {
		return nil
	}
	errs := p.schema
	if !p.schemaDone {
		errs = l.checkSchema(d, docs[0], docs[1])
	}
	if len(errs) > 0 {
		l.problems = append(l.problems, errs...)
		l.partial = append(l.partial, f)
		return nil
	}
	if e := l.checkChain(f); e != nil {
		l.problem(e)
		l.partial = append(l.partial, f)
		return nil
	}
	return f
}

// checkSchema validates a flow the loader accepted against the JSON Schema
// that flow schema prints, so flow and editors agree on what is valid.
func (l *Loader) checkSchema(d *decoder, header, commands *yaml.Node) []*canonical.Error {
	if l.schema == nil {
		v, err := schemaValidatorFor(l.version)
		if err != nil {
			return []*canonical.Error{canonical.Coded(err).At(d.pos(header))}
		}
		l.schema = v
	}
	return append(l.schema.validate(d, header, true), l.schema.validate(d, commands, false)...)
}

// documents splits a file into its non-empty YAML documents.
func documents(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(n.Content) == 0 || isNull(n.Content[0]) {
			continue
		}
		out = append(out, n.Content[0])
	}
}

func stem(file string) string {
	base := path.Base(file)
	return strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
}

func headerKeys() []string {
	return []string{"appId", "url", "name", "tags", "env", "onFlowStart", "onFlowComplete", "jsEngine"}
}

// header reads the flow's first document (maestro-reference §3.2). Unknown
// keys are accepted as Maestro does; a near-miss of a known key is warned.
func (l *Loader) header(d *decoder, n *yaml.Node, f *canonical.Flow, fc *fileCtx) bool {
	if n.Kind != yaml.MappingNode {
		l.problem(d.errorf(n, "the flow header must be a mapping, got %s", kindName(n)).
			WithHint("the first document holds appId: ..., and the commands follow after ---"))
		return false
	}
	ps, err := d.pairs(n)
	if err != nil {
		l.problem(canonical.Coded(err))
		return false
	}
	ok := true
	fail := func(err error) {
		l.problem(canonical.Coded(err))
		ok = false
	}
	var hasApp bool
	var starts, completes *yaml.Node
	for _, p := range ps {
		switch p.key {
		case "appId", "url":
			if hasApp {
				fail(d.errorf(p.keyN, "the header gives both appId and url").WithHint("keep one: url is an alias of appId"))
				continue
			}
			hasApp = true
			t, err := d.appID(p.value, p.key)
			if err != nil {
				fail(err)
				continue
			}
			f.AppID, fc.appID = t, t
			f.Web = strings.HasPrefix(t.Raw, "http://") || strings.HasPrefix(t.Raw, "https://")
			if !f.Web && !t.HasExpr() {
				d.nativeApp = t.Raw
			}
		case "name":
			s, err := d.str(p.value, "name")
			if err != nil {
				fail(err)
				continue
			}
			f.Name = s
		case "tags":
			// Maestro reads header tags as a list only; a lone string is a
			// load error there (workspace configs accept either).
			if v := resolve(p.value); v != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
				fail(d.errorf(v, "tags must be a list, got %q", v.Value).
					WithHint("write tags: [" + v.Value + "]"))
				continue
			}
			tags, err := d.stringList(p.value, "tags")
			if err != nil {
				fail(err)
				continue
			}
			f.Tags = tags
		case "env":
			env, err := d.env(p.value)
			if err != nil {
				fail(err)
				continue
			}
			f.Env = env
		case "jsEngine":
			s, err := d.str(p.value, "jsEngine")
			if err != nil {
				fail(err)
				continue
			}
			f.JSEngine = s
			if s == "rhino" && l.version != canonical.Maestro139 {
				rhinoWarning(d, p.value)
			}
		case "onFlowStart":
			starts = p.value
		case "onFlowComplete":
			completes = p.value
		default:
			if p.key == "<<" {
				d.warnf(p.keyN, mergeHint, "the header ignores <<, as Maestro does")
			} else if near := canonical.Closest(p.key, headerKeys()); near != "" {
				d.warnf(p.keyN, fmt.Sprintf("did you mean %q?", near), "header key %q is not one flow uses; it is kept but ignored", p.key)
			}
		}
	}
	if !hasApp {
		fail(d.errorf(n, "the flow header has no appId").
			WithHint("add appId: com.example.app (or url: https://... for a web flow) above ---"))
	}
	if !ok {
		return false
	}
	before := len(l.problems)
	if starts != nil {
		f.OnFlowStart = l.hookCommands(d, fc, starts, "onFlowStart")
	}
	if completes != nil {
		f.OnFlowComplete = l.hookCommands(d, fc, completes, "onFlowComplete")
	}
	return len(l.problems) == before
}

func (l *Loader) hookCommands(d *decoder, fc *fileCtx, n *yaml.Node, what string) []canonical.Command {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		l.problem(d.errorf(n, "%s must be a list of commands, got %s", what, kindName(n)).
			WithHint(what + ":\n  - runScript: setup.js"))
		return nil
	}
	return l.commands(d, fc, n)
}

// stringList reads a list of scalars, or one scalar as a one-item list.
func (d *decoder) stringList(n *yaml.Node, what string) ([]string, error) {
	n = resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode && !isNull(n) {
		return []string{n.Value}, nil
	}
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s must be a list, got %s", what, kindName(n)).WithHint(what + ": [smoke, login]")
	}
	var out []string
	for _, item := range n.Content {
		s, err := d.str(item, what)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// env reads an env block; values are coerced to text and stay templates.
func (d *decoder) env(n *yaml.Node) ([]canonical.EnvVar, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "env must be a mapping of NAME: value, got %s", kindName(n)).
			WithHint("env:\n    USERNAME: user@example.com")
	}
	ps, err := d.pairs(n)
	if err != nil {
		return nil, err
	}
	ident := identRe()
	var out []canonical.EnvVar
	for _, p := range ps {
		if !ident.MatchString(p.key) {
			hint := "env names become JavaScript variables: letters, digits and _, not starting with a digit"
			if p.key == "<<" {
				hint = mergeHint
			}
			return nil, d.errorf(p.keyN, "env name %q is not a valid variable name", p.key).WithHint(hint)
		}
		v := resolve(p.value)
		value := ""
		if v != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
			value = v.Value
		} else if !isNull(v) {
			return nil, d.errorf(v, "env %s must be a single value, got %s", p.key, kindName(v)).
				WithHint("write the value as text; lists and mappings cannot be env values")
		}
		out = append(out, canonical.EnvVar{Name: p.key, Value: canonical.Text(value, d.pos(v)), Pos: d.pos(p.keyN)})
	}
	return out, nil
}

// commands decodes a command list, recording a problem per bad command and
// going on, so one run reports every problem of a file.
func (l *Loader) commands(d *decoder, fc *fileCtx, n *yaml.Node) []canonical.Command {
	var out []canonical.Command
	for _, item := range n.Content {
		if l.interrupted() {
			return out
		}
		c, err := l.command(d, fc, item)
		var done alreadyReported
		if errors.As(err, &done) {
			continue
		}
		if err != nil {
			l.problem(canonical.Coded(err))
			continue
		}
		out = append(out, c)
	}
	return out
}

// command decodes one list item: a bare command name or a one-key mapping.
func (l *Loader) command(d *decoder, fc *fileCtx, item *yaml.Node) (out canonical.Command, err error) {
	if item.Kind == yaml.AliasNode {
		// An aliased command runs where the alias is written.
		written := item
		defer func() {
			if out != nil {
				out.Base().Pos = d.pos(written)
			}
		}()
	}
	item = resolve(item)
	specs := l.specs
	switch item.Kind {
	case yaml.ScalarNode:
		if isNull(item) {
			return nil, d.errorf(item, "empty command").WithHint("write a command after the dash, for example - back")
		}
		spec, ok := specs[item.Value]
		if !ok {
			return nil, l.unknownCommand(d, item, item.Value)
		}
		if !spec.bare {
			return nil, d.errorf(item, "%s needs a value", item.Value).
				WithHint(fmt.Sprintf("write %s: ... (for example %s)", item.Value, exampleOf(item.Value)))
		}
		c := &cmd{d: d, l: l, f: fc, name: item.Value, keyN: item, meta: canonical.Meta{Pos: d.pos(item), Name: item.Value}}
		return spec.decode(c)
	case yaml.MappingNode:
	default:
		return nil, d.errorf(item, "a command must be a name or a name: value mapping, got %s", kindName(item)).
			WithHint("write - tapOn: \"Log in\"")
	}
	ps, err := d.pairs(item)
	if err != nil {
		return nil, err
	}
	var chosen *pair
	var names []string
	for i := range ps {
		p := &ps[i]
		if _, ok := specs[p.key]; !ok {
			return nil, l.unknownCommand(d, p.keyN, p.key)
		}
		names = append(names, p.key)
		if chosen == nil || precedence(p.key) < precedence(chosen.key) {
			chosen = p
		}
	}
	if chosen == nil {
		return nil, d.errorf(item, "empty command").WithHint("write a command after the dash, for example - back")
	}
	if len(names) > 1 {
		d.warnf(item, "put each command in its own list item",
			"this item holds %s; only %s runs (Maestro picks the same one)", strings.Join(names, " and "), chosen.key)
	}
	if isNull(chosen.value) {
		hint := fmt.Sprintf("give %s a value, for example %s", chosen.key, exampleOf(chosen.key))
		if specs[chosen.key].bare {
			hint = fmt.Sprintf("write - %s without the colon, or give it a value", chosen.key)
		}
		return nil, d.errorf(chosen.keyN, "%s has no value", chosen.key).WithHint(hint)
	}
	c := &cmd{d: d, l: l, f: fc, name: chosen.key, keyN: chosen.keyN, value: chosen.value,
		meta: canonical.Meta{Pos: d.pos(chosen.keyN), Name: chosen.key}}
	return specs[chosen.key].decode(c)
}

func precedence(name string) int {
	for i, n := range commandPrecedence() {
		if n == name {
			return i
		}
	}
	return len(commandPrecedence())
}

// unknownCommand is unknownCommand for the loader's Maestro version: a
// command of the current Maestro read under 1.39 is unknown, as 1.39
// refuses it, with a hint naming the version that has it.
func (l *Loader) unknownCommand(d *decoder, n *yaml.Node, name string) error {
	if _, ok := currentOnly()[name]; ok && l.version == canonical.Maestro139 {
		return d.errorf(n, "unknown command %q", name).WithHint(fmt.Sprintf(
			"%s is a command of Maestro %s, not of 1.39, which this run follows; drop --maestro-version 1.39 (or FLOW_MAESTRO_VERSION, or maestroVersion in the workspace config) to use it",
			name, canonical.MaestroCurrent))
	}
	return unknownCommand(d, n, name)
}

func unknownCommand(d *decoder, n *yaml.Node, name string) error {
	if r, ok := compat.RemovedCommand(name); ok {
		return d.errorf(n, "%s", r.Why).WithHint(r.Hint)
	}
	hint := "see flow schema for every command"
	if near := canonical.Closest(name, CommandNames()); near != "" {
		hint = fmt.Sprintf("did you mean %q?", near)
	} else if near := closestFold(name, CommandNames()); near != "" {
		hint = fmt.Sprintf("did you mean %q? command names are case-sensitive", near)
	}
	return d.errorf(n, "unknown command %q", name).WithHint(hint)
}

func closestFold(name string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

func exampleOf(name string) string {
	switch name {
	case "tapOn", "doubleTapOn", "longPressOn", "assertVisible", "assertNotVisible", "copyTextFrom":
		return name + `: "Log in"`
	case "inputText":
		return "inputText: hello@example.com"
	case "swipe":
		return "swipe: {direction: UP}"
	case "runFlow":
		return "runFlow: login.yaml"
	}
	return name + ": ..."
}

// missingSeparator finds the most common flow-file mistake, which YAML
// reports obscurely: a top-level "key:" header followed by top-level "- "
// commands with no --- line between them. It returns the first command's
// line.
func missingSeparator(data []byte) (int, bool) {
	sawKey := false
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "---"):
			sawKey = false
		case strings.HasPrefix(line, "- ") || line == "-":
			return i + 1, sawKey
		case line != "" && line[0] != ' ' && line[0] != '#' && strings.Contains(line, ":"):
			sawKey = true
		}
	}
	return 0, false
}

// locateYAMLError finds where a position-less yaml.v3 error is: the first
// invalid UTF-8 byte or control character, or the alias of an unknown
// anchor. It returns line 1 when it cannot tell, so every error has a line.
func locateYAMLError(data []byte, msg string) (line, col int, hint string) {
	at := func(offset int) (int, int) {
		before := data[:offset]
		l := bytes.Count(before, []byte("\n")) + 1
		return l, offset - bytes.LastIndexByte(before, '\n')
	}
	if strings.HasPrefix(msg, "unknown anchor '") {
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(data, []byte("*"+name)); i >= 0 {
			l, c := at(i)
			return l, c, "write the text \"*" + name + "\" in quotes: Maestro reads an alias as the text of its name, but YAML needs its anchor (&" + name + ") defined first"
		}
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			l, c := at(i)
			return l, c, "the file is not valid UTF-8 here; save it as UTF-8"
		}
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' {
			l, c := at(i)
			return l, c, "remove the control character here (it is invisible in most editors)"
		}
		i += size
	}
	return 1, 0, ""
}

// namesApp reports whether n is a flow header: a mapping with an appId or
// url key.
func namesApp(n *yaml.Node) bool {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && (k.Value == "appId" || k.Value == "url") {
			return true
		}
	}
	return false
}

// headerNamesApp is namesApp for a file that is not valid YAML: whether the
// text before its first --- line is a flow header.
func headerNamesApp(data []byte) bool {
	head := data
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		if line := bytes.TrimRight(data[off:off+end], "\r"); bytes.Equal(bytes.TrimRight(line, " \t"), []byte("---")) {
			head = data[:off]
			break
		}
		off += end + 1
	}
	var n yaml.Node
	if err := yaml.Unmarshal(head, &n); err != nil || len(n.Content) == 0 {
		return false
	}
	return namesApp(n.Content[0])
}
