package maestro

import (
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// resolvePath resolves a path written in a flow against the flow's folder,
// as Maestro resolves runFlow, runScript and addMedia (§3.7).
func resolvePath(fc *fileCtx, p string) string {
	if path.IsAbs(p) || (len(p) > 1 && p[1] == ':') {
		return path.Clean(p)
	}
	return path.Join(fc.dir, p)
}

// requireFile resolves a referenced file and checks it exists and is a
// regular file of at most limit bytes, so nothing reads /dev/zero, a FIFO
// or a huge file by mistake (a symlink to a regular file is fine).
func (l *Loader) requireFile(d *decoder, fc *fileCtx, n *yaml.Node, p, what string, limit int64) (string, error) {
	full := resolvePath(fc, p)
	info, err := l.src.Stat(full)
	if err != nil {
		return "", d.errorf(n, "%s %q does not exist (looked for %s)", what, p, full).
			WithHint("paths are relative to the folder of the flow that names them")
	}
	if info.IsDir() {
		return "", d.errorf(n, "%s %q is a folder, not a file", what, p).WithHint("name a file inside it")
	}
	if e := CheckFileInfo(strconv.Quote(p), what, info, limit); e != nil {
		return "", e.At(d.pos(resolve(n)))
	}
	return full, nil
}

// subflow loads a referenced flow file, recording its problems in that file.
func (c *cmd) subflow(n *yaml.Node) (string, *canonical.Flow, error) {
	name, err := c.d.str(n, "file")
	if err != nil {
		return "", nil, err
	}
	full, err := c.l.requireFile(c.d, c.f, n, name, c.name+" file", MaxFileSize)
	if err != nil {
		return "", nil, err
	}
	if full == c.f.path {
		return "", nil, c.d.errorf(n, "%s runs the flow it is in", c.name).
			WithHint("a flow cannot run itself; use repeat to run commands again")
	}
	f := c.l.load(full, c.d, c.d.pos(resolve(n)))
	if f == nil {
		// The subflow's own problems were recorded at their positions; this
		// marks the caller so the failure is traceable from here too.
		return "", nil, c.d.errorf(n, "%s file %q has errors (reported at its own lines)", c.name, name).
			WithHint("fix the errors reported in " + full)
	}
	return name, f, nil
}

func (c *cmd) inlineCommands(n *yaml.Node) ([]canonical.Command, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, c.d.errorf(n, "%s commands must be a list of commands, got %s", c.name, kindName(n)).
			WithHint(c.name + ":\n    commands:\n      - tapOn: \"Next\"")
	}
	if len(n.Content) == 0 {
		return nil, c.d.errorf(n, "%s commands is empty", c.name).WithHint("give at least one command")
	}
	before := len(c.l.problems)
	cmds := c.l.commands(c.d, c.f, n)
	if len(c.l.problems) > before {
		// Problems inside are already recorded at their own positions.
		return nil, alreadyReported{}
	}
	return cmds, nil
}

// alreadyReported marks a failure whose problems are already recorded at
// their own positions, so the caller records nothing more.
type alreadyReported struct{}

func (alreadyReported) Error() string { return "problems reported at their own positions" }

func decodeRunFlow(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"file", "commands", "when", "env"})
	if err != nil {
		return nil, err
	}
	rf := &canonical.RunFlow{Meta: c.meta}
	if scalar != nil {
		if rf.File, rf.Flow, err = c.subflow(scalar); err != nil {
			return nil, err
		}
		return rf, nil
	}
	fileP, hasFile := fs["file"]
	cmdsP, hasCmds := fs["commands"]
	switch {
	case hasFile && hasCmds:
		return nil, c.d.errorf(cmdsP.keyN, "runFlow takes file or commands, not both").
			WithHint("move the inline commands into the file, or drop file")
	case !hasFile && !hasCmds:
		return nil, c.d.errorf(c.keyN, "runFlow needs file or commands").
			WithHint("runFlow: login.yaml, or runFlow: {commands: [...]}")
	}
	if p, ok := fs["env"]; ok {
		if rf.Env, err = c.d.env(p.value); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["when"]; ok {
		if rf.When, err = c.d.condition(p.value, "when"); err != nil {
			return nil, err
		}
	}
	if hasFile {
		if rf.File, rf.Flow, err = c.subflow(fileP.value); err != nil {
			return nil, err
		}
		return rf, nil
	}
	if rf.Commands, err = c.inlineCommands(cmdsP.value); err != nil {
		return nil, err
	}
	return rf, nil
}

