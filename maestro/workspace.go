package maestro

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

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
	data, err := l.src.ReadFile(file)
	if err != nil {
		return cfg, canonical.Errorf(canonical.CodeInvalidArgs, "cannot read workspace config %s: %s", file, errText(err)).
			At(canonical.Pos{File: file}).WithHint("check the --config path")
	}
	d := &decoder{file: file}
	defer func() { l.warnings = append(l.warnings, d.warnings...) }()
	docs, err := documents(data)
	if err != nil {
		return cfg, canonical.Errorf(canonical.CodeInvalidArgs, "invalid YAML: %s", yamlErrorText(err)).
			At(canonical.Pos{File: file, Line: yamlErrorLine(err)}).WithHint("fix the YAML syntax near this line")
	}
	if len(docs) == 0 {
		return cfg, nil
	}
	n := docs[0]
	if n.Kind != yaml.MappingNode {
		return cfg, d.errorf(n, "workspace config must be a mapping, got %s", kindName(n)).
			WithHint("flows: [\"**\"]\nincludeTags: [smoke]")
	}
	ps, err := d.pairs(n)
	if err != nil {
		return cfg, err
	}
	known := []string{"flows", "includeTags", "excludeTags", "executionOrder", "local"}
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
}

// BrokenFlow is a selected flow file that could not be loaded.
type BrokenFlow struct {
	File     string
	Problems []*canonical.Error
}

// ExecutionPlan is what flow test runs: the ordered sequence of
// executionOrder.flowsOrder first, then every other selected flow.
type ExecutionPlan struct {
	Config            WorkspaceConfig
	Sequence          []*canonical.Flow
	Flows             []*canonical.Flow
	ContinueOnFailure bool
	Broken            []BrokenFlow
}

// All is every flow of the plan in run order.
func (p *ExecutionPlan) All() []*canonical.Flow {
	return append(append([]*canonical.Flow{}, p.Sequence...), p.Flows...)
}

func planError(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...)
}

