package main

import (
	"bytes"
	"os"
	"path/filepath"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

// writeReport writes the --format report to --output, if asked. It runs
// after every flow, including after Ctrl-C, so a run never loses its report.
func writeReport(o testOptions, result exec.RunResult, hasArtifacts bool) error {
	if o.format == "" {
		return nil
	}
	var buf bytes.Buffer
	var err error
	switch o.format {
	case "junit":
		err = report.JUnit(&buf, result, report.JUnitOptions{SuiteName: o.suiteName})
	case "json":
		err = report.JSON(&buf, result)
	case "html":
		opts := report.HTMLOptions{}
		if hasArtifacts {
			opts.ReadArtifact = func(name string) ([]byte, error) {
				return os.ReadFile(filepath.Join(o.artifacts, filepath.FromSlash(name)))
			}
		}
		err = report.HTML(&buf, result, opts)
	}
	if err != nil {
		return err
	}
	out := flowapi.DirFiles{Dir: "."}
	if err := out.WriteFile(filepath.ToSlash(o.output), buf.Bytes()); err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "cannot write report %s: %v", o.output, err).Wrap(err).
			WithHint("check that the --output folder exists and is writable")
	}
	return nil
}
