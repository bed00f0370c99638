package maestro

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// WorkspaceConfig is a workspace's config.yaml (maestro-reference §4.2).
type WorkspaceConfig struct {
	File               string   `json:"file,omitempty"`
	Flows              []string `json:"flows"`
	IncludeTags        []string `json:"includeTags,omitempty"`
	ExcludeTags        []string `json:"excludeTags,omitempty"`
	FlowsOrder         []string `json:"flowsOrder,omitempty"`
	ContinueOnFailure  bool     `json:"continueOnFailure"`
	DeterministicOrder bool     `json:"deterministicOrder,omitempty"`
	// MaestroVersion is the config's maestroVersion (flow's own key): the
	// Maestro semantics of the run unless --maestro-version or
	// FLOW_MAESTRO_VERSION says otherwise.
	MaestroVersion canonical.MaestroVersion `json:"maestroVersion,omitempty"`
}

func defaultConfig() WorkspaceConfig {
	return WorkspaceConfig{Flows: []string{"*"}, ContinueOnFailure: true}
}

// LoadConfig reads a workspace config file. A blank file gives the
// defaults; unknown keys are ignored as Maestro ignores them, with a warning
// when they look like a misspelt known key.
func (l *Loader) LoadConfig(file string) (WorkspaceConfig, error) {
	cfg := defaultConfig()
	cfg.File = file
	if l.interrupted() {
		return cfg, l.stop
	}
	data, rerr := l.readSource(file, "workspace config", canonical.Pos{File: file})
	if rerr != nil {
		if rerr.Hint == "" {
			rerr.Hint = "check the path of the workspace config"
		}
		return cfg, rerr
	}
	d := &decoder{file: file, ctx: l.ctx}
	defer func() { l.warnings = append(l.warnings, d.warnings...) }()
	docs, err := documents(data)
	if err != nil {
		if at, ok := tabIndent(data, yamlErrorLine(err), yamlErrorText(err)); ok {
			return cfg, tabError(file, at, err)
		}
		pos := canonical.Pos{File: file, Line: yamlErrorLine(err)}
		if pos.Line == 0 {
			pos.Line, pos.Col, _ = locateYAMLError(data, yamlErrorText(err))
		}
		// The file may be anything --config named: the message never
		// repeats a name or value from it.
		return cfg, canonical.Errorf(canonical.CodeInvalidArgs, "invalid YAML: %s", yamlWithoutValues(yamlErrorText(err))).
			At(pos).WithHint("fix the YAML syntax near this line")
	}
	if len(docs) == 0 {
		return cfg, nil
	}
	n := docs[0]
	if err := d.literalAliases(n); err != nil {
		return cfg, err
	}
	if n.Kind != yaml.MappingNode {
		return cfg, d.errorf(n, "workspace config must be a mapping, got %s", kindName(n)).
			WithHint("flows: [\"**\"]\nincludeTags: [smoke]")
	}
	ps, err := d.pairs(n)
	if err != nil {
		return cfg, err
	}
	known := []string{"flows", "includeTags", "excludeTags", "executionOrder", "local", "maestroVersion"}
	for _, p := range ps {
		switch p.key {
		case "flows":
			cfg.Flows, err = d.stringList(p.value, "flows")
		case "includeTags":
			cfg.IncludeTags, err = d.stringList(p.value, "includeTags")
		case "excludeTags":
			cfg.ExcludeTags, err = d.stringList(p.value, "excludeTags")
		case "executionOrder":
			err = d.executionOrder(p.value, &cfg)
		case "local":
			err = d.local(p.value, &cfg)
		case "maestroVersion":
			err = l.configVersion(d, p.value, &cfg)
		case "<<":
			d.warnf(p.keyN, mergeHint, "the workspace config ignores <<, as Maestro does")
		default:
			if near := canonical.Closest(p.key, known); near != "" {
				d.warnf(p.keyN, fmt.Sprintf("did you mean %q?", near), "workspace config key %q is ignored", p.key)
			}
		}
		if err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

func (d *decoder) executionOrder(n *yaml.Node, cfg *WorkspaceConfig) error {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return d.errorf(n, "executionOrder must be a mapping, got %s", kindName(n)).
			WithHint("executionOrder:\n  continueOnFailure: false\n  flowsOrder: [login, checkout]")
	}
	ps, err := d.pairs(n)
	if err != nil {
		return err
	}
	if err := d.checkKeys("executionOrder", ps, []string{"continueOnFailure", "flowsOrder"}); err != nil {
		return err
	}
	for _, p := range ps {
		switch p.key {
		case "continueOnFailure":
			cfg.ContinueOnFailure, err = d.boolean(p.value, "continueOnFailure")
		case "flowsOrder":
			cfg.FlowsOrder, err = d.stringList(p.value, "flowsOrder")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) local(n *yaml.Node, cfg *WorkspaceConfig) error {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	ps, err := d.pairs(n)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.key == "deterministicOrder" {
			if cfg.DeterministicOrder, err = d.boolean(p.value, "deterministicOrder"); err != nil {
				return err
			}
			d.warnf(p.keyN, "remove it: flow always runs flows in sorted order", "local.deterministicOrder is deprecated")
		}
	}
	return nil
}

// PlanOptions are the workspace choices given on the command line.
type PlanOptions struct {
	ConfigFile  string
	IncludeTags []string
	ExcludeTags []string
	// KeepGoing collects flows that fail to load into ExecutionPlan.Broken
	// instead of failing the plan, so a run can report them next to the
	// flows that did run. Maestro fails the whole plan.
	KeepGoing bool
	// Skip drops files found in folders that are not flows although their
	// names say so (the CLI's sim app models). Files named explicitly are
	// never skipped. It must be safe for concurrent use: a folder's files
	// are asked about on every core.
	Skip func(file string) bool
}

// BrokenFlow is a selected flow file that could not be loaded.
type BrokenFlow struct {
	File     string
	Problems []*canonical.Error
}

// ExecutionPlan is what flow test runs: the ordered sequence of
// executionOrder.flowsOrder first, then every other selected flow, then
// the selected .ad scripts, which the caller loads.
type ExecutionPlan struct {
	Config            WorkspaceConfig
	Sequence          []*canonical.Flow
	Flows             []*canonical.Flow
	Scripts           []string
	ContinueOnFailure bool
	Broken            []BrokenFlow
	// Warnings are the loader's warnings for every file the plan read.
	Warnings []*canonical.Error
}

// All is every flow of the plan in run order.
func (p *ExecutionPlan) All() []*canonical.Flow {
	return append(append([]*canonical.Flow{}, p.Sequence...), p.Flows...)
}

func planError(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...)
}

// Workspace is what a set of inputs selects before any file is loaded:
// the one answer flow test and flow check share to "which files are
// flows?".
type Workspace struct {
	// Inputs are the paths given, cleaned. Maestro's media rule searches
	// them: folders recursively, files as themselves.
	Inputs []string
	// Single is one regular file given alone: it runs alone, and Maestro
	// reads no workspace config for it, filters no tags and applies no
	// media rule.
	Single bool
	Config WorkspaceConfig
	// Files are the selected Maestro flows: the files given (in the order
	// given), then each folder's files its flows globs match, sorted.
	Files []string
	// Scripts are the .ad scripts selected by the same rules.
	Scripts []string
}

// Discover selects the flow files of the given files and folders the way
// Maestro's workspace planner does (maestro-reference §4.2): a single file
// alone; otherwise the files given if their names are flow names, and the
// files of each folder that the config's flows globs match. .ad scripts
// are selected like flow files.
func (l *Loader) Discover(inputs []string, opts PlanOptions) (*Workspace, error) {
	ws := &Workspace{Config: defaultConfig()}
	for _, in := range inputs {
		info, err := l.src.Stat(in)
		if err != nil {
			return nil, planError("flow path %s does not exist", in).WithHint("give flow files or folders that exist")
		}
		if !info.IsDir() {
			// A FIFO or a device is neither a folder to walk nor a file
			// to read; a file over the limit is refused before reading.
			if e := CheckFileInfo(path.Clean(in), "flow path", info, MaxFileSize); e != nil {
				return nil, e.At(canonical.Pos{File: path.Clean(in)})
			}
		}
		ws.Inputs = append(ws.Inputs, path.Clean(in))
	}
	if len(ws.Inputs) == 1 {
		if info, _ := l.src.Stat(ws.Inputs[0]); info.Mode().IsRegular() {
			ws.Single = true
			if isScriptName(ws.Inputs[0]) {
				ws.Scripts = ws.Inputs
			} else {
				ws.Files = ws.Inputs
			}
			return ws, nil
		}
	}
	var err error
	if ws.Config, err = l.workspaceConfig(ws.Inputs, opts.ConfigFile); err != nil {
		return nil, err
	}
	if err := l.candidates(ws, opts.Skip); err != nil {
		return nil, err
	}
	return ws, nil
}

// Plan selects (Discover) and orders the flows of the given files and
// folders the way Maestro's workspace planner does: a single file runs
// alone; otherwise the config's globs pick top-level flows from each folder,
// explicit files are always kept, tags filter, and flowsOrder runs first.
// Every selected flow is loaded in full; any problem fails the plan with all
// problems listed. Folders are walked in sorted order, so runs are
// reproducible (Maestro uses unsorted file-system order).
func (l *Loader) Plan(inputs []string, opts PlanOptions) (*ExecutionPlan, error) {
	ws, err := l.Discover(inputs, opts)
	if err != nil {
		return nil, err
	}
	return l.PlanWorkspace(ws, opts)
}

// PlanWorkspace loads every file Discover selected, filters tags, orders
// the flows and applies the workspace rules (addMedia inside the
// workspace). The plan carries the warnings of every file read.
func (l *Loader) PlanWorkspace(ws *Workspace, opts PlanOptions) (*ExecutionPlan, error) {
	plan, err := l.plan(ws, opts)
	if plan != nil {
		plan.Warnings = l.warnings
	}
	return plan, err
}

func (l *Loader) plan(ws *Workspace, opts PlanOptions) (*ExecutionPlan, error) {
	if ws.Single {
		plan := &ExecutionPlan{Config: ws.Config, ContinueOnFailure: true, Scripts: ws.Scripts}
		if len(ws.Files) == 0 {
			return plan, nil
		}
		file := ws.Files[0]
		f, err := l.Load(file)
		if l.interrupted() {
			return nil, l.stop
		}
		var le *LoadError
		if err != nil && opts.KeepGoing && errors.As(err, &le) {
			plan.Broken = []BrokenFlow{{File: file, Problems: le.Problems}}
			return plan, nil
		}
		if err != nil {
			return nil, err
		}
		plan.Flows = []*canonical.Flow{f}
		return plan, nil
	}
	cfg := ws.Config
	var loaded []*canonical.Flow
	var problems []*canonical.Error
	var broken []BrokenFlow
	ahead := l.prefetch(ws.Files)
	defer ahead.stop()
	for i, file := range ws.Files {
		f, err := l.loadTop(file, ahead.take(i))
		if l.interrupted() {
			return nil, l.stop
		}
		if err != nil {
			var le *LoadError
			if errors.As(err, &le) {
				problems = append(problems, le.Problems...)
				broken = append(broken, BrokenFlow{File: file, Problems: le.Problems})
			}
			continue
		}
		loaded = append(loaded, f)
	}
	if len(problems) > 0 && !opts.KeepGoing {
		return nil, &LoadError{Problems: problems}
	}
	include := append(append([]string{}, opts.IncludeTags...), cfg.IncludeTags...)
	exclude := append(append([]string{}, opts.ExcludeTags...), cfg.ExcludeTags...)
	var selected []*canonical.Flow
	for _, f := range loaded {
		if tagged(f.Tags, include, exclude) {
			selected = append(selected, f)
		}
	}
	var scripts []string
	if tagged(nil, include, exclude) {
		// .ad scripts have no tags: an include filter drops them, as it
		// drops untagged flows.
		scripts = ws.Scripts
	}
	if len(selected) == 0 && len(scripts) == 0 && len(broken) == 0 {
		return nil, planError("no flows left after the tag filter (include: %s; exclude: %s)",
			listOrNone(include), listOrNone(exclude)).WithHint("check --include-tags/--exclude-tags and the tags: of your flows")
	}
	plan := &ExecutionPlan{Config: cfg, ContinueOnFailure: cfg.ContinueOnFailure, Broken: broken, Scripts: scripts}
	var err error
	if plan.Sequence, plan.Flows, err = order(selected, cfg); err != nil {
		return nil, err
	}
	problems = l.MediaOutsideWorkspace(ws, selected)
	if l.interrupted() {
		return nil, l.stop
	}
	if len(problems) > 0 {
		return nil, &LoadError{Problems: problems}
	}
	return plan, nil
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// tagged is Maestro's filter: kept iff (no include or any tag included)
// and (no exclude or no tag excluded).
func tagged(tags, include, exclude []string) bool {
	has := func(list []string) bool {
		for _, t := range tags {
			if contains(list, t) {
				return true
			}
		}
		return false
	}
	return (len(include) == 0 || has(include)) && (len(exclude) == 0 || !has(exclude))
}

// workspaceConfig is --config, else config.yaml or config.yml at the top of
// the first folder given that has one.
func (l *Loader) workspaceConfig(inputs []string, explicit string) (WorkspaceConfig, error) {
	if explicit != "" {
		if _, err := l.src.Stat(explicit); err != nil {
			return defaultConfig(), planError("config file %s does not exist", explicit).WithHint("check the --config path")
		}
		return l.LoadConfig(explicit)
	}
	for _, in := range inputs {
		if info, _ := l.src.Stat(in); info == nil || !info.IsDir() {
			continue
		}
		for _, name := range []string{"config.yaml", "config.yml"} {
			p := path.Join(path.Clean(in), name)
			if info, err := l.src.Stat(p); err == nil && !info.IsDir() {
				return l.LoadConfig(p)
			}
		}
	}
	return defaultConfig(), nil
}

// candidates fills ws.Files and ws.Scripts: the files given whose names
// are flow names (in the order given) and, per folder, the files its globs
// match (sorted).
func (l *Loader) candidates(ws *Workspace, skip func(string) bool) error {
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if isScriptName(p) {
			ws.Scripts = append(ws.Scripts, p)
		} else {
			ws.Files = append(ws.Files, p)
		}
	}
	foundAny := false
	var globs []*regexp.Regexp
	for _, g := range ws.Config.Flows {
		globs = append(globs, globRegexp(g))
	}
	for _, in := range ws.Inputs {
		info, _ := l.src.Stat(in)
		if !info.IsDir() {
			// Maestro keeps a file given only if it is a regular file with a
			// flow name.
			if info.Mode().IsRegular() && (isFlowName(path.Base(in)) || isScriptName(in)) {
				add(in)
				foundAny = true
			}
			continue
		}
		files, err := walkFlows(l.ctx, l.src, in)
		if err != nil {
			return err
		}
		skipped, err := skipAll(l.ctx, files, skip)
		if err != nil {
			return err
		}
		for i, f := range files {
			if skipped[i] {
				continue
			}
			foundAny = true
			rel := strings.TrimPrefix(f, in+"/")
			for _, g := range globs {
				if g.MatchString(rel) {
					add(f)
					break
				}
			}
		}
	}
	if !foundAny {
		return planError("the folders given hold no flow files").WithHint("flow files end in .yaml or .yml (.ad for scripts)")
	}
	if len(ws.Files)+len(ws.Scripts) == 0 {
		if len(ws.Config.Flows) == 1 && ws.Config.Flows[0] == "*" {
			return planError("the top-level folders hold no flows (flows in subfolders are not run by default)").
				WithHint("move flows to the top level, or set flows: [\"**\"] in config.yaml")
		}
		return planError("flow inclusion patterns matched no flow files: %s", strings.Join(ws.Config.Flows, ", ")).
			WithHint("patterns are relative to the workspace folder; * stays in one folder, ** crosses folders")
	}
	return nil
}

// skipAll asks skip about every file, on every core: a skip that reads
// the file (the CLI's app models) reads a whole workspace. It stops once
// ctx is done.
func skipAll(ctx context.Context, files []string, skip func(string) bool) ([]bool, error) {
	out := make([]bool, len(files))
	if skip == nil {
		return out, nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				out[i] = skip(files[i])
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, canonical.Interrupted(ctx.Err())
	}
	return out, nil
}

// walkFlows lists the flow files and .ad scripts under dir, recursively
// and sorted. Like Maestro's walk it enters hidden folders and does not
// follow links to folders; a link to a file counts as that file.
func walkFlows(ctx context.Context, src Source, dir string) ([]string, error) {
	var out []string
	var walk func(string) error
	walk = func(d string) error {
		if ctx.Err() != nil {
			return canonical.Interrupted(ctx.Err())
		}
		entries, err := src.ReadDir(d)
		if err != nil {
			return planError("cannot read folder %s: %s", d, errText(err))
		}
		for _, e := range entries {
			full := path.Join(d, e.Name())
			if e.IsDir() {
				if err := walk(full); err != nil {
					return err
				}
				continue
			}
			if !isFlowName(e.Name()) && !isScriptName(e.Name()) {
				continue
			}
			if regular(src, full, e) {
				out = append(out, full)
			}
		}
		return nil
	}
	if err := walk(dir); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// regular reports whether a folder entry is a regular file, following a
// link as Maestro's isRegularFile does.
func regular(src Source, full string, e fs.DirEntry) bool {
	switch {
	case e.Type().IsRegular():
		return true
	case e.Type()&fs.ModeSymlink != 0:
		info, err := src.Stat(full)
		return err == nil && info.Mode().IsRegular()
	}
	return false
}

// isFlowName is Maestro's flow file name rule (workspace/Filters.kt): the
// extension is yaml or yml and the stem is not config, both case-sensitive.
func isFlowName(name string) bool {
	ext := path.Ext(name)
	return (ext == ".yaml" || ext == ".yml") && strings.TrimSuffix(path.Base(name), ext) != "config"
}

// isScriptName reports an .ad script, which flow selects like a flow file.
func isScriptName(name string) bool { return strings.EqualFold(path.Ext(name), ".ad") }

// globRegexp turns a workspace glob into a regexp over slash paths relative
// to the workspace: * and ? stay inside one folder, ** crosses folders,
// {a,b} is a choice, [...] a class.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	inClass, inGroup := false, false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case inClass:
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == '{':
			inGroup = true
			b.WriteString("(?:")
		case c == '}' && inGroup:
			inGroup = false
			b.WriteString(")")
		case c == ',' && inGroup:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile("^" + regexp.QuoteMeta(glob) + "$")
	}
	return re
}

