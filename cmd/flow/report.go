package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/exec/report"
)

// createReport starts the --output report before the run: its
// replacement is created beside it now, so a report that cannot be
// written (a folder that cannot be made, a name the file system refuses,
// no permission) fails before any flow runs rather than after the suite,
// when the report is all that is left. nil when no report is asked for.
func createReport(o testOptions) (*fsext.File, error) {
	if o.format == "" {
		return nil, nil
	}
	if dir := filepath.Dir(o.output); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, reportError(o, err)
		}
	}
	f, err := fsext.Create(o.output, fsext.WriteOptions{})
	if err != nil {
		return nil, reportError(o, err)
	}
	return f, nil
}

func reportError(o testOptions, err error) error {
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code == canonical.CodeInternal {
		var pe *fs.PathError
		cause := err
		if errors.As(err, &pe) {
			cause = pe.Err
		}
		ce = canonical.Errorf(canonical.CodeInvalidArgs, "cannot write report %s: %v", o.output, cause).Wrap(err)
	} else if rest, ok := strings.CutPrefix(ce.Message, "cannot write "); ok {
		ce.Message = "cannot write the report " + rest
	}
	return ce.With("flag", "--output").With("path", o.output).
		WithHint("check that the --output folder is writable, or name another file")
}

// writeReport writes the --format report into out (from createReport)
// and commits it. It runs after every flow, including after Ctrl-C, so a
// run never loses its report.
func writeReport(o testOptions, out *fsext.File, result exec.RunResult, hasArtifacts bool) error {
	if out == nil {
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
		out.Abort()
		return err
	}
	_, _ = out.Write(buf.Bytes()) // a failed write is Commit's error
	if err := out.Commit(); err != nil {
		return reportError(o, err)
	}
	return nil
}
