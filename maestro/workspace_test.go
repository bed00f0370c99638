package maestro_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

func wsFlow(name string, tags ...string) *fstest.MapFile {
	var b strings.Builder
	b.WriteString("appId: com.example.shop\n")
	if name != "" {
		b.WriteString("name: " + name + "\n")
	}
	if len(tags) > 0 {
		b.WriteString("tags: [" + strings.Join(tags, ", ") + "]\n")
	}
	b.WriteString("---\n- launchApp\n")
	return &fstest.MapFile{Data: []byte(b.String())}
}

func wsNames(p *maestro.ExecutionPlan) string {
	var out []string
	for _, f := range p.Sequence {
		out = append(out, "seq:"+f.Name)
	}
	for _, f := range p.Flows {
		out = append(out, f.Name)
	}
	for _, f := range p.Scripts {
		out = append(out, "script:"+f)
	}
	return strings.Join(out, " ")
}

func wsPlan(t *testing.T, tree fstest.MapFS, inputs []string, opts maestro.PlanOptions) (string, error) {
	t.Helper()
	p, err := newLoader139(tree).Plan(inputs, opts)
	if err != nil {
		return "", err
	}
	return wsNames(p), nil
}

// TestWorkspacePlanning pins Maestro's selection and order rules (§4.2).
func TestWorkspacePlanning(t *testing.T) {
	t.Parallel()
	base := fstest.MapFS{
		"ws/b.yaml":            wsFlow("", "smoke"),
		"ws/a.yaml":            wsFlow("", "regression"),
		"ws/c.yml":             wsFlow("checkout", "smoke", "slow"),
		"ws/sub/deep.yaml":     wsFlow(""),
		"ws/sub/config.yaml":   {Data: []byte("flows: ['*']\n")},
		"ws/notes.txt":         {Data: []byte("not a flow")},
		"ws/.hidden/x.yaml":    wsFlow(""),
		"single/one.yaml":      wsFlow("Only"),
		"single/broken.yaml":   {Data: []byte("appId: x\n---\n- tapon: y\n")},
		"ordered/config.yaml":  {Data: []byte("executionOrder:\n  continueOnFailure: false\n  flowsOrder: [second, first, missing]\n")},
		"ordered/first.yaml":   wsFlow("first"),
		"ordered/second.yaml":  wsFlow("second"),
		"ordered/third.yaml":   wsFlow("third"),
		"badorder/config.yaml": {Data: []byte("executionOrder:\n  flowsOrder: [missing, first]\n")},
		"badorder/first.yaml":  wsFlow("first"),
		"globs/config.yaml":    {Data: []byte("flows:\n  - \"**\"\nexcludeTags: slow\n")},
		"globs/top.yaml":       wsFlow("top"),
		"globs/nested/n.yaml":  wsFlow("nested"),
		"globs/nested/s.yaml":  wsFlow("slowone", "slow"),
		"nomatch/config.yaml":  {Data: []byte("flows: [\"login/*\"]\n")},
		"nomatch/a.yaml":       wsFlow("a"),
		"onlysub/x/a.yaml":     wsFlow("a"),
		"names/Flow.YAML":      wsFlow("upper"),
		"names/Config.yaml":    wsFlow("Config"),
		"names/config.yml":     {Data: []byte("")},
		"names/lab.ad":         {Data: []byte("open com.example.shop\n")},
		"names/sub/deep.ad":    {Data: []byte("back\n")},
	}
	cases := []struct {
		name   string
		inputs []string
		opts   maestro.PlanOptions
		want   string
		err    string
	}{
		{"default glob takes top-level flows, sorted", []string{"ws"}, maestro.PlanOptions{}, "a b checkout", ""},
		{"include tags", []string{"ws"}, maestro.PlanOptions{IncludeTags: []string{"smoke"}}, "b checkout", ""},
		{"exclude tags", []string{"ws"}, maestro.PlanOptions{ExcludeTags: []string{"slow"}}, "a b", ""},
		{"include and exclude", []string{"ws"}, maestro.PlanOptions{IncludeTags: []string{"smoke"}, ExcludeTags: []string{"slow"}}, "b", ""},
		{"explicit file bypasses globs", []string{"ws", "ws/sub/deep.yaml"}, maestro.PlanOptions{}, "a b checkout deep", ""},
		{"single file runs alone, tags ignored", []string{"single/one.yaml"}, maestro.PlanOptions{IncludeTags: []string{"nope"}}, "Only", ""},
		{"flowsOrder runs first, longest existing prefix", []string{"ordered"}, maestro.PlanOptions{}, "seq:second seq:first third", ""},
		{"config globs and config exclude", []string{"globs"}, maestro.PlanOptions{}, "nested top", ""},
		{"missing path", []string{"nowhere"}, maestro.PlanOptions{}, "", "flow path nowhere does not exist"},
		{"tag filter leaves nothing", []string{"ws"}, maestro.PlanOptions{IncludeTags: []string{"nope"}}, "", "no flows left after the tag filter (include: nope; exclude: none)"},
		{"first flowsOrder name missing", []string{"badorder"}, maestro.PlanOptions{}, "", `executionOrder.flowsOrder names "missing"`},
		{"glob matches nothing", []string{"nomatch"}, maestro.PlanOptions{}, "", "flow inclusion patterns matched no flow files: login/*"},
		{"only subfolder flows with default glob", []string{"onlysub"}, maestro.PlanOptions{}, "", "the top-level folders hold no flows"},
		{"flow names are case-sensitive, as Maestro's; .ad scripts are selected like flows", []string{"names"}, maestro.PlanOptions{}, "Config script:names/lab.ad", ""},
		{"an include filter drops untagged scripts as it drops untagged flows", []string{"names", "ws"}, maestro.PlanOptions{IncludeTags: []string{"smoke"}}, "b checkout", ""},
		{"explicit config; ** enters hidden folders as Maestro's walk does", []string{"ws"}, maestro.PlanOptions{ConfigFile: "globs/config.yaml"}, "x a b deep", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := wsPlan(t, base, tc.inputs, tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want error containing %q, got %v (plan %q)", tc.err, err, got)
				}
				if ce, ok := canonical.AsError(err); !ok || ce.Hint == "" {
					t.Fatalf("error without hint: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWorkspaceLoadsEverySelectedFlow: one broken flow fails the plan, and
// its problem keeps its position.
func TestWorkspaceLoadsEverySelectedFlow(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{
		"w/good.yaml": wsFlow("good"),
		"w/bad.yaml":  {Data: []byte("appId: x\n---\n- tapOn: ok\n- tapon: y\n")},
	}
	_, err := newLoader139(tree).Plan([]string{"w"}, maestro.PlanOptions{})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Pos.String() != "w/bad.yaml:4:3" || !strings.Contains(ce.Message, `unknown command "tapon"`) {
		t.Fatalf("want the bad flow's problem at w/bad.yaml:4:3, got %v", err)
	}
}

func TestWorkspaceConfigErrors(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{
		"a/config.yaml": {Data: []byte("executionOrder:\n  continueOnFailur: false\n")},
		"a/f.yaml":      wsFlow("f"),
		"b/config.yaml": {Data: []byte("flow: [\"*\"]\n")},
		"b/f.yaml":      wsFlow("f"),
		"c/config.yaml": {Data: []byte("- just\n- a list\n")},
		"c/f.yaml":      wsFlow("f"),
		"d/config.yml":  {Data: []byte("")},
		"d/f.yaml":      wsFlow("f"),
	}
	l := newLoader139(tree)
	if _, err := l.Plan([]string{"a"}, maestro.PlanOptions{}); err == nil || !strings.Contains(err.Error(), "a/config.yaml:2:3") ||
		!strings.Contains(err.Error(), `unknown key "continueOnFailur"`) {
		t.Errorf("misspelt executionOrder key: %v", err)
	}
	l = newLoader139(tree)
	if _, err := l.Plan([]string{"b"}, maestro.PlanOptions{}); err != nil {
		t.Errorf("unknown top-level config keys are ignored as in Maestro: %v", err)
	} else if w := l.Warnings(); len(w) != 1 || !strings.Contains(w[0].Hint, `did you mean "flows"?`) {
		t.Errorf("want a did-you-mean warning for flow:, got %v", w)
	}
	if _, err := newLoader139(tree).Plan([]string{"c"}, maestro.PlanOptions{}); err == nil || !strings.Contains(err.Error(), "must be a mapping") {
		t.Errorf("list config: %v", err)
	}
	if got, err := wsPlan(t, tree, []string{"d"}, maestro.PlanOptions{}); err != nil || got != "f" {
		t.Errorf("blank config.yml gives defaults: %q %v", got, err)
	}
}

// TestWorkspaceMediaMustBeInside: a flow that adds media from outside the
// workspace folder loads alone but fails as part of the workspace, as in
// Maestro.
func TestWorkspaceMediaMustBeInside(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{
		"assets/cat.png":   {Data: []byte("png")},
		"ws/inside.png":    {Data: []byte("png")},
		"ws/flow.yaml":     {Data: []byte("appId: x\n---\n- addMedia: [../assets/cat.png]\n")},
		"ok/flow.yaml":     {Data: []byte("appId: x\n---\n- addMedia: [media/dog.png]\n")},
		"ok/media/dog.png": {Data: []byte("png")},
	}
	if _, err := newLoader139(tree).Load("ws/flow.yaml"); err != nil {
		t.Fatalf("alone the flow loads: %v", err)
	}
	_, err := newLoader139(tree).Plan([]string{"ws"}, maestro.PlanOptions{})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Pos.String() != "ws/flow.yaml:3:3" || !strings.Contains(ce.Message, `"cat.png" is not inside the workspace`) {
		t.Fatalf("want the media problem at ws/flow.yaml:3:3, got %v", err)
	}
	if _, err := newLoader139(tree).Plan([]string{"ok"}, maestro.PlanOptions{}); err != nil {
		t.Fatalf("media inside the workspace: %v", err)
	}
}

// TestWorkspaceLinks: a link to a flow file is a flow, as Maestro's
// isRegularFile follows links; a link to a folder is not entered, as
// Files.walk does not follow links.
func TestWorkspaceLinks(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{
		"shared/linked.yaml": wsFlow("linked"),
		"shared/sub/in.yaml": wsFlow("in"),
		"w/config.yaml":      {Data: []byte("flows: [\"**\"]\n")},
		"w/own.yaml":         wsFlow("own"),
		"w/link.yaml":        {Data: []byte("../shared/linked.yaml"), Mode: fs.ModeSymlink},
		"w/dir":              {Data: []byte("../shared/sub"), Mode: fs.ModeSymlink},
	}
	got, err := wsPlan(t, tree, []string{"w"}, maestro.PlanOptions{})
	if err != nil || got != "linked own" {
		t.Fatalf("got %q, %v; want the linked file and not the linked folder", got, err)
	}
}
