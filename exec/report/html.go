package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// DefaultHTMLTitle is the page title when none is given; Maestro's HTML
// report heading.
const DefaultHTMLTitle = "Flow Execution Summary"

// maxInlineText caps a text artifact (a view hierarchy) shown inline; a
// larger one is listed by name only, so one huge hierarchy cannot make the
// report unusable. Screenshots are always embedded: they are the point.
const maxInlineText = 1 << 20

// HTMLOptions configures [HTML].
type HTMLOptions struct {
	// Title is the page title and heading; empty means [DefaultHTMLTitle].
	Title string
	// ReadArtifact returns the bytes of one of a flow's Artifacts (a name
	// relative to the artifacts folder). nil lists artifacts by name only.
	ReadArtifact func(name string) ([]byte, error)
}

//go:embed report.html.tmpl
var htmlSource string

// HTML writes run as one self-contained HTML page that works offline:
// inline CSS, no script, no external asset. It shows the result, summary
// cards (flows, passed, failed, interrupted and skipped when there are
// any, duration, device), links to the failed and interrupted flows, and one collapsible section per flow (failed flows open)
// with its steps (status, command and label indented by nesting depth,
// duration, position), its error and hint, and its artifacts: PNG and JPEG
// screenshots embedded as data: URIs, text artifacts such as the JSON view
// hierarchy in a collapsed <pre>, anything else by name.
//
// Steps are named as the console names them (exec.StepResult.Description),
// with the Maestro command beside; status marks are text glyphs (✓ ✗ ! –)
// that need no emoji font. Everything from the run is made [Printable]
// (control characters and bidi overrides shown as escapes) and escaped by
// html/template. The page is well-formed XML as well as HTML, and the same
// input gives the same bytes.
func HTML(w io.Writer, run exec.RunResult, opts HTMLOptions) error {
	if err := checkStatuses(run); err != nil {
		return err
	}
	tmpl, err := template.New("report").Parse(htmlSource)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, newHTMLView(run, opts)); err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

type htmlView struct {
	Title                                       string
	Passed, Failed, Interrupted, Skipped, Total int
	Warned                                      int // passed flows with warnings
	Result, Duration                            string
	Device, DeviceDetail                        string
	FailedFlows, Flows                          []htmlFlow
}

type htmlFlow struct {
	Anchor, Name, File, Status, Badge, Duration string
	Warned, Open                                bool
	Shard                                       int
	Error                                       *htmlError
	Steps                                       []htmlStep
	Artifacts                                   []htmlArtifact
}

type htmlStep struct {
	// Text names the step as the console does; Kind is the Maestro command
	// it ran, shown beside it unless Text already is just that.
	Icon, Status, Text, Kind, Duration, Pos string
	Depth                                   int
	Error                                   *htmlError
	Logs                                    []string
	Run                                     int    // the loop run or retry attempt of a body step
	Runs                                    string // a repeat's run count
	Gap                                     string // a summary row for a loop's unlisted runs
}

type htmlError struct {
	Line, Hint string // Line is the error as the CLI prints it
	Warn       bool   // a warning, not a failure
	Details    []htmlDetail
}

type htmlDetail struct{ Key, Value string }

type htmlArtifact struct {
	Name  string
	Image template.URL // a data: URI of an image we recognised by its bytes
	Text  string       // a text artifact shown inline
	Note  string       // why it is listed by name only
}

func newHTMLView(run exec.RunResult, opts HTMLOptions) htmlView {
	v := htmlView{Title: Printable(opts.Title), Total: len(run.Flows), Duration: humanDuration(run.DurationMs),
		Device: Printable(deviceName(run.Device)), Result: "PASSED"}
	if v.Title == "" {
		v.Title = DefaultHTMLTitle
	}
	t := run.Tally()
	v.Passed, v.Failed, v.Interrupted, v.Skipped = t.Passed, t.Failed, t.Interrupted, t.Skipped
	switch {
	case v.Interrupted > 0:
		v.Result = "INTERRUPTED"
	case v.Failed > 0:
		v.Result = "FAILED"
	}
	var detail []string
	for _, s := range []string{run.Device.Platform, run.Device.ID} {
		if s = Printable(s); s != "" && s != v.Device {
			detail = append(detail, s)
		}
	}
	v.DeviceDetail = strings.Join(detail, " · ")
	for i, f := range run.Flows {
		hf := newHTMLFlow(i, f, opts.ReadArtifact)
		if hf.Warned {
			v.Warned++
		}
		v.Flows = append(v.Flows, hf)
		if f.Status == exec.StatusFailed || f.Status == exec.StatusInterrupted {
			v.FailedFlows = append(v.FailedFlows, hf)
		}
	}
	return v
}