// Plan selects and orders the flows of the given files and folders the way
// Maestro's workspace planner does: a single file runs alone; otherwise the
// config's globs pick top-level flows from each folder, explicit files are
// always kept, tags filter, and flowsOrder runs first. Every selected flow
// is loaded in full; any problem fails the plan with all problems listed.
// Folders are walked in sorted order, so runs are reproducible (Maestro
// uses unsorted file-system order).
func (l *Loader) Plan(inputs []string, opts PlanOptions) (*ExecutionPlan, error) {
	for _, in := range inputs {
		if _, err := l.src.Stat(in); err != nil {
			return nil, planError("flow path %s does not exist", in).WithHint("give flow files or folders that exist")
		}
	}
	if len(inputs) == 1 {
		if info, _ := l.src.Stat(inputs[0]); !info.IsDir() {
			file := path.Clean(inputs[0])
			f, err := l.Load(file)
			var le *LoadError
			if err != nil && opts.KeepGoing && errors.As(err, &le) {
				return &ExecutionPlan{Config: defaultConfig(), ContinueOnFailure: true,
					Broken: []BrokenFlow{{File: file, Problems: le.Problems}}}, nil
			}
			if err != nil {
				return nil, err
			}
			return &ExecutionPlan{Config: defaultConfig(), Flows: []*canonical.Flow{f}, ContinueOnFailure: true}, nil
		}
	}
	cfg, err := l.workspaceConfig(inputs, opts.ConfigFile)
	if err != nil {
		return nil, err
	}
	candidates, err := l.candidates(inputs, cfg)
	if err != nil {
		return nil, err
	}
	var loaded []*canonical.Flow
	var problems []*canonical.Error
	var broken []BrokenFlow
	for _, file := range candidates {
		f, err := l.Load(file)
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
	if problems := l.mediaOutsideWorkspace(inputs, loaded); len(problems) > 0 {
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
	if len(selected) == 0 && len(broken) == 0 {
		return nil, planError("no flows left after the tag filter (include: %s; exclude: %s)",
			listOrNone(include), listOrNone(exclude)).WithHint("check --include-tags/--exclude-tags and the tags: of your flows")
	}
	plan := &ExecutionPlan{Config: cfg, ContinueOnFailure: cfg.ContinueOnFailure, Broken: broken}
	if plan.Sequence, plan.Flows, err = order(selected, cfg); err != nil {
		return nil, err
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

// candidates are explicit flow files (in the order given) and, per folder,
// the flow files its globs match (sorted).
func (l *Loader) candidates(inputs []string, cfg WorkspaceConfig) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	foundAny := false
	var globs []*regexp.Regexp
	for _, g := range cfg.Flows {
		globs = append(globs, globRegexp(g))
	}
	for _, in := range inputs {
		in = path.Clean(in)
		info, _ := l.src.Stat(in)
		if !info.IsDir() {
			if isFlowName(path.Base(in)) {
				add(in)
				foundAny = true
			}
			continue
		}
		files, err := walkFlows(l.src, in)
		if err != nil {
			return nil, err
		}
		foundAny = foundAny || len(files) > 0
		for _, f := range files {
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
		return nil, planError("the folders given hold no flow files").WithHint("flow files end in .yaml or .yml")
	}
	if len(out) == 0 {
		if len(cfg.Flows) == 1 && cfg.Flows[0] == "*" {
			return nil, planError("the top-level folders hold no flows (flows in subfolders are not run by default)").
				WithHint("move flows to the top level, or set flows: [\"**\"] in config.yaml")
		}
		return nil, planError("flow inclusion patterns matched no flow files: %s", strings.Join(cfg.Flows, ", ")).
			WithHint("patterns are relative to the workspace folder; * stays in one folder, ** crosses folders")
	}
	return out, nil
}

// walkFlows lists the flow files under dir, recursively, sorted.
func walkFlows(src Source, dir string) ([]string, error) {
	var out []string
	var walk func(string) error
	walk = func(d string) error {
		entries, err := src.ReadDir(d)
		if err != nil {
			return planError("cannot read folder %s: %s", d, errText(err))
		}
		for _, e := range entries {
			full := path.Join(d, e.Name())
			if e.IsDir() {
				if !strings.HasPrefix(e.Name(), ".") {
					if err := walk(full); err != nil {
						return err
					}
				}
				continue
			}
			if e.Type()&fs.ModeType == 0 && isFlowName(e.Name()) {
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

// isFlowName: .yaml/.yml files except workspace config files.
func isFlowName(name string) bool {
	lower := strings.ToLower(name)
	ext := path.Ext(lower)
	return (ext == ".yaml" || ext == ".yml") && strings.TrimSuffix(lower, ext) != "config"
}

// FlowFiles lists the flow files under dir, recursively and sorted, as
// flow check uses them.
func FlowFiles(src Source, dir string) ([]string, error) { return walkFlows(src, dir) }

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

// mediaOutsideWorkspace is Maestro's workspace rule for addMedia: a media
// file a top-level command adds must exist inside the workspace folders
// (matched by file name), because a cloud run uploads only the workspace.
func (l *Loader) mediaOutsideWorkspace(inputs []string, flows []*canonical.Flow) []*canonical.Error {
	names := map[string]bool{}
	dirs := 0
	for _, in := range inputs {
		if info, err := l.src.Stat(in); err != nil || !info.IsDir() {
			continue
		}
		dirs++
		l.allFileNames(path.Clean(in), names)
	}
	if dirs == 0 {
		return nil
	}
	var out []*canonical.Error
	for _, f := range flows {
		for _, c := range f.Commands {
			am, ok := c.(*canonical.AddMedia)
			if !ok {
				continue
			}
			for _, file := range am.Files {
				if !names[path.Base(file)] {
					out = append(out, canonical.Errorf(canonical.CodeInvalidArgs,
						"addMedia file %q is not inside the workspace", path.Base(file)).At(am.Pos).
						WithHint("move the file into the workspace folder: Maestro runs only what the workspace holds"))
				}
			}
		}
	}
	return out
}

func (l *Loader) allFileNames(dir string, into map[string]bool) {
	entries, err := l.src.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			l.allFileNames(path.Join(dir, e.Name()), into)
			continue
		}
		into[e.Name()] = true
	}
}