func decodeRepeat(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"times", "while", "commands"})
	if err != nil {
		return nil, err
	}
	r := &canonical.Repeat{Meta: c.meta}
	p, ok := fs["commands"]
	if !ok {
		return nil, c.d.errorf(c.keyN, "repeat needs commands").
			WithHint("repeat:\n    times: 3\n    commands:\n      - tapOn: \"Next\"")
	}
	if p, ok := fs["times"]; ok {
		if r.Times, err = c.d.templatePtr(p.value, "times"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["while"]; ok {
		if r.While, err = c.d.condition(p.value, "while"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["times"]; ok {
		warnRepeatCount(c.d, p.value, r)
	}
	if r.Times == nil && r.While == nil {
		c.d.warnf(c.keyN, "add times: N or while: {...}", "repeat without times or while runs until the flow is stopped (Maestro does the same)")
	}
	if r.Commands, err = c.inlineCommands(p.value); err != nil {
		return nil, err
	}
	return r, nil
}

// warnRepeatCount warns about a literal times that Maestro reads as a loop
// that never runs or, in practice, never ends (canonical.RepeatCount).
func warnRepeatCount(d *decoder, n *yaml.Node, r *canonical.Repeat) {
	v, literal := r.Times.Literal()
	if !literal {
		return
	}
	if msg, hint, ok := canonical.RepeatCountWarning(v, r.While != nil); ok {
		d.warnf(n, hint, "%s", msg)
	}
}

// warnRetryCount warns about a literal maxRetries Maestro reads otherwise
// than it looks: toIntOrNull() ?: 1, at most 3, nothing run when negative.
func warnRetryCount(d *decoder, n *yaml.Node, t canonical.Template) {
	v, literal := t.Literal()
	if !literal {
		return
	}
	retries, ok := canonical.ParseKotlinInt(v)
	switch {
	case !ok:
		d.warnf(n, "write a whole number from 0 to 3, such as maxRetries: 2",
			"maxRetries %q is not a whole number to Maestro, which then retries once", v)
	case retries < 0:
		d.warnf(n, "write maxRetries: 0 to run the commands once without retrying",
			"maxRetries %q is negative: Maestro then never runs the commands", v)
	case retries > canonical.MaxRetries:
		d.warnf(n, "write maxRetries: 3", "maxRetries %q is more than Maestro's limit: it retries at most 3 times", v)
	}
}

func decodeRetry(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"maxRetries", "file", "commands", "env"})
	if err != nil {
		return nil, err
	}
	r := &canonical.Retry{Meta: c.meta, MaxRetries: canonical.Text("1", c.d.pos(c.keyN))}
	if p, ok := fs["maxRetries"]; ok {
		if r.MaxRetries, err = c.d.template(p.value, "maxRetries"); err != nil {
			return nil, err
		}
		warnRetryCount(c.d, p.value, r.MaxRetries)
	}
	if p, ok := fs["env"]; ok {
		if r.Env, err = c.d.env(p.value); err != nil {
			return nil, err
		}
	}
	fileP, hasFile := fs["file"]
	cmdsP, hasCmds := fs["commands"]
	switch {
	case hasFile && hasCmds:
		return nil, c.d.errorf(cmdsP.keyN, "retry takes file or commands, not both").WithHint("keep one of them")
	case hasFile:
		r.File, r.Flow, err = c.subflow(fileP.value)
	case hasCmds:
		r.Commands, err = c.inlineCommands(cmdsP.value)
	default:
		return nil, c.d.errorf(c.keyN, "retry needs file or commands").
			WithHint("retry:\n    maxRetries: 2\n    commands:\n      - tapOn: \"Sync\"")
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

func decodeRunScript(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"file", "env", "when"})
	if err != nil {
		return nil, err
	}
	rs := &canonical.RunScript{Meta: c.meta}
	fileN := scalar
	if scalar == nil {
		p, ok := fs["file"]
		if !ok {
			return nil, c.d.errorf(c.keyN, "runScript needs file").WithHint("runScript: scripts/setup.js")
		}
		fileN = p.value
		if p, ok := fs["env"]; ok {
			if rs.Env, err = c.d.env(p.value); err != nil {
				return nil, err
			}
		}
		if p, ok := fs["when"]; ok {
			if rs.When, err = c.d.condition(p.value, "when"); err != nil {
				return nil, err
			}
		}
	}
	if rs.File, err = c.d.str(fileN, "file"); err != nil {
		return nil, err
	}
	if rs.Path, err = c.l.requireFile(c.d, c.f, fileN, rs.File, "runScript file", MaxFileSize); err != nil {
		return nil, err
	}
	// A script many flows run (a suite's setup.js) is read once per
	// load; requireFile above still checks it for every reference.
	text, ok := c.l.scripts[rs.Path]
	if !ok {
		src, rerr := c.l.readSource(rs.Path, "runScript file", c.d.pos(resolve(fileN)))
		if rerr != nil {
			if rerr.Hint == "" {
				rerr.Hint = "paths are relative to the folder of the flow that names them"
			}
			return nil, rerr
		}
		text = string(src)
		c.l.scripts[rs.Path] = text
	}
	if !strings.HasSuffix(strings.ToLower(rs.File), ".js") {
		c.d.warnf(fileN, "name JavaScript files *.js", "runScript file %q does not end in .js", rs.File)
	}
	rs.Source = text
	return rs, nil
}