// order splits the selected flows into the flowsOrder sequence and the
// rest. The longest prefix of flowsOrder whose names all exist is the
// sequence; a missing first name with a later one present is an error.
func order(flows []*canonical.Flow, cfg WorkspaceConfig) ([]*canonical.Flow, []*canonical.Flow, error) {
	byName := map[string]*canonical.Flow{}
	for _, f := range flows {
		if _, dup := byName[f.Name]; !dup {
			byName[f.Name] = f
		}
	}
	var seq []*canonical.Flow
	inSeq := map[*canonical.Flow]bool{}
	for i, name := range cfg.FlowsOrder {
		f, ok := byName[name]
		if !ok {
			for _, later := range cfg.FlowsOrder[i+1:] {
				if _, ok := byName[later]; ok {
					return nil, nil, planError("executionOrder.flowsOrder names %q, which is not among the selected flows, before %q, which is", name, later).
						WithHint("flowsOrder uses flow names (name: in the header, else the file name without .yaml); fix or remove the missing name")
				}
			}
			break
		}
		seq = append(seq, f)
		inSeq[f] = true
	}
	var rest []*canonical.Flow
	for _, f := range flows {
		if !inSeq[f] {
			rest = append(rest, f)
		}
	}
	return seq, rest, nil
}

// FlowFiles lists the Maestro flow files under dir, recursively and
// sorted, whatever the globs say (the repository's corpus tests).
func FlowFiles(src Source, dir string) ([]string, error) {
	all, err := walkFlows(context.Background(), src, dir)
	var out []string
	for _, f := range all {
		if isFlowName(path.Base(f)) {
			out = append(out, f)
		}
	}
	return out, err
}