func newHTMLFlow(index int, f exec.FlowResult, read func(string) ([]byte, error)) htmlFlow {
	status := f.Status
	if status == exec.StatusWarned {
		status = exec.StatusPassed // as in the summary: a warned flow passed
	}
	hf := htmlFlow{
		Anchor: fmt.Sprintf("flow-%d", index+1), Name: Printable(f.Name), File: Printable(f.File), Status: string(status),
		Badge: strings.ToUpper(string(status)), Duration: humanDuration(f.DurationMs),
		Warned: passedWithWarnings(f), Open: f.Status == exec.StatusFailed || f.Status == exec.StatusInterrupted, Shard: f.Shard,
		Error: newHTMLError(f.Error),
	}
	if f.Status == exec.StatusFailed && f.Error == nil {
		hf.Error = &htmlError{Line: "Unknown error"}
	}
	gaps := loopGaps(f.Steps)
	for i, s := range f.Steps {
		if g, ok := gaps[i]; ok {
			hf.Steps = append(hf.Steps, g)
		}
		step := htmlStep{
			Icon: stepIcon(s.Status), Status: string(s.Status), Text: Printable(stepText(s)), Kind: Printable(s.Command),
			Duration: humanDuration(s.DurationMs), Pos: Printable(relPos(s.Pos, f.File)), Depth: max(s.Depth, 0),
			Run: s.Iteration,
		}
		if step.Kind == step.Text {
			step.Kind = ""
		}
		for _, l := range s.Logs {
			step.Logs = append(step.Logs, Printable(l))
		}
		if it := s.Iterations; it != nil && s.Command == "repeat" { // a runFlow summarised whole has its gap row
			step.Runs = fmt.Sprintf("%d run", it.Count)
			if it.Count != 1 {
				step.Runs += "s"
			}
		}
		if !errorShownBelow(f.Steps, i) {
			step.Error = newHTMLError(s.Error)
		}
		if step.Error != nil {
			step.Error.Warn = s.Status != exec.StatusFailed && s.Status != exec.StatusInterrupted
		}
		hf.Steps = append(hf.Steps, step)
	}
	if g, ok := gaps[len(f.Steps)]; ok {
		hf.Steps = append(hf.Steps, g)
	}
	for _, name := range f.Artifacts {
		hf.Artifacts = append(hf.Artifacts, newHTMLArtifact(name, read))
	}
	return hf
}

// stepText is a step as the console names it: its description, else its
// label, else the command.
func stepText(s exec.StepResult) string {
	switch {
	case s.Description != "":
		return s.Description
	case s.Label != "":
		return s.Label
	}
	return s.Command
}

// loopGaps places a summary row for each repeat's unlisted runs, keyed by
// the index of the step it goes before: the first step of the loop's last
// run, or (a last run without steps) the step after the loop.
func loopGaps(steps []exec.StepResult) map[int]htmlStep {
	gaps := map[int]htmlStep{}
	pending := map[int]bool{} // repeat steps whose row is not placed yet
	var open []int
	place := func(loop, at int) {
		o := steps[loop].Iterations.Omitted
		gaps[at] = htmlStep{Gap: o.String(), Status: "gap", Depth: max(steps[loop].Depth, 0) + 1,
			Duration: humanDuration(o.DurationMs)}
		delete(pending, loop)
	}
	for i, s := range steps {
		for len(open) > 0 && steps[open[len(open)-1]].Depth >= s.Depth {
			if top := open[len(open)-1]; pending[top] {
				place(top, i)
			}
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			if p := open[len(open)-1]; pending[p] && s.Depth == steps[p].Depth+1 && s.Iteration > steps[p].Iterations.Omitted.Last {
				place(p, i)
			}
		}
		if it := s.Iterations; it != nil && it.Omitted != nil {
			pending[i] = true
		}
		open = append(open, i)
	}
	for p := range pending {
		if _, taken := gaps[len(steps)]; !taken {
			place(p, len(steps))
		}
	}
	return gaps
}

// errorShownBelow reports that step i's error is the one a step nested in
// it already shows: a failure propagates up through runFlow, repeat and
// retry, and the page shows it once, where it happened. (The JSON report
// keeps it on every step.)
func errorShownBelow(steps []exec.StepResult, i int) bool {
	e := steps[i].Error
	if e == nil {
		return false
	}
	for _, s := range steps[i+1:] {
		if s.Depth <= steps[i].Depth {
			return false
		}
		if s.Error != nil && (s.Error == e || s.Error.Error() == e.Error()) {
			return true
		}
	}
	return false
}

// stepIcon is the console's mark for a step status. Plain text glyphs,
// coloured by the page's CSS, not Maestro's emoji: those need an emoji
// font, which CI machines and many Linux desktops lack.
func stepIcon(s exec.Status) string {
	switch s {
	case exec.StatusPassed:
		return "✓"
	case exec.StatusFailed:
		return "✗"
	case exec.StatusWarned:
		return "!"
	}
	return "–"
}

// relPos shortens a position inside the flow's own file to line:col.
func relPos(p canonical.Pos, file string) string {
	if p.File == file && p.Line > 0 {
		p.File = ""
	}
	return p.String()
}

func newHTMLError(e *canonical.Error) *htmlError {
	if e == nil {
		return nil
	}
	he := &htmlError{Line: Printable(e.Error()), Hint: Printable(e.Hint)}
	keys := make([]string, 0, len(e.Details))
	for k := range e.Details {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		he.Details = append(he.Details, htmlDetail{Key: Printable(k), Value: Printable(detailValue(e.Details[k]))})
	}
	return he
}

// detailValue shows a string as itself and anything else as JSON (which
// sorts map keys, keeping the page deterministic).
func detailValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

func newHTMLArtifact(name string, read func(string) ([]byte, error)) htmlArtifact {
	a := htmlArtifact{Name: Printable(name)}
	if read == nil {
		return a
	}
	data, err := read(name)
	if err != nil {
		a.Note = "could not be read: " + Printable(err.Error())
		return a
	}
	if mime := imageType(data); mime != "" {
		// Safe to trust: the URI is our own prefix plus base64, which has
		// no character that could leave the attribute.
		a.Image = template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data))
		return a
	}
	switch {
	case !isText(name, data):
		a.Note = "not embedded"
	case len(data) > maxInlineText:
		a.Note = fmt.Sprintf("too large to show inline (%d bytes)", len(data))
	default:
		a.Text = Printable(string(data))
	}
	return a
}

// imageType recognises the screenshot formats by their magic bytes, never by
// the file name.
func imageType(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	}
	return ""
}

func isText(name string, data []byte) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".json", ".txt", ".log", ".xml", ".yaml", ".yml":
		return utf8.Valid(data) && !bytes.ContainsRune(data, 0)
	}
	return false
}
