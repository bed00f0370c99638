package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/convert"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
)

// stepRecorder is the observer behind flow test --record: every top-level
// step that passed and has an exact .ad form is appended to the script as
// it finishes, with the values it ran with, so a run stopped halfway
// (even killed) leaves the steps that did run. A step without one becomes a comment line
// that names it and says why, so the recording reads as the run did and
// never holds an approximation. Nested steps (runFlow, repeat, retry,
// conditions) have no .ad form; their parent step is reported instead.
type stepRecorder struct {
	exec.Observer
	file   string
	device string
	cli    map[string]string
	opts   fsext.WriteOptions

	mu      sync.Mutex
	pending []canonical.Command // top-level command per nesting level
	// resolved holds what the pending command's templates evaluated to.
	resolved map[canonical.Template]string
	err      error
	// left counts passed steps written as "# not recorded" comments.
	left int
}

func newStepRecorder(next exec.Observer, file, device string, vars []exec.Var, opts fsext.WriteOptions) *stepRecorder {
	cli := map[string]string{}
	for _, v := range vars {
		cli[v.Name] = v.Value
	}
	return &stepRecorder{Observer: next, file: file, device: device, cli: cli, opts: opts}
}

func (r *stepRecorder) StepStarted(f *canonical.Flow, c canonical.Command, desc string, depth int) {
	r.mu.Lock()
	if depth == 0 {
		r.pending = append(r.pending[:0], c)
		clear(r.resolved)
	}
	r.mu.Unlock()
	r.Observer.StepStarted(f, c, desc, depth)
}

func (r *stepRecorder) StepFinished(f *canonical.Flow, step exec.StepResult, desc string) {
	r.Observer.StepFinished(f, step, desc)
	if step.Depth != 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 || r.err != nil {
		return
	}
	c := r.pending[0]
	r.pending = r.pending[:0]
	if step.Status != exec.StatusPassed {
		return // failed steps are not replayed; skipped and warned ones did nothing
	}
	if len(r.resolved) > 0 {
		c = canonical.MapTemplates(c, func(t canonical.Template) canonical.Template {
			if v, ok := r.resolved[t]; ok {
				return ad.LiteralTemplate(v, t.Pos)
			}
			return t
		})
	}
	lines := recordLines(f, c, step.Command, r.cli)
	if len(lines) == 1 && strings.HasPrefix(lines[0], notRecorded) {
		r.left++
	}
	r.err = r.append(lines)
}

// TemplateResolved keeps the values the running top-level step evaluated,
// so the recording holds what the step did ("${user}" as the text typed,
// "${1+2}" as 3) even where .ad has no way to say how it was computed.
// Templates of nested steps land here too but match no template of the
// top-level command.
func (r *stepRecorder) TemplateResolved(f *canonical.Flow, t canonical.Template, value string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return
	}
	if r.resolved == nil {
		r.resolved = map[canonical.Template]string{}
	}
	r.resolved[t] = value
}

// notRecorded starts the comment that stands for a step with no .ad form.
const notRecorded = "# not recorded: "

// summary warns, after the run, about the passed steps a replay of the
// recording will not perform.
func (r *stepRecorder) summary(w io.Writer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.left == 1:
		fmt.Fprintf(w, "warning: 1 passed step has no exact .ad form and was not recorded (see the # not recorded line in %s)\n", oneLine(r.file))
	case r.left > 1:
		fmt.Fprintf(w, "warning: %d passed steps have no exact .ad form and were not recorded (see the # not recorded lines in %s)\n", r.left, oneLine(r.file))
	}
}

// LoopRunning and RunsOmitted pass a long loop's progress on: only steps
// of a loop's body are left out or replayed, and none has an .ad form.
func (r *stepRecorder) LoopRunning(f *canonical.Flow, depth, run int) {
	if o, ok := r.Observer.(exec.LoopObserver); ok {
		o.LoopRunning(f, depth, run)
	}
}

// RunsOmitted: see LoopRunning.
func (r *stepRecorder) RunsOmitted(f *canonical.Flow, depth int, omitted exec.OmittedRuns) {
	if o, ok := r.Observer.(exec.LoopObserver); ok {
		o.RunsOmitted(f, depth, omitted)
	}
}

