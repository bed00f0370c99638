package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/exec/report"
)

// reportOutput is one report the run writes: its format and file.
type reportOutput struct{ format, path string }

// defaultReportFile is the file of a --format given without --output:
// Maestro's report.xml and report.html (ReportFormat.fileExtension), and
// report.json for flow's JSON report.
var defaultReportFile = map[string]string{"junit": "report.xml", "json": "report.json", "html": "report.html"}

// readReportOutputs turns --format and the --output flags into the
// reports to write. --format keeps Maestro's meaning: the format of the
// one report (report.xml or report.html when no --output names it), noop
// for none at all. Each of several --output files takes the format its
// extension names, so one run can write JUnit for CI, HTML for people and
// JSON for tools (Maestro issue #2161).
func readReportOutputs(format string, outputs []string) ([]reportOutput, error) {
	switch format {
	case "", "junit", "json", "html":
	case "noop":
		// Maestro's NOOP writes no report, even with --output.
		return nil, nil
	default:
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "unknown report format %q", format).
			WithHint("use --format junit, --format json, --format html or --format noop")
	}
	switch {
	case len(outputs) == 0 && format == "":
		return nil, nil
	case len(outputs) == 0:
		return []reportOutput{{format, defaultReportFile[format]}}, nil
	case len(outputs) == 1 && format != "":
		return []reportOutput{{format, outputs[0]}}, nil
	case format != "":
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--format %s names the format of one report, but %d --output files are given", format, len(outputs)).
			With("flag", "--format").
			WithHint("drop --format: with several --output files each file's extension (.xml, .json, .html) picks its format")
	}
	out := make([]reportOutput, len(outputs))
	for i, p := range outputs {
		f, err := reportFormatOf(p)
		if err != nil {
			return nil, err
		}
		out[i] = reportOutput{f, p}
	}
	return out, nil
}

// reportFile is a report being written.
type reportFile struct {
	reportOutput
	f *fsext.File
}

// createReports starts every report before the run: each replacement is
// created beside its file now, so a report that cannot be written (a
// folder that cannot be made, a name the file system refuses, no
// permission) fails before any flow runs rather than after the suite,
// when the reports are all that is left.
func createReports(reports []reportOutput) ([]reportFile, error) {
	var out []reportFile
	for _, r := range reports {
		if dir := filepath.Dir(r.path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				abortReports(out)
				return nil, reportError(r.path, err)
			}
		}
		f, err := fsext.Create(r.path, fsext.WriteOptions{})
		if err != nil {
			abortReports(out)
			return nil, reportError(r.path, err)
		}
		out = append(out, reportFile{r, f})
	}
	return out, nil
}

// abortReports drops the reports not committed yet (early returns); after
// writeReports it does nothing.
func abortReports(files []reportFile) {
	for _, f := range files {
		f.f.Abort()
	}
}

func reportError(path string, err error) error {
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code == canonical.CodeInternal {
		var pe *fs.PathError
		cause := err
		if errors.As(err, &pe) {
			cause = pe.Err
		}
		ce = canonical.Errorf(canonical.CodeInvalidArgs, "cannot write report %s: %v", path, cause).Wrap(err)
	} else if rest, ok := strings.CutPrefix(ce.Message, "cannot write "); ok {
		ce.Message = "cannot write the report " + rest
	}
	return ce.With("flag", "--output").With("path", path).
		WithHint("check that the --output folder is writable, or name another file")
}

// reportInputs is what the reports show beyond the run's result.
type reportInputs struct {
	suiteName string
	// artifacts is the folder the failure artifacts were written to:
	// --artifacts, or a temporary folder when only the reports or the
	// debug output asked for a failure screenshot (temporary then).
	artifacts string
	temporary bool
	// attachments lists a flow's files for JUnit's [[ATTACHMENT|...]].
	attachments func(exec.FlowResult) []string
}

