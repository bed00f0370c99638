package studio

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

//go:embed assets
var assets embed.FS

// Options configure a Server.
type Options struct {
	// Session is the device the page drives.
	Session Session
	// FlowFile is the flow steps are appended to; the page may name
	// another. Empty: the page asks for one.
	FlowFile string
	// AppID heads a flow file studio starts.
	AppID string
	// MaestroVersion is the semantics commands and the flow file are read
	// with (--maestro-version, FLOW_MAESTRO_VERSION); "" follows the
	// workspace config, else today's Maestro, as flow test does.
	MaestroVersion canonical.MaestroVersion
	// Token, when set, must come with every request: as "Authorization:
	// Bearer TOKEN", or as ?token= on the page's own address.
	Token string
}

// Server serves the page and its API. Device calls are served one at a
// time: a device does one thing at a time.
type Server struct {
	o      Options
	device sync.Mutex
	tree   *exec.Node   // the last screen read
	nodes  []*exec.Node // tree in pre-order: the page names nodes by index
	flows  *flowFile
	// edits serializes appends and undos, so an undo restores exactly
	// what the append it undoes replaced.
	edits sync.Mutex
	last  *appendEdit // the last append, until undone
}

// New makes a server for o.
func New(o Options) *Server {
	return &Server{o: o, flows: newFlowFile(o.FlowFile, o.AppID, o.MaestroVersion)}
}

// Handler is the page and its API, behind the token when there is one.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/screenshot", s.screenshot)
	mux.HandleFunc("GET /api/hierarchy", s.hierarchy)
	mux.HandleFunc("GET /api/suggest", s.suggest)
	mux.HandleFunc("POST /api/run", s.run)
	mux.HandleFunc("POST /api/append", s.appendSteps)
	mux.HandleFunc("POST /api/undo", s.undoAppend)
	mux.HandleFunc("GET /api/flow", s.flow)
	mux.HandleFunc("POST /api/reconnect", s.reconnect)
	var h http.Handler = sameOrigin(s.o.Token == "", mux)
	if s.o.Token != "" {
		h = requireToken(s.o.Token, h)
	}
	return h
}

// sameOrigin keeps other web pages the user visits from driving the
// device through the browser: a request another origin sent (its Origin
// header names another host) is refused, a POST must be JSON (which a
// page of another origin cannot send without a CORS preflight studio
// never grants), and without a token the Host must be a loopback name,
// so that a DNS name rebound to 127.0.0.1 reaches nothing.
func sameOrigin(loopbackOnly bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if loopbackOnly && !loopbackHost(r.Host) {
			http.Error(w, "flow studio answers only to the address it printed (127.0.0.1 or localhost)", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			if u, err := url.Parse(o); err != nil || u.Host != r.Host {
				http.Error(w, "flow studio answers only its own page", http.StatusForbidden)
				return
			}
		}
		if r.Method == http.MethodPost {
			if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
				http.Error(w, "flow studio's API takes application/json", http.StatusUnsupportedMediaType)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Serve answers on l until ctx ends, watching the flow file meanwhile.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go s.flows.watch(ctx)
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return canonical.Errorf(canonical.CodeInternal, "flow studio: %v", err)
	}
	return nil
}

// requireToken refuses a request without the token before anything of it
// is read. The page's own address may carry it as ?token= (a browser
// cannot add a header to the address bar); the page then sends it as a
// header. Hashes are compared in constant time, so neither the time taken
// nor the length tells a guesser anything.
func requireToken(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") {
			got = r.URL.Query().Get("token")
		}
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="flow studio"`)
			http.Error(w, "flow studio needs its token: open the address it printed when it started (it ends with ?token=…)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// fail answers with the coded error: 503 for a device that is gone (the
// page offers to reconnect), 400 for input the user can fix, 500 else.
func fail(w http.ResponseWriter, err error) {
	ce := canonical.Coded(err)
	status := http.StatusInternalServerError
	switch ce.Code {
	case canonical.CodeDeviceUnavailable:
		status = http.StatusServiceUnavailable
	case canonical.CodeInternal:
	default:
		status = http.StatusBadRequest
	}
	writeJSON(w, status, map[string]any{"error": ce})
}

func (s *Server) screenshot(w http.ResponseWriter, r *http.Request) {
	s.device.Lock()
	png, err := s.o.Session.Screenshot(r.Context())
	s.device.Unlock()
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(png)
}

// nodeJSON is an element as the page shows it; I is its pre-order index,
// the name the page uses for it, and Selector the most readable selector
// that finds it alone (empty when neither its text nor its id does).
type nodeJSON struct {
	I        int         `json:"i"`
	Text     string      `json:"text,omitempty"`
	ID       string      `json:"id,omitempty"`
	Label    string      `json:"label,omitempty"`
	Hint     string      `json:"hint,omitempty"`
	Class    string      `json:"class,omitempty"`
	Bounds   *exec.Rect  `json:"bounds,omitempty"`
	Enabled  bool        `json:"enabled"`
	Checked  bool        `json:"checked"`
	Focused  bool        `json:"focused"`
	Selected bool        `json:"selected"`
	Selector string      `json:"selector,omitempty"`
	Children []*nodeJSON `json:"children,omitempty"`
}

func (s *Server) hierarchy(w http.ResponseWriter, r *http.Request) {
	s.device.Lock()
	root, vp, err := s.o.Session.Hierarchy(r.Context())
	if err != nil {
		s.device.Unlock()
		fail(w, err)
		return
	}
	tree := exec.VisibleTree(root, vp)
	s.tree, s.nodes = tree, nil
	var conv func(n *exec.Node) *nodeJSON
	conv = func(n *exec.Node) *nodeJSON {
		j := &nodeJSON{I: len(s.nodes), Text: n.Text, ID: n.ID, Label: n.Label, Hint: n.Hint, Class: n.Class, Bounds: n.Bounds,
			Enabled: n.Enabled, Checked: n.Checked, Focused: n.Focused, Selected: n.Selected}
		s.nodes = append(s.nodes, n)
		for _, c := range n.Children {
			j.Children = append(j.Children, conv(c))
		}
		return j
	}
	out := conv(tree)
	var mark func(j *nodeJSON)
	mark = func(j *nodeJSON) {
		n := s.nodes[j.I]
		for _, sp := range []spec{{text: shownText(n), index: -1}, {id: n.ID, index: -1}} {
			if sp.text == "" && sp.id == "" {
				continue
			}
			if m, err := exec.MatchSelector(tree, sp.selector()); err == nil && len(m) == 1 && m[0] == n {
				j.Selector = strings.TrimPrefix(sp.value(), "\n")
				break
			}
		}
		for _, c := range j.Children {
			mark(c)
		}
	}
	mark(out)
	s.device.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"root": out, "viewport": vp})
}

func (s *Server) suggest(w http.ResponseWriter, r *http.Request) {
	i, err := strconv.Atoi(r.URL.Query().Get("i"))
	s.device.Lock()
	defer s.device.Unlock()
	if err != nil || i < 0 || i >= len(s.nodes) {
		fail(w, canonical.Errorf(canonical.CodeInvalidArgs, "no element %q on the last screen read", r.URL.Query().Get("i")).
			WithHint("refresh the screen and pick the element again"))
		return
	}
	out := Suggest(s.tree, s.nodes[i])
	if out == nil {
		out = []Suggestion{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"suggestions": out})
}

func (s *Server) reconnect(w http.ResponseWriter, r *http.Request) {
	s.device.Lock()
	err := s.o.Session.Reopen(r.Context())
	s.tree, s.nodes = nil, nil
	s.device.Unlock()
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}