// MediaOutsideWorkspace is Maestro's workspace rule for addMedia
// (YamlCommandsPathValidator): every file a top-level addMedia of a
// selected flow adds must share its name with something inside the inputs
// (a folder given is searched recursively, a file given is only itself),
// because a cloud run uploads only those. A single file given alone is
// exempt, as in Maestro.
func (l *Loader) MediaOutsideWorkspace(ws *Workspace, flows []*canonical.Flow) []*canonical.Error {
	if ws.Single {
		return nil
	}
	var names map[string]bool
	folders := false
	var out []*canonical.Error
	for _, f := range flows {
		for _, c := range f.Commands {
			am, ok := c.(*canonical.AddMedia)
			if !ok {
				continue
			}
			for _, file := range am.Files {
				if names == nil {
					names = map[string]bool{}
					for _, in := range ws.Inputs {
						folders = l.allNames(in, names) || folders
					}
				}
				if names[path.Base(file)] {
					continue
				}
				hint := "move the file into the workspace folder: Maestro runs only what the workspace holds"
				if !folders {
					hint = "give the folder that holds the flows and their media instead of the flow files: with only files given, Maestro's workspace is those files"
				}
				out = append(out, canonical.Errorf(canonical.CodeInvalidArgs,
					"addMedia file %q is not inside the workspace", path.Base(file)).At(am.Pos).WithHint(hint))
			}
		}
	}
	return out
}