// writeReports writes every report and commits it. It runs after every
// flow, including after Ctrl-C, so a run never loses its reports; one
// report that cannot be written does not keep the others from being
// written, and the first failure is returned.
func writeReports(files []reportFile, result exec.RunResult, in reportInputs) error {
	var first error
	for _, f := range files {
		if err := writeReport(f, result, in); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func writeReport(out reportFile, result exec.RunResult, in reportInputs) error {
	var buf bytes.Buffer
	var err error
	switch out.format {
	case "junit":
		err = report.JUnit(&buf, result, report.JUnitOptions{SuiteName: in.suiteName, Attachments: in.attachments})
	case "json":
		if in.temporary {
			// The artifact names would point into a folder that is gone.
			result = withoutArtifacts(result)
		}
		err = report.JSON(&buf, result)
	case "html":
		opts := report.HTMLOptions{}
		if in.artifacts != "" {
			opts.ReadArtifact = func(name string) ([]byte, error) {
				return os.ReadFile(filepath.Join(in.artifacts, filepath.FromSlash(name)))
			}
		}
		err = report.HTML(&buf, result, opts)
	}
	if err != nil {
		out.f.Abort()
		return err
	}
	_, _ = out.f.Write(buf.Bytes()) // a failed write is Commit's error
	if err := out.f.Commit(); err != nil {
		return reportError(out.path, err)
	}
	return nil
}

func withoutArtifacts(r exec.RunResult) exec.RunResult {
	flows := make([]exec.FlowResult, len(r.Flows))
	for i, f := range r.Flows {
		f.Artifacts = nil
		flows[i] = f
	}
	r.Flows = flows
	return r
}

// failureShot is the name of a flow's failure screenshot among its
// artifacts (exec's captureFailure names it <base>-failure.png), or "".
func failureShot(f exec.FlowResult) string {
	for _, a := range f.Artifacts {
		if strings.HasSuffix(a, "-failure.png") {
			return a
		}
	}
	return ""
}

// repeatedFlag is a flag given any number of times, each value kept
// whole: urfave/cli's slice flags split values at commas, and a report
// may be called a,b.xml.
type repeatedFlag struct{ values []string }

func (r *repeatedFlag) Set(v string) error {
	r.values = append(r.values, v)
	return nil
}

func (r *repeatedFlag) String() string { return strings.Join(r.values, ", ") }

// needsScreenshots reports whether a report shows failure screenshots:
// JUnit attaches them, HTML embeds them.
func needsScreenshots(reports []reportOutput) bool {
	for _, r := range reports {
		if r.format == "junit" || r.format == "html" {
			return true
		}
	}
	return false
}

// hiddenArtifacts passes a run on to next without the artifact names of
// a temporary artifacts folder, which would name files about to be gone.
type hiddenArtifacts struct{ exec.Observer }

func (h hiddenArtifacts) FlowFinished(r exec.FlowResult) {
	r.Artifacts = nil
	h.Observer.FlowFinished(r)
}

// LoopRunning passes a loop's progress on.
func (h hiddenArtifacts) LoopRunning(f *canonical.Flow, depth, run int) {
	if o, ok := h.Observer.(exec.LoopObserver); ok {
		o.LoopRunning(f, depth, run)
	}
}

// RunsOmitted passes a loop's summary on.
func (h hiddenArtifacts) RunsOmitted(f *canonical.Flow, depth int, omitted exec.OmittedRuns) {
	if o, ok := h.Observer.(exec.LoopObserver); ok {
		o.RunsOmitted(f, depth, omitted)
	}
}

// attachments is JUnit's attachment list of a flow: the absolute path of
// its failure screenshot, in --artifacts when given, else in the debug
// output, else copied beside the first JUnit report into
// <report name>-attachments/ (a temporary artifacts folder is gone once
// the run ends, and a CI tool opens the file after). A copy that fails is
// noted in outputErr and attaches nothing.
func attachments(o testOptions, artifacts string, debug *debugOutput, outputErr **canonical.Error) func(exec.FlowResult) []string {
	var junit string
	for _, r := range o.reports {
		if r.format == "junit" {
			junit = r.path
			break
		}
	}
	if junit == "" {
		return nil
	}
	return func(f exec.FlowResult) []string {
		shot := failureShot(f)
		if shot == "" {
			return nil
		}
		var p string
		switch {
		case o.artifacts != "":
			p = filepath.Join(o.artifacts, filepath.FromSlash(shot))
		case debug != nil && debug.screenshot(shot) != "":
			p = debug.screenshot(shot)
		default:
			data, err := os.ReadFile(filepath.Join(artifacts, filepath.FromSlash(shot)))
			if err != nil {
				return nil
			}
			dir := strings.TrimSuffix(junit, filepath.Ext(junit)) + "-attachments"
			p = filepath.Join(dir, filepath.FromSlash(shot))
			err = os.MkdirAll(filepath.Dir(p), 0o755)
			if err == nil {
				err = fsext.WriteFile(p, data, fsext.WriteOptions{})
			}
			if err != nil {
				if *outputErr == nil {
					*outputErr = canonical.Errorf(canonical.CodeInvalidArgs, "cannot write the JUnit attachment %s: %v", p, unwrapPath(err)).
						With("flag", "--output").With("path", p).WithHint("check that the --output folder is writable")
				}
				return nil
			}
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return []string{p}
	}
}

// singleFlowMode is Maestro's single-flow mode (TestCommand.runShardSuite):
// one flow file, no report, not replicated by --shard-all. Its debug
// files are named after the file, not the flow.
func (o testOptions) singleFlowMode() bool {
	if len(o.paths) != 1 || len(o.reports) > 0 || (o.shardAll && o.shards > 1) {
		return false
	}
	info, err := os.Stat(filepath.FromSlash(o.paths[0]))
	return err == nil && !info.IsDir()
}

// flowVersion is this binary's version, for the debug log's header.
func flowVersion() string {
	info, ok := debug.ReadBuildInfo()
	return readVersion(info, ok).Version
}
