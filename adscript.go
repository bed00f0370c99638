package flow

import (
	"bytes"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// IsAdScript reports whether a path names an .ad script (by extension).
func IsAdScript(p string) bool { return strings.EqualFold(filepath.Ext(p), ".ad") }

// LoadAdScript parses an .ad script and turns it into a flow of canonical
// commands. Removed forms, unknown commands and unsupported ones fail here,
// before any device action; ${VAR}s resolve now, after the arity check,
// from the script's env, AD_VAR_* shell variables and -e (agent-device's
// precedence), each token staying one argument.
func LoadAdScript(file string, cliVars []exec.Var, environ []string, platform string) (*canonical.Flow, error) {
	flow, _, err := LoadAdFile(file, cliVars, environ, platform)
	return flow, err
}

// LoadAdFile is LoadAdScript that also returns the script's text when it
// parsed as an .ad script: the only .ad text an error may quote.
func LoadAdFile(file string, cliVars []exec.Var, environ []string, platform string) (*canonical.Flow, []byte, error) {
	src, err := OSSource{}.ReadFile(filepath.ToSlash(file))
	if err != nil {
		ce := canonical.Coded(err).At(canonical.Pos{File: filepath.ToSlash(file)})
		if ce.Hint == "" {
			ce.Hint = "check the path; .ad scripts are read as text files"
		}
		return nil, nil, ce
	}
	flow, script, err := LoadAdSource(file, src, cliVars, environ, platform)
	if script == nil && !adPrefixParses(file, src, err) {
		src = nil
	}
	if err == nil && len(flow.Commands) == 0 {
		return nil, src, canonical.NewError(canonical.CodeInvalidArgs, "the script has no action to run").
			At(canonical.Pos{File: flow.File, Line: 1}).WithHint("add a line such as: open com.example.shop")
	}
	return flow, src, err
}

// LoadAdSource is LoadAdScript for a script in memory; it also returns the
// parsed script (the CLI records its action lines), also when a later step
// fails: a script that parsed is one whose lines an error may quote.
func LoadAdSource(file string, src []byte, cliVars []exec.Var, environ []string, platform string) (*canonical.Flow, *ad.Script, error) {
	script, err := ad.ParseScript(filepath.ToSlash(file), src, ad.ParseOptions{NFC: norm.NFC.String})
	if err != nil {
		return nil, nil, err
	}
	if err := ad.CheckSupported(script); err != nil {
		return nil, script, err
	}
	cli := map[string]string{}
	for _, v := range cliVars {
		cli[v.Name] = v.Value
	}
	scope, err := ad.NewScope(ad.VarSources{
		Builtins: ad.Builtins{Filename: filepath.ToSlash(file), Platform: platform, Device: "sim"}.Vars(),
		File:     script.ScriptVars(), Shell: ad.ShellVars(environ), CLI: cli,
	})
	if err != nil {
		return nil, script, err
	}
	flow := &canonical.Flow{File: filepath.ToSlash(file), Name: strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)),
		Pos: canonical.Pos{File: filepath.ToSlash(file), Line: 1}}
	var conv ad.Converter
	for _, a := range script.Actions {
		resolved, err := ad.Resolve(a, scope)
		if err != nil {
			return nil, script, err
		}
		steps, err := conv.Steps(resolved)
		if err != nil {
			return nil, script, err
		}
		for _, s := range steps {
			for _, d := range s.Dropped {
				flow.Warnings = append(flow.Warnings, canonical.Errorf(canonical.CodeUnsupportedOperation,
					"selector alternative %s is ignored: flow cannot match it; the others are tried", d).At(a.Pos).
					WithHint("flow matches id=, text=, label=, value= and enabled/selected/focused"))
			}
			c, err := ad.StepCommand(s, a)
			if err != nil {
				return nil, script, err
			}
			if c != nil {
				flow.Commands = append(flow.Commands, c)
			}
		}
	}
	return flow, script, nil
}

// adPrefixParses reports whether the lines before the one err is about
// parse as an .ad script with at least one line in it: then the file is an
// .ad script with a mistake, and the error may quote it. A file whose
// first line already is not .ad (a path that names some other file) is
// never quoted.
func adPrefixParses(file string, src []byte, err error) bool {
	ce, ok := canonical.AsError(err)
	if !ok || ce.Pos.Line <= 1 {
		return false
	}
	end := 0
	for range ce.Pos.Line - 1 {
		i := bytes.IndexByte(src[end:], '\n')
		if i < 0 {
			return false
		}
		end += i + 1
	}
	s, perr := ad.ParseScript(filepath.ToSlash(file), src[:end], ad.ParseOptions{NFC: norm.NFC.String})
	return perr == nil && (len(s.Actions) > 0 || len(s.Env) > 0 || len(s.Context.Fields) > 0)
}