// allNames adds the name of p and, for a folder, of everything under it
// (Files.walk: folders too, without following links); it reports whether
// p is a folder.
func (l *Loader) allNames(p string, into map[string]bool) bool {
	into[path.Base(p)] = true
	info, err := l.src.Stat(p)
	if err != nil || !info.IsDir() {
		return false
	}
	var walk func(dir string)
	walk = func(dir string) {
		if l.interrupted() {
			return
		}
		entries, err := l.src.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			into[e.Name()] = true
			if e.IsDir() {
				walk(path.Join(dir, e.Name()))
			}
		}
	}
	walk(p)
	return true
}

// configVersion reads maestroVersion and, unless a flag or
// FLOW_MAESTRO_VERSION chose the version, reads the workspace's flows
// with it (precedence: flag > env > config > default).
func (l *Loader) configVersion(d *decoder, n *yaml.Node, cfg *WorkspaceConfig) error {
	s, err := d.str(n, "maestroVersion")
	if err != nil {
		return err
	}
	v, perr := canonical.ParseMaestroVersion(s, "maestroVersion")
	if perr != nil {
		return perr.At(d.pos(resolve(n)))
	}
	cfg.MaestroVersion = v
	if !l.versionFixed {
		l.setVersion(v)
	}
	return nil
}
