package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/maestro"
)

// reportFormatOf infers a report format from an --output file name, so
// --output report.json alone writes JSON instead of nothing.
func reportFormatOf(output string) (string, error) {
	switch strings.ToLower(filepath.Ext(output)) {
	case ".xml":
		return "junit", nil
	case ".json":
		return "json", nil
	case ".html", ".htm":
		return "html", nil
	}
	return "", canonical.Errorf(canonical.CodeInvalidArgs, "--output %s: cannot tell the report format from the file name", output).
		With("flag", "--output").With("path", output).
		WithHint("add --format junit, --format json or --format html, or name the file .xml, .json or .html")
}

// outputPath is one path flow test writes: a report, an event log or a
// recording (a file), or the artifacts folder.
type outputPath struct {
	flag string
	path string
	dir  bool
}

// checkOutputs refuses, before any device is touched, output paths that
// would overwrite a file the run reads (a flow, a subflow, a script, a
// media file, the workspace config, an app model), that name a folder
// where a file goes or a file where a folder goes, or that two outputs
// share. A run that would destroy its own inputs, or lose its report after
// an hour of testing, is refused while nothing has happened yet.
func checkOutputs(o testOptions, plan *maestro.ExecutionPlan) error {
	var outs []outputPath
	all := make([]outputPath, 0, len(o.reports)+4)
	for _, r := range o.reports {
		all = append(all, outputPath{"--output", r.path, false})
	}
	all = append(all, outputPath{"--events", o.events, false}, outputPath{"--record", o.record, false},
		outputPath{"--artifacts", o.artifacts, true}, outputPath{"--debug-output", o.debugOutput, true})
	for _, p := range all {
		if p.path != "" {
			outs = append(outs, p)
		}
	}
	if len(outs) == 0 {
		return nil
	}
	inputs := inputFiles(o, plan)
	for i, out := range outs {
		if err := checkOutputKind(out); err != nil {
			return err
		}
		if info, err := os.Stat(out.path); err == nil {
			for _, in := range inputs {
				if os.SameFile(info, in.info) {
					msg := fmt.Sprintf("%s %s would overwrite %s this run reads", out.flag, out.path, in.what)
					if filepath.Clean(filepath.FromSlash(in.path)) != filepath.Clean(out.path) {
						msg += " (" + in.path + ")"
					}
					return outputError(out, "%s", msg).With("input", in.path).WithHint(outputHint(out))
				}
			}
		}
		for _, prev := range outs[:i] {
			switch {
			case samePath(out.path, prev.path) && !isCharDevice(out.path) && !(out.dir && prev.dir):
				// Two folders may be one: --artifacts and --debug-output
				// write files of different names.
				return outputError(out, "%s and %s both name %s", prev.flag, out.flag, out.path).
					WithHint("give each output its own file: each would overwrite the other")
			case !prev.dir && isUnder(out.path, prev.path):
				return outputError(out, "%s %s is inside %s, which %s writes as a file", out.flag, out.path, prev.path, prev.flag).
					WithHint(outputHint(out))
			case !out.dir && isUnder(prev.path, out.path):
				return outputError(out, "%s %s would be a file, but %s %s is inside it", out.flag, out.path, prev.flag, prev.path).
					WithHint(outputHint(out))
			}
		}
	}
	return nil
}

// checkCommandOutputs is checkOutputs for a device command's --record and
// --events, which append: each must be a file (or not exist yet), and not
// the same one.
func checkCommandOutputs(record, events string) error {
	var prev *outputPath
	for _, p := range []outputPath{{"--record", record, false}, {"--events", events, false}} {
		if p.path == "" {
			continue
		}
		if err := checkOutputKind(p); err != nil {
			return err
		}
		if prev != nil && samePath(p.path, prev.path) && !isCharDevice(p.path) {
			return outputError(p, "%s and %s both name %s", prev.flag, p.flag, p.path).
				WithHint("record the script and the event log to files of their own")
		}
		prev = &p
	}
	return nil
}

func outputError(out outputPath, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).With("flag", out.flag).With("path", out.path)
}

func outputHint(out outputPath) string {
	switch out.flag {
	case "--artifacts":
		return "name a folder of its own for --artifacts, e.g. --artifacts artifacts/"
	case "--events":
		return "write the event log to a file of its own, e.g. --events events.jsonl"
	case "--record":
		return "record to a new .ad file, e.g. --record recorded.ad"
	case "--debug-output":
		return "name a folder of its own for --debug-output, e.g. --debug-output debug/"
	}
	return "write the report to a file of its own, e.g. --output report.xml"
}

