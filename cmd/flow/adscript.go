package main

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
	"github.com/flow-runner/flow/exec"
)

func isAdScript(p string) bool { return strings.EqualFold(filepath.Ext(p), ".ad") }

// loadAdScript parses an .ad script and turns it into a flow of canonical
// commands. Removed forms, unknown commands and unsupported ones fail here,
// before any device action; ${VAR}s resolve now, after the arity check,
// from the script's env, AD_VAR_* shell variables and -e (agent-device's
// precedence), each token staying one argument.
func loadAdScript(file string, cliVars []exec.Var, environ []string, platform string) (*canonical.Flow, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "cannot read %s: %v", file, err).
			At(canonical.Pos{File: file}).WithHint("check the path")
	}
	flow, _, err := loadAdSource(file, src, cliVars, environ, platform)
	if err == nil && len(flow.Commands) == 0 {
		return nil, canonical.NewError(canonical.CodeInvalidArgs, "the script has no action to run").
			At(canonical.Pos{File: flow.File, Line: 1}).WithHint("add a line such as: open com.example.shop")
	}
	return flow, err
}

// loadAdSource is loadAdScript for a script in memory; it also returns the
// parsed script (the CLI records its action lines).
func loadAdSource(file string, src []byte, cliVars []exec.Var, environ []string, platform string) (*canonical.Flow, *compat.Script, error) {
	script, err := compat.ParseScript(filepath.ToSlash(file), src, compat.ParseOptions{NFC: norm.NFC.String})
	if err != nil {
		return nil, nil, err
	}
	if err := compat.CheckSupported(script); err != nil {
		return nil, nil, err
	}
	cli := map[string]string{}
	for _, v := range cliVars {
		cli[v.Name] = v.Value
	}
	scope, err := compat.NewScope(compat.VarSources{
		Builtins: compat.Builtins{Filename: filepath.ToSlash(file), Platform: platform, Device: "sim"}.Vars(),
		File:     script.ScriptVars(), Shell: compat.ShellVars(environ), CLI: cli,
	})
	if err != nil {
		return nil, nil, err
	}
	flow := &canonical.Flow{File: filepath.ToSlash(file), Name: strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)),
		Pos: canonical.Pos{File: filepath.ToSlash(file), Line: 1}}
	var conv compat.Converter
	for _, a := range script.Actions {
		resolved, err := compat.Resolve(a, scope)
		if err != nil {
			return nil, nil, err
		}
		steps, err := conv.Steps(resolved)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range steps {
			for _, d := range s.Dropped {
				flow.Warnings = append(flow.Warnings, canonical.Errorf(canonical.CodeUnsupportedOperation,
					"selector alternative %s is ignored: flow cannot match it; the others are tried", d).At(a.Pos).
					WithHint("flow matches id=, text=, label=, value= and enabled/selected/focused"))
			}
			c, err := compat.StepCommand(s, a)
			if err != nil {
				return nil, nil, err
			}
			if c != nil {
				flow.Commands = append(flow.Commands, c)
			}
		}
	}
	return flow, script, nil
}
