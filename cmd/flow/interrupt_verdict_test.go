package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCtrlCDuringOptionalLookupsIsInterrupted: Ctrl-C (a cancelled
// context, in-process) in a long run of optional lookups on sim ends the
// flow interrupted with INTERRUPTED, never failed with ELEMENT_NOT_FOUND
// or ASSERTION_FAILED, however the signal falls. Here nearly all the wall
// time goes to the lookups' reads, where the signal used to turn the miss
// of a lookup whose budget was spent into the flow's verdict; the exact
// moments are covered by exec's TestCtrlCIsNeverAVerdict.
func TestCtrlCDuringOptionalLookupsIsInterrupted(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"opt.yaml": `appId: com.example.shop
---
- launchApp
- repeat:
    times: 1000000
    commands:
      - assertVisible:
          text: Nothing here
          optional: true
      - tapOn:
          text: Missing
          optional: true
`})
	for i, after := range []time.Duration{300, 450, 600, 750, 900, 1100} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(after*time.Millisecond, cancel)
		out := filepath.Join(dir, "report.json")
		r := runFlowCtx(ctx, "", "test", filepath.Join(dir, "opt.yaml"), "--format", "json", "--output", out)
		cancel()
		if r.code != 130 {
			t.Fatalf("try %d: want exit 130:\n%s", i, r)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("try %d: the report was lost: %v", i, err)
		}
		var rep struct {
			Flows []struct {
				Status string
				Error  struct{ Code string }
			}
		}
		if err := json.Unmarshal(data, &rep); err != nil || len(rep.Flows) != 1 {
			t.Fatalf("try %d: %v\n%s", i, err, data)
		}
		if f := rep.Flows[0]; f.Status != "interrupted" || f.Error.Code != "INTERRUPTED" {
			t.Errorf("try %d (Ctrl-C after %dms): the flow is %s %s; want interrupted INTERRUPTED", i, after, f.Status, f.Error.Code)
		}
	}
}