// checkOutputKind refuses a folder where a file is written and a file
// where a folder is, including a file on the way to the path (the
// folders that would have to be created).
func checkOutputKind(out outputPath) error {
	if info, err := os.Stat(out.path); err == nil {
		switch {
		case out.dir && !info.IsDir():
			return outputError(out, "%s %s is a file, not a folder", out.flag, out.path).WithHint(outputHint(out))
		case !out.dir && info.IsDir():
			return outputError(out, "%s %s is a folder, not a file", out.flag, out.path).WithHint(outputHint(out))
		case !out.dir && !info.Mode().IsRegular() && !fsext.IsCharDevice(info.Mode()):
			// A FIFO would block the run with no reader, and a rename
			// would replace a socket; /dev/null and terminals are
			// written in place, as asked.
			return outputError(out, "%s %s is not a regular file", out.flag, out.path).WithHint(outputHint(out))
		}
		return nil
	}
	for dir := filepath.Dir(filepath.Clean(out.path)); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err == nil {
			if !info.IsDir() {
				return outputError(out, "%s %s cannot be created: %s is a file, not a folder", out.flag, out.path, dir).
					WithHint(outputHint(out))
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil // unreadable: the write reports it with its cause
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil
		}
	}
}

// inputFile is an existing file the run reads, and what it is to the run.
type inputFile struct {
	path, what string
	info       fs.FileInfo
}

// inputFiles are the files the run reads: every selected flow (and the
// ones that failed to load), their subflows, scripts and media, the
// workspace config, app models and capabilities.
func inputFiles(o testOptions, plan *maestro.ExecutionPlan) []inputFile {
	var out []inputFile
	add := func(what string, paths ...string) {
		for _, p := range paths {
			if p == "" {
				continue
			}
			if info, err := os.Stat(filepath.FromSlash(p)); err == nil && !info.IsDir() {
				out = append(out, inputFile{path: p, what: what, info: info})
			}
		}
	}
	seen := map[*canonical.Flow]bool{}
	var flow func(f *canonical.Flow, what string)
	flow = func(f *canonical.Flow, what string) {
		if f == nil || seen[f] {
			return
		}
		seen[f] = true
		add(what, f.File)
		f.AllCommands(func(c canonical.Command) {
			switch t := c.(type) {
			case *canonical.RunFlow:
				flow(t.Flow, "a subflow")
			case *canonical.Retry:
				flow(t.Flow, "a subflow")
			case *canonical.RunScript:
				add("a script", t.Path)
			case *canonical.AddMedia:
				add("a media file", t.Files...)
			}
		})
	}
	for _, f := range plan.All() {
		flow(f, "a flow")
	}
	for _, b := range plan.Broken {
		add("a flow", b.File)
	}
	add("the workspace config", o.plan.ConfigFile)
	add("the capabilities file", o.capabilities)
	add("an app model", o.apps...)
	for _, p := range o.paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			add("the workspace config", filepath.Join(p, "config.yaml"), filepath.Join(p, "config.yml"))
		} else {
			add("a flow", p)
		}
	}
	return out
}

// isCharDevice reports whether path is a character device: outputs to
// /dev/null may share it, since nothing written there is kept.
func isCharDevice(path string) bool {
	info, err := os.Stat(path)
	return err == nil && fsext.IsCharDevice(info.Mode())
}

// samePath reports whether two paths name the same file: the same file
// on disk (symbolic and hard links included) or, for paths that do not
// exist yet, the same resolved absolute path.
func samePath(a, b string) bool {
	ai, aerr := os.Stat(a)
	bi, berr := os.Stat(b)
	if aerr == nil && berr == nil {
		return os.SameFile(ai, bi)
	}
	return equalPaths(resolvePath(a), resolvePath(b))
}

// isUnder reports whether path lies inside dir (at any depth).
func isUnder(path, dir string) bool {
	p, d := resolvePath(path), resolvePath(dir)
	for {
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		if equalPaths(parent, d) {
			return true
		}
		p = parent
	}
}

// resolvePath is a path made absolute and clean, with the symbolic links
// of its longest existing prefix resolved.
func resolvePath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := abs; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// equalPaths compares resolved paths, ignoring case where the usual file
// systems do (macOS, Windows).
func equalPaths(a, b string) bool {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
