package flow_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/flow-runner/flow"
	"github.com/flow-runner/flow/internal/browsertest"
)

// A Go program keeps a web session as long as it likes: one headless
// Chromium across actions, which separate CLI commands cannot share.
func TestSessionOnTheWeb(t *testing.T) {
	browsertest.Require(t)
	unlock, err := browsertest.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	srv := httptest.NewServer(http.FileServer(http.Dir("exec/webdriver/testdata")))
	defer srv.Close()
	ctx := context.Background()
	s, err := flow.OpenSession(ctx, flow.SessionOptions{Target: flow.Target{Device: "web"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	for _, step := range []func() (flow.Outcome, error){
		func() (flow.Outcome, error) { return s.Launch(ctx, srv.URL+"/login.html") },
		func() (flow.Outcome, error) { return s.Fill(ctx, "text=Email", "ada@example.com") },
		func() (flow.Outcome, error) { return s.Fill(ctx, "text=Password", "secret") },
		func() (flow.Outcome, error) { return s.Press(ctx, `text="Log in"`) },
		func() (flow.Outcome, error) { return s.Is(ctx, "visible", `text="Welcome, ada@example.com!"`) },
	} {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
}
