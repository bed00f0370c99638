package js

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// echoServer answers /echo with "METHOD body" plus the request headers it
// was asked about, /json like JsEngineTest's GET stub, /missing with 404,
// /form with the multipart fields, and /slow only when the client gives up.
func echoServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s|auth=%s|ct=%s", r.Method, body, r.Header.Get("Authorization"), r.Header.Get("Content-Type"))
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Authorization") != "Bearer Token" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Add("testHeader", "first")
		w.Header().Add("testHeader", "second")
		fmt.Fprint(w, `{"message": "GET Endpoint"}`)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "no such thing")
	})
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, "uploadType=%s count=%s", r.FormValue("uploadType"), r.FormValue("count"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestHTTP covers http.get/post/put/delete/request against a local server.
func TestHTTP(t *testing.T) {
	t.Parallel()
	srv, _ := echoServer(t)
	cases := []struct {
		name, script, want string
	}{
		{
			name: "GET with headers; names lower-cased, repeats joined",
			script: `var r = http.get(URL + '/json', {headers: {Authorization: 'Bearer Token'}});
output.v = [r.ok, r.status, json(r.body).message, r.headers['content-type'], r.headers['testheader'], r.headers['Content-Type']].join('|')`,
			want: "true|200|GET Endpoint|application/json|first,second|",
		},
		{
			name:   "POST body",
			script: `output.v = http.post(URL + '/echo', {body: JSON.stringify({payload: 'Value'})}).body`,
			want:   `POST {"payload":"Value"}|auth=|ct=`,
		},
		{
			name:   "PUT with a content type",
			script: `output.v = http.put(URL + '/echo', {body: 'x=1', headers: {'Content-Type': 'text/plain'}}).body`,
			want:   "PUT x=1|auth=|ct=text/plain",
		},
		{
			name:   "DELETE without params",
			script: `output.v = http.delete(URL + '/echo').body`,
			want:   "DELETE |auth=|ct=",
		},
		{
			name:   "request with a method",
			script: `output.v = http.request(URL + '/echo', {method: 'PATCH', body: 42, headers: {Authorization: 7}}).body`,
			want:   "PATCH 42|auth=7|ct=",
		},
		{
			name:   "request defaults to GET",
			script: `output.v = http.request(URL + '/echo').body`,
			want:   "GET |auth=|ct=",
		},
		{
			name:   "non-2xx is not ok but not an error",
			script: `var r = http.get(URL + '/missing'); output.v = r.ok + ' ' + r.status + ' ' + r.body`,
			want:   "false 404 no such thing",
		},
		{
			name:   "multipart form with inline values",
			script: `output.v = http.post(URL + '/form', {multipartForm: {uploadType: 'import', count: 3}}).body`,
			want:   "uploadType=import count=3",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, Options{})
			e.DefineVars([]Var{{"URL", srv.URL}})
			runScript(t, e, "http.js", tc.script)
			if got := e.Output()["v"]; got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestHTTPFromInterpolation: http works inside ${} too, as Maestro's
// JsEngineTest evaluates it.
func TestHTTPFromInterpolation(t *testing.T) {
	t.Parallel()
	srv, _ := echoServer(t)
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"URL", srv.URL}})
	got := interp(t, e, "${json(http.get(URL + '/json', {headers: {Authorization: 'Bearer Token'}}).body).message}")
	if got != "GET Endpoint" {
		t.Errorf("got %q", got)
	}
}

// TestHTTPFileUploadRefused: a {filePath} multipart part would read a file;
// the sandbox refuses it before any request is sent.
func TestHTTPFileUploadRefused(t *testing.T) {
	t.Parallel()
	srv, hits := echoServer(t)
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"URL", srv.URL}})
	runScript(t, e, "upload.js", `
try {
  http.post(URL + '/form', {multipartForm: {uploadType: 'import', data: {filePath: '/etc/hostname', mediaType: 'text/plain'}}});
  output.v = 'sent';
} catch (e) {
  output.v = String(e);
}`)
	got, _ := e.Output()["v"].(string)
	if !strings.HasPrefix(got, "Error: http.post: multipartForm field \"data\" uploads the file \"/etc/hostname\", but scripts cannot read files") {
		t.Errorf("got %q", got)
	}
	if hits.Load() != 0 {
		t.Errorf("the server was called %d times", hits.Load())
	}
}

// TestHTTPErrors: network failures and bad arguments throw catchable
// errors; uncaught they fail the script.
func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	srv, _ := echoServer(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	deadURL := closed.URL
	closed.Close()

	e := newEngine(t, Options{HTTPClient: &http.Client{Timeout: 100 * time.Millisecond}})
	e.DefineVars([]Var{{"URL", srv.URL}, {"DEAD", deadURL}})
	runScript(t, e, "errs.js", `
function attempt(f) { try { f(); return 'no error' } catch (e) { return String(e) } }
output.refused = attempt(function () { http.get(DEAD + '/x') });
output.slow = attempt(function () { http.get(URL + '/slow') });
output.nourl = attempt(function () { http.get() });
output.badurl = attempt(function () { http.get('::not a url') });
`)
	out := e.Output()
	for key, want := range map[string]string{
		"refused": "Error: http.get " + deadURL + "/x: Get",
		"slow":    "Error: http.get " + srv.URL + "/slow: Get",
		"nourl":   "TypeError: http.get: the first argument must be a URL",
		"badurl":  "Error: http.get ::not a url: parse",
	} {
		if got, _ := out[key].(string); !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %q, want prefix %q", key, got, want)
		}
	}
	if got, _ := out["slow"].(string); !strings.Contains(got, "Timeout") {
		t.Errorf("slow: %q does not mention the client timeout", got)
	}

	err := e.RunScript(context.Background(), "uncaught.js", "http.get(DEAD)", nil, flowPos)
	ce := codedErr(t, err)
	if ce.Reason() != ReasonThrown || !strings.Contains(ce.Message, "(at uncaught.js:1:9)") {
		t.Errorf("uncaught: %v", err)
	}
}

// TestHTTPTimeout: a request that outlives the evaluation is abandoned at
// the deadline; the engine stays usable.
func TestHTTPTimeout(t *testing.T) {
	t.Parallel()
	srv, _ := echoServer(t)
	const limit = time.Second
	e := newEngine(t, Options{Timeout: limit})
	e.DefineVars([]Var{{"URL", srv.URL}})
	start := time.Now()
	err := e.RunScript(context.Background(), "slow.js", "try { http.get(URL + '/slow') } catch (e) { output.caught = true; for(;;){} }", nil, flowPos)
	if d := time.Since(start); d > limit+2*time.Second {
		t.Errorf("took %v", d)
	}
	ce := codedErr(t, err)
	if ce.Reason() != ReasonTimeout || !strings.HasPrefix(ce.Message, "script slow.js timed out after 1s") {
		t.Errorf("got %v", err)
	}
	runScript(t, e, "after.js", "output.after = http.get(URL + '/echo').status")
	if got := e.Output()["after"]; got != int64(200) {
		t.Errorf("after the timeout: %v", got)
	}
}