// recordLines are the .ad lines of one executed command: its exact .ad
// form with the values it ran with substituted, or a comment.
func recordLines(f *canonical.Flow, c canonical.Command, name string, cli map[string]string) []string {
	where := fmt.Sprintf("%s:%d:%d", f.File, c.Base().Pos.Line, c.Base().Pos.Col)
	skip := func(why string) []string {
		return []string{notRecorded + where + " " + name + ": " + firstLine(why)}
	}
	env, cli := runEnv(f.Env, cli)
	src, err := convert.ToAd(&canonical.Flow{File: f.File, Env: env, Commands: []canonical.Command{c}})
	if err != nil {
		var ce *convert.ConvertError
		if errors.As(err, &ce) && len(ce.Problems) > 0 {
			return skip(ce.Problems[0].Message)
		}
		return skip(err.Error())
	}
	script, err := ad.ParseScript(f.File, src, ad.ParseOptions{})
	if err != nil {
		return skip(err.Error())
	}
	file := map[string]string{}
	for _, e := range script.Env {
		file[e.Key] = e.Value
	}
	scope, err := ad.NewScope(ad.VarSources{File: file, CLI: cli})
	if err != nil {
		return skip(err.Error())
	}
	var out []string
	for _, a := range script.Actions {
		ra, err := ad.Resolve(a, scope)
		if err != nil {
			return skip(err.Error())
		}
		line, ok := literalLine(f.File, ra)
		if !ok {
			return skip("the .ad line " + line + " does not read back as the values the step ran with")
		}
		out = append(out, line)
	}
	return out
}

// literalLine encodes a resolved action whose values are final text: each
// ${ in them is written \${, which a replay reads back as ${ (a text
// typed as "${HOME}" stays that text instead of becoming a variable). ok
// says the line parses and resolves back to exactly ra's values.
func literalLine(file string, ra ad.Action) (string, bool) {
	esc := func(v string) string { return strings.ReplaceAll(v, "${", `\${`) }
	lit := ra
	lit.Positionals = make([]string, len(ra.Positionals))
	for i, p := range ra.Positionals {
		lit.Positionals[i] = esc(p)
	}
	if ra.Flags != nil {
		lit.Flags = make(map[string]string, len(ra.Flags))
		for k, v := range ra.Flags {
			lit.Flags[k] = esc(v)
		}
	}
	line := ad.EncodeAction(lit)
	back, err := ad.ParseScript(file, []byte(line), ad.ParseOptions{})
	if err != nil || len(back.Actions) != 1 {
		return line, false
	}
	scope, err := ad.NewScope(ad.VarSources{})
	if err != nil {
		return line, false
	}
	got, err := ad.Resolve(back.Actions[0], scope)
	if err != nil || got.Command != ra.Command || !slices.Equal(got.Positionals, ra.Positionals) || !maps.Equal(got.Flags, ra.Flags) {
		return line, false
	}
	return line, true
}

// runEnv is the flow's env as the run saw it, for the recording: -e and
// MAESTRO_* variables the flow does not declare are variables of the run
// all the same (a step typed their value), and a declared plain value
// wins over -e as it does when the flow runs. Only a declared value that
// is an expression (the ${NAME || 'default'} idiom) reads the -e value, so
// only those keep their override.
func runEnv(declared []canonical.EnvVar, cli map[string]string) ([]canonical.EnvVar, map[string]string) {
	raw := map[string]string{}
	for _, e := range declared {
		raw[e.Name] = e.Value.Raw
	}
	env := append([]canonical.EnvVar{}, declared...)
	override := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(cli)) {
		v := cli[k]
		r, ok := raw[k]
		switch {
		case !ok:
			env = append(env, canonical.EnvVar{Name: k, Value: canonical.Text(v, canonical.Pos{})})
		case strings.Contains(r, "${") && v != "":
			override[k] = v // ${NAME || 'default'}: an empty -e value falls back to the default
		}
	}
	return env, override
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// append writes lines to the script.
func (r *stepRecorder) append(lines []string) error {
	return flowapi.AppendScriptLines(r.file, r.device, lines, r.opts)
}
