package main

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/maestro"
	"github.com/flow-runner/flow/planner"
)

const corpus = "../../flows"

// corpusFiles lists the flow files of the flows/ corpus, split into the
// valid ones and the deliberately broken ones under invalid/.
func corpusFiles(t *testing.T) (valid, invalid []string) {
	t.Helper()
	files, err := maestro.FlowFiles(flowapi.OSSource{}, corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		switch {
		case flowapi.IsAppModel(flowapi.OSSource{}, f):
		case strings.Contains(f, "/invalid/"):
			invalid = append(invalid, f)
		default:
			valid = append(valid, f)
		}
	}
	if len(valid) < 20 || len(invalid) < 5 {
		t.Fatalf("the corpus shrank: %d valid, %d invalid", len(valid), len(invalid))
	}
	return valid, invalid
}

func rel(f string) string { return strings.TrimPrefix(f, corpus+"/") }

// TestCorpusLoads: every valid flow loads without a problem and every
// invalid one is refused with a position and a hint.
func TestCorpusLoads(t *testing.T) {
	t.Parallel()
	valid, invalid := corpusFiles(t)
	for _, f := range valid {
		if _, err := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).Load(f); err != nil {
			t.Errorf("%s: %v", rel(f), err)
		}
	}
	var b strings.Builder
	for _, f := range invalid {
		res, _ := flowapi.Check(context.Background(), []string{f}, flowapi.CheckOptions{})
		if len(res.Problems) == 0 {
			t.Errorf("%s: no problem found", rel(f))
		}
		for _, p := range res.Problems {
			if p.Pos.Line == 0 || p.Hint == "" {
				t.Errorf("%s: problem without line or hint: %v", rel(f), p)
			}
			fmt.Fprintf(&b, "%s\n  hint: %s\n", strings.TrimPrefix(p.Error(), corpus+"/"), p.Hint)
		}
	}
	snaps.MatchSnapshot(t, b.String())
}

// TestCorpusCanonical pins each valid flow's canonical commands and the
// plans of its coordinate gestures on Android (as the helper payload) and
// iOS (as the runner plan), one snapshot per flow.
func TestCorpusCanonical(t *testing.T) {
	t.Parallel()
	valid, _ := corpusFiles(t)
	for _, f := range valid {
		t.Run(rel(f), func(t *testing.T) {
			t.Parallel()
			l := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139)
			flow, err := l.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "name=%s appId=%s tags=%v\n", flow.Name, flow.AppID.Raw, flow.Tags)
			for _, e := range flow.Env {
				fmt.Fprintf(&b, "env %s=%s\n", e.Name, e.Value.Raw)
			}
			for _, section := range []struct {
				name string
				cmds []canonical.Command
			}{{"onFlowStart", flow.OnFlowStart}, {"commands", flow.Commands}, {"onFlowComplete", flow.OnFlowComplete}} {
				canonical.Walk(section.cmds, func(c canonical.Command) {
					data, err := canonical.EncodeCommand(c)
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&b, "%s %s\n", section.name, strings.ReplaceAll(string(data), corpus+"/", ""))
					if sw, ok := c.(*canonical.Swipe); ok {
						b.WriteString(corpusPlans(sw))
					}
				})
			}
			snaps.MatchSnapshot(t, b.String())
		})
	}
}

