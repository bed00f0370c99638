package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/convert"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/maestro"
)

func convertCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert a Maestro flow to an .ad script, or an .ad script to a Maestro flow, exactly or not at all",
		ArgsUsage: "FLOW.yaml --to ad | SCRIPT.ad --to maestro",
		Description: `Writes the file in the other format so that loading it gives the same commands.
   A command the other format cannot express exactly is not approximated: every such
   command is reported (file:line:col, why, and the nearest form when there is one),
   nothing is written, and the exit code is 2. Examples:
   flow convert flows/login.yaml --to ad
   flow convert recording.ad --to maestro --app-id com.example.shop --output recording.yaml
   ${VAR}s of an .ad script resolve from its env lines, AD_VAR_* and -e, as in flow test.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "to", Usage: "the format to write: ad or maestro"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to this file instead of stdout"},
			&cli.StringFlag{Name: "app-id", Usage: "appId of the Maestro header (default: the app the script opens)"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Usage: "KEY=VALUE for an .ad script's ${VAR}s (repeatable)"},
			maestroVersionFlag(),
		},
		Action: func(c *cli.Context) error { return runConvert(c, env) },
	}
}

func runConvert(c *cli.Context, env Env) error {
	args := c.Args().Slice()
	if len(args) != 1 {
		return canonical.Errorf(canonical.CodeInvalidArgs, "convert takes one file, got %d", len(args)).
			WithHint("flow convert FLOW.yaml --to ad, or flow convert SCRIPT.ad --to maestro")
	}
	file := filepath.ToSlash(args[0])
	fromAd := flowapi.IsAdScript(file)
	to := strings.ToLower(c.String("to"))
	switch {
	case to == "":
		return canonical.NewError(canonical.CodeInvalidArgs, "say which format to write").
			WithHint("add --to ad (from a Maestro flow) or --to maestro (from an .ad script)")
	case to != convert.FormatAd && to != convert.FormatMaestro:
		return canonical.Errorf(canonical.CodeInvalidArgs, "unknown format %q", c.String("to")).
			WithHint("--to ad or --to maestro")
	case to == convert.FormatAd && fromAd:
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s is an .ad script already", file).
			WithHint("convert it to a Maestro flow with --to maestro")
	case to == convert.FormatMaestro && !fromAd:
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s is a Maestro flow already", file).
			WithHint("convert it to an .ad script with --to ad")
	}
	if out := c.String("output"); out != "" && samePath(out, args[0]) {
		return canonical.NewError(canonical.CodeInvalidArgs, "--output is the file being converted").
			WithHint("write the conversion to another file")
	}

	var flow *canonical.Flow
	var err error
	var sources flowapi.Sources
	if fromAd {
		vars, verr := flowVars(c.StringSlice("env"))
		if verr != nil {
			return verr
		}
		var environ []string
		if env.Environ != nil {
			environ = env.Environ()
		}
		var text []byte
		flow, text, err = flowapi.LoadAdFile(file, vars, environ, "")
		sources.AddScript(file, text)
	} else {
		v, verr := maestroVersion(c, env)
		if verr != nil {
			return verr
		}
		sources.Loader = maestro.NewLoader(flowapi.OSSource{}).WithContext(c.Context).WithMaestroVersion(v)
		flow, err = sources.Loader.Load(file)
	}
	if err != nil {
		var le *maestro.LoadError
		problems := []*canonical.Error{canonical.Coded(err)}
		if errors.As(err, &le) {
			problems = le.Problems
		}
		for _, p := range problems {
			renderWithSnippet(env.Stderr, sources, p, "")
		}
		return reported{err: canonical.Errorf(canonical.CodeInvalidArgs, "%s does not load", file)}
	}

	var data []byte
	if to == convert.FormatAd {
		data, err = convert.ToAd(flow)
	} else {
		v, verr := maestroVersion(c, env)
		if verr != nil {
			return verr
		}
		data, err = convert.ToMaestroFor(flow, c.String("app-id"), v.Or(canonical.MaestroCurrent))
	}
	var ce *convert.ConvertError
	if errors.As(err, &ce) {
		for _, p := range ce.Problems {
			renderWithSnippet(env.Stderr, sources, p, "")
		}
		target := map[string]string{convert.FormatAd: "an .ad script", convert.FormatMaestro: "a Maestro flow"}[to]
		fmt.Fprintf(env.Stderr, "flow convert: %s cannot be written as %s exactly (%d %s); nothing was written\n",
			oneLine(file), target, len(ce.Problems), plural(len(ce.Problems), "problem"))
		return reported{err: canonical.Errorf(canonical.CodeInvalidArgs, "%s cannot be converted", file)}
	}
	if err != nil {
		return err
	}
	if out := c.String("output"); out != "" {
		if err := fsext.WriteFile(out, data, fsext.WriteOptions{}); err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "cannot write %s: %v", out, err).
				WithHint("check the folder exists and is writable")
		}
		return nil
	}
	_, err = env.Stdout.Write(data)
	return err
}
