package studio

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/exec/fswatch"
	"github.com/flow-runner/flow/maestro"
)

// flowFile is the flow the page builds: its path, its text as last read
// and a version that moves whenever the file changes, by studio or by an
// editor (seen through exec/fswatch, the watcher flow test --continuous
// uses).
type flowFile struct {
	mu       sync.Mutex
	file     string
	defApp   string
	maestro  canonical.MaestroVersion // the semantics flows are read with
	text     string
	version  int
	changed  chan struct{} // closed and replaced at each change
	retarget chan struct{}
}

func newFlowFile(file, appID string, v canonical.MaestroVersion) *flowFile {
	f := &flowFile{file: file, defApp: appID, maestro: v, changed: make(chan struct{}), retarget: make(chan struct{}, 1)}
	f.reread()
	return f
}

// loader reads flows as flow test and flow check would with the same
// Maestro version.
func (f *flowFile) loader(ctx context.Context) *maestro.Loader {
	return maestro.NewLoader(osSource{}).WithContext(ctx).WithMaestroVersion(f.maestro)
}

func (f *flowFile) path() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.file
}

// appID is the app of the flow file's header, else the one studio was
// given, so that launchApp in the command box launches the flow's app.
func (f *flowFile) appID() string {
	if fl := f.header(); fl != nil && fl.AppID.Raw != "" && !fl.AppID.HasExpr() {
		return fl.AppID.Raw
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.defApp
}

// env is the flow file's header env: block. A command runs with it
// defined after studio's -e variables, as the runtime defines a flow's
// header after -e in flow test, so a command sees what it will see as a
// step of the file.
func (f *flowFile) env() []canonical.EnvVar {
	if fl := f.header(); fl != nil {
		return fl.Env
	}
	return nil
}

// header is the flow file as loaded, nil when there is none or it does
// not load.
func (f *flowFile) header() *canonical.Flow {
	file := f.path()
	if file == "" {
		return nil
	}
	fl, err := f.loader(context.Background()).Load(file)
	if err != nil {
		return nil
	}
	return fl
}

// reread reads the file and moves the version when its text changed.
func (f *flowFile) reread() {
	f.mu.Lock()
	defer f.mu.Unlock()
	text := ""
	if f.file != "" {
		if b, err := os.ReadFile(f.file); err == nil {
			text = string(b)
		}
	}
	if text != f.text || f.version == 0 {
		f.text = text
		f.version++
		close(f.changed)
		f.changed = make(chan struct{})
	}
}

// setPath points the page at another flow file.
func (f *flowFile) setPath(p string) {
	f.mu.Lock()
	same := p == f.file
	f.file = p
	f.mu.Unlock()
	if !same {
		f.reread()
		select {
		case f.retarget <- struct{}{}:
		default:
		}
	}
}

// watch rereads the file whenever fswatch sees it change, until ctx ends.
func (f *flowFile) watch(ctx context.Context) {
	for ctx.Err() == nil {
		p := f.path()
		if p == "" {
			select {
			case <-ctx.Done():
				return
			case <-f.retarget:
				continue
			}
		}
		since := fswatch.Take([]string{p})
		wctx, stop := context.WithCancel(ctx)
		go func() {
			select {
			case <-f.retarget:
				stop()
			case <-wctx.Done():
			}
		}()
		_, _ = fswatch.Wait(wctx, since, 0)
		stop()
		f.reread()
	}
}

// flow answers the flow file's text and version; given the version the
// page has, it waits (at most 20 s) for the next, so an edit shows at once.
func (s *Server) flow(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Query().Get("file"); p != "" {
		s.flows.setPath(p)
	}
	have, _ := strconv.Atoi(r.URL.Query().Get("version"))
	s.flows.mu.Lock()
	ch, v := s.flows.changed, s.flows.version
	s.flows.mu.Unlock()
	if have == v {
		select {
		case <-ch:
		case <-r.Context().Done():
			return
		case <-time.After(20 * time.Second):
		}
	}
	s.flows.mu.Lock()
	out := map[string]any{"file": s.flows.file, "text": s.flows.text, "version": s.flows.version}
	s.flows.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// appendSteps adds Maestro steps, and .ad lines as the Maestro steps they
// convert to, to the flow file (started with an appId
// header when new) after loading the result as flow check would: a step
// that would break the file is refused and the file left as it was.
func (s *Server) appendSteps(w http.ResponseWriter, r *http.Request) {
	var in struct {
		File  string   `json:"file"`
		Steps []string `json:"steps"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil {
		fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "the append request is not JSON: %v", err))
		return
	}
	if strings.TrimSpace(in.File) == "" {
		fail(w, canonical.NewError(canonical.CodeInvalidArgs, "no flow file to append to").WithHint("type a path such as flows/new.yaml in the flow file box"))
		return
	}
	if ext := strings.ToLower(filepath.Ext(in.File)); ext != ".yaml" && ext != ".yml" {
		fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "%s is not a Maestro flow file", in.File).WithHint("name a .yaml file: studio appends Maestro steps"))
		return
	}
	if len(in.Steps) == 0 {
		fail(w, canonical.NewError(canonical.CodeInvalidArgs, "no steps to append").WithHint("run a command first; the steps that passed are offered"))
		return
	}
	s.edits.Lock()
	defer s.edits.Unlock()
	s.flows.setPath(in.File)
	// An .ad line goes in as the Maestro items it converts to, exactly, or
	// the whole append is refused: a flow file holds Maestro commands.
	var steps []string
	for _, st := range in.Steps {
		if strings.HasPrefix(st, "- ") || st == "-" {
			steps = append(steps, st)
			continue
		}
		items, err := s.adSteps(st)
		if err != nil {
			fail(w, err)
			return
		}
		steps = append(steps, items...)
	}
	old, err := os.ReadFile(in.File)
	if err != nil && !os.IsNotExist(err) {
		fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "reading %s: %v", in.File, err))
		return
	}
	existed := err == nil
	text := string(old)
	if strings.TrimSpace(text) == "" {
		app := s.flows.appID()
		if app == "" {
			fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "%s is new and studio knows no appId to head it", in.File).
				WithHint("start flow studio with --app-id, or create the file with its appId header first"))
			return
		}
		text = "appId: " + jsonString(app) + "\n---\n"
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	for _, st := range steps {
		text += st + "\n"
	}
	if _, err := s.flows.loader(r.Context()).LoadBytes(in.File, []byte(text)); err != nil {
		fail(w, firstProblem(err))
		return
	}
	if dir := filepath.Dir(in.File); dir != "." {
		_ = os.MkdirAll(dir, 0o755)
	}
	if err := fsext.WriteFile(in.File, []byte(text), fsext.WriteOptions{}); err != nil {
		fail(w, err)
		return
	}
	s.flows.reread()
	s.last = &appendEdit{file: in.File, before: old, existed: existed, after: []byte(text)}
	writeJSON(w, http.StatusOK, map[string]any{"file": in.File, "text": text, "appended": steps})
}

// appendEdit is an append as undo needs it: the file's bytes before
// (existed false: there was no file) and after.
type appendEdit struct {
	file          string
	before, after []byte
	existed       bool
}

// undoAppend drops the steps of the last append: the file gets its bytes
// from before it back (a file the append created is removed). Only while
// the file is still exactly what the append wrote: an edit made since is
// never thrown away.
func (s *Server) undoAppend(w http.ResponseWriter, r *http.Request) {
	s.edits.Lock()
	defer s.edits.Unlock()
	if s.last == nil {
		fail(w, canonical.NewError(canonical.CodeInvalidArgs, "no append to undo").
			WithHint("only the last append made in this studio can be undone, once"))
		return
	}
	e := s.last
	now, err := os.ReadFile(e.file)
	if err != nil || string(now) != string(e.after) {
		fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "%s changed since the last append", e.file).
			WithHint("edit the file by hand: undoing now would lose the change"))
		return
	}
	if e.existed {
		err = fsext.WriteFile(e.file, e.before, fsext.WriteOptions{})
	} else {
		err = os.Remove(e.file)
	}
	if err != nil {
		fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "undoing the append to %s: %v", e.file, err))
		return
	}
	s.last = nil
	s.flows.reread()
	writeJSON(w, http.StatusOK, map[string]any{"file": e.file, "text": string(e.before)})
}