func corpusPlans(sw *canonical.Swipe) string {
	var b strings.Builder
	for _, target := range []struct {
		platform planner.Platform
		viewport canonical.Viewport
	}{{planner.Android, flowapi.DefaultViewport(planner.Android)}, {planner.IOS, flowapi.DefaultViewport(planner.IOS)}} {
		o := planOptions{platform: target.platform, viewport: target.viewport}
		line, _ := planFlowCommand(sw, o)
		if need, ok := line["needs"]; ok {
			fmt.Fprintf(&b, "  %s: needs %s\n", target.platform, need)
			continue
		}
		if e, ok := line["error"]; ok {
			fmt.Fprintf(&b, "  %s: %s\n", target.platform, e.(*canonical.Error).Message)
			continue
		}
		p := line["plan"].(planner.Plan)
		fmt.Fprintf(&b, "  %s plan: %s %s %dms %v -> %v\n", target.platform, p.Intent, p.ExecutionProfile, p.DurationMs, p.Start(), p.End())
		switch target.platform {
		case planner.Android:
			tp, err := android.Lower(p)
			if err != nil {
				fmt.Fprintf(&b, "  android lower: %v\n", err)
				continue
			}
			var samples []string
			for _, s := range tp.Pointers()[0].Samples {
				samples = append(samples, fmt.Sprintf("%d@(%s,%s)", s.OffsetMs, canonical.FormatNumber(s.X), canonical.FormatNumber(s.Y)))
			}
			fmt.Fprintf(&b, "  android transport: %s\n", strings.Join(samples, " "))
		case planner.IOS:
			if _, err := ios.LowerRequest(p, "com.example.shop"); err != nil {
				fmt.Fprintf(&b, "  ios lower: %v\n", err)
				continue
			}
			rec, err := ios.Synthesize(p, ios.AppState{Orientation: ios.Portrait, Window: target.viewport})
			if err != nil {
				fmt.Fprintf(&b, "  ios synthesize: %v\n", err)
				continue
			}
			var events []string
			for _, e := range rec.Paths[0].Events {
				ev := fmt.Sprintf("%s@%ss", e.Type, canonical.FormatNumber(e.Offset))
				if e.Point != nil {
					ev += fmt.Sprintf("(%s,%s)", canonical.FormatNumber(e.Point.X), canonical.FormatNumber(e.Point.Y))
				}
				events = append(events, ev)
			}
			fmt.Fprintf(&b, "  ios runner %s: %s\n", rec.Name, strings.Join(events, " "))
		}
	}
	return b.String()
}

// TestCorpusWorkspace pins which flows the example workspace runs, in
// which order, with its config and tags.
func TestCorpusWorkspace(t *testing.T) {
	t.Parallel()
	plan, err := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).Plan([]string{path.Join(corpus, "workspace")}, maestro.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "continueOnFailure=%v\n", plan.ContinueOnFailure)
	for _, f := range plan.Sequence {
		fmt.Fprintf(&b, "sequence %s (%s) tags=%v\n", f.Name, rel(f.File), f.Tags)
	}
	for _, f := range plan.Flows {
		fmt.Fprintf(&b, "flow %s (%s) tags=%v\n", f.Name, rel(f.File), f.Tags)
	}
	smoke, err := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).Plan([]string{path.Join(corpus, "workspace")}, maestro.PlanOptions{ExcludeTags: []string{"regression"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range smoke.All() {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "with --exclude-tags regression: %s\n", strings.Join(names, ", "))
	snaps.MatchSnapshot(t, b.String())
}

// TestCorpusRunsOnSim runs the corpus end to end on the built-in sim with
// each planning profile: the demo and the workspace as planned by their
// config.yaml, and every top-level feature flow. Subflows run inside them;
// they assume a screen, so they are not run alone.
func TestCorpusRunsOnSim(t *testing.T) {
	var inputs []string
	for _, p := range []string{"demo", "workspace", "login.yaml", "checkout.yaml", "gestures.yaml",
		"list-scrolling.yaml", "control.yaml", "scripts/cart-math.yaml"} {
		abs, err := filepath.Abs(filepath.Join(corpus, p))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, abs)
	}
	t.Chdir(t.TempDir()) // takeScreenshot writes into the working folder
	for _, device := range []string{"sim", "sim:ios"} {
		for _, in := range inputs {
			r := runFlow(t, "", "test", "--device", device, in)
			if r.code != 0 || !strings.Contains(r.stdout, " passed, 0 failed") {
				t.Errorf("%s %s: exit %d\n%s", device, rel(in), r.code, r.stdout)
			}
		}
	}
	if _, err := os.Stat("login-finished.png"); err != nil {
		t.Errorf("takeScreenshot wrote no file: %v", err)
	}
}
