package studio

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/convert"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/maestro"
)

// isYAML tells a Maestro command (tapOn: …, - launchApp) from an .ad line
// (press text="Log in"): a Maestro command's first word is a key or a
// list item.
func isYAML(cmd string) bool {
	first := strings.Fields(strings.TrimSpace(cmd))
	if len(first) == 0 {
		return false
	}
	return first[0] == "-" || strings.HasSuffix(first[0], ":") || !strings.ContainsAny(cmd, " \t=") && !strings.Contains(cmd, "\n") && isBareCommand(first[0])
}

// isBareCommand is a Maestro command written without arguments
// (launchApp, back, hideKeyboard): a name Maestro knows.
func isBareCommand(word string) bool {
	for _, n := range maestro.CommandNames() {
		if n == word {
			return true
		}
	}
	return false
}

// listItem writes one Maestro command as an item of a flow's command
// list: "- " before its first line, its further lines indented under it.
func listItem(cmd string) string {
	cmd = strings.TrimRight(cmd, " \t\r\n")
	if strings.HasPrefix(strings.TrimSpace(cmd), "- ") || strings.TrimSpace(cmd) == "-" {
		return strings.TrimSpace(cmd)
	}
	lines := strings.Split(strings.TrimLeft(cmd, "\n"), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = "- " + lines[i]
		} else if lines[i] != "" {
			lines[i] = "  " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// osSource reads the flow's neighbours (subflows, scripts, media) from disk.
type osSource struct{}

func (osSource) ReadFile(name string) ([]byte, error)       { return os.ReadFile(name) }
func (osSource) Stat(name string) (os.FileInfo, error)      { return os.Stat(name) }
func (osSource) ReadDir(name string) ([]os.DirEntry, error) { return os.ReadDir(name) }

// loadSteps normalizes Maestro steps as the CLI's loader does, in a flow
// headed by appID that lives beside file, so references resolve as they
// will in the flow file.
func loadSteps(l *maestro.Loader, file, appID string, steps []string) (*canonical.Flow, error) {
	var b strings.Builder
	b.WriteString("appId: " + jsonString(appID) + "\n---\n")
	for _, st := range steps {
		b.WriteString(st + "\n")
	}
	dir := "."
	if file != "" {
		dir = filepath.Dir(file)
	}
	return l.LoadBytes(filepath.Join(dir, "studio-command.yaml"), []byte(b.String()))
}

func jsonString(v string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// runResult is a command's answer, as the console reports a step: status,
// duration, the coded error with its hint; Step is what an append sends.
// For an .ad line, YAML is the Maestro items an append writes for it, or
// AppendError why it has none: the page shows either before the user
// appends.
type runResult struct {
	Kind        string           `json:"kind"` // yaml or ad
	Step        string           `json:"step"`
	YAML        []string         `json:"yaml,omitempty"`
	AppendError *canonical.Error `json:"appendError,omitempty"`
	Status      exec.Status      `json:"status"`
	DurationMs  int64            `json:"durationMs"`
	Error       *canonical.Error `json:"error,omitempty"`
}

// adSteps converts an .ad line, read as the command box runs it (the
// session's variables resolved), to the Maestro items that append it to
// the flow file: exact, or the first command Maestro cannot express as
// UNSUPPORTED_OPERATION with its hint. The flow file is read with the
// Maestro version given, else today's, which decides how a tap's retry is
// written.
func (s *Server) adSteps(line string) ([]string, error) {
	s.device.Lock()
	f, err := s.o.Session.ParseLine(line)
	s.device.Unlock()
	if err != nil {
		return nil, err
	}
	return s.maestroItems(f.Commands)
}

// maestroItems writes an .ad line's commands as Maestro items for the flow
// file, or answers the first command Maestro cannot express.
func (s *Server) maestroItems(cmds []canonical.Command) ([]string, error) {
	steps, err := convert.ToMaestroSteps(cmds, s.flows.appID(), s.flows.maestro.Or(canonical.MaestroCurrent))
	if err != nil {
		p := *canonical.Coded(firstProblem(err))
		// The command box is not a file: a position in it says nothing.
		p.Pos = canonical.Pos{}
		return nil, &p
	}
	return steps, nil
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Command string `json:"command"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil || strings.TrimSpace(in.Command) == "" {
		fail(w, canonical.NewError(canonical.CodeInvalidArgs, "the command box is empty").
			WithHint(`type a Maestro command such as tapOn: "Log in", or an .ad line such as press text="Log in"`))
		return
	}
	res := runResult{Kind: "ad", Step: strings.TrimSpace(in.Command)}
	var flow *canonical.Flow
	var err error
	if isYAML(in.Command) {
		res.Kind, res.Step = "yaml", listItem(in.Command)
		flow, err = loadSteps(s.flows.loader(r.Context()), s.flows.path(), s.flows.appID(), []string{res.Step})
		if err == nil {
			flow.Env = s.flows.env()
		}
	} else {
		s.device.Lock()
		flow, err = s.o.Session.ParseLine(res.Step)
		s.device.Unlock()
	}
	if err != nil {
		res.Status, res.Error = exec.StatusFailed, canonical.Coded(firstProblem(err))
		writeJSON(w, http.StatusOK, res)
		return
	}
	flow.Name = res.Step
	start := time.Now()
	s.device.Lock()
	out, err := s.o.Session.Run(r.Context(), flow)
	s.tree, s.nodes = nil, nil
	s.device.Unlock()
	if err != nil {
		fail(w, err)
		return
	}
	if res.Kind == "ad" {
		if res.YAML, err = s.maestroItems(flow.Commands); err != nil {
			res.AppendError = canonical.Coded(err)
		}
	}
	res.Status, res.Error, res.DurationMs = out.Status, out.Error, out.DurationMs
	if res.DurationMs == 0 {
		res.DurationMs = time.Since(start).Milliseconds()
	}
	writeJSON(w, http.StatusOK, res)
}

// firstProblem is the first problem of a load error: a one-command flow
// has one, and the page shows one error.
func firstProblem(err error) error {
	if le, ok := err.(*maestro.LoadError); ok && len(le.Problems) > 0 {
		return le.Problems[0]
	}
	var ce *convert.ConvertError
	if errors.As(err, &ce) && len(ce.Problems) > 0 {
		return ce.Problems[0]
	}
	return err
}
