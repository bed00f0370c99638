package canonical_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
)

// TestRemovedForms pins the exact rewrite of every removed positional form
// (agent-device.md §3.4), for the CLI (no line) and for .ad (with a line).
func TestRemovedForms(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"swipe 100 200 300 400 500":        `swipe accepts 4 arguments: x1 y1 x2 y2. The trailing durationMs positional was removed: use "gesture pan 100 200 200 200 500" for the same timed drag, or "swipe 100 200 300 400" for a default-duration swipe.`,
		"swipe 100 200 300 400 ${DUR}":     `swipe accepts 4 arguments: x1 y1 x2 y2. The trailing durationMs positional was removed: use "gesture pan 100 200 200 200 ${DUR}" for the same timed drag, or "swipe 100 200 300 400" for a default-duration swipe.`,
		"swipe a 200 300 400 500":          `swipe accepts 4 arguments: x1 y1 x2 y2. The trailing durationMs positional was removed: use "gesture pan x1 y1 dx dy durationMs" for the same timed drag, or "swipe a 200 300 400" for a default-duration swipe.`,
		"swipe 100 200 300 400 500 600":    `swipe accepts 4 arguments: x1 y1 x2 y2.`,
		"gesture fling up 200 400 180 300": `gesture fling accepts at most 4 arguments: direction x y [distance]. The trailing durationMs positional was removed: use "gesture fling up 200 400 180", or gesture pan for timed movement.`,
		"gesture swipe left 300":           `gesture swipe accepts 1 argument: preset. The trailing durationMs positional was removed: use "gesture swipe left", or gesture pan for timed movement.`,
		"gesture rotate 35 200 420 2":      `gesture rotate accepts at most 3 arguments: degrees [x] [y]. The trailing velocity positional was removed: use "gesture rotate 35 200 420"; rotation pacing derives from degrees.`,
		"gesture pan 200 420 0 -80 500 9":  `gesture pan accepts at most 5 arguments: x y dx dy [durationMs].`,
		"gesture swipe left fast":          `gesture swipe accepts 1 argument: preset.`,
	}
	for line, msg := range want {
		_, err := canonical.ParseGestureCommand(strings.Fields(line))
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeInvalidArgs {
			t.Errorf("%s: want INVALID_ARGS, got %v", line, err)
			continue
		}
		if ce.Message != msg {
			t.Errorf("%s:\n got  %s\n want %s", line, ce.Message, msg)
		}
		if ce.Hint == "" {
			t.Errorf("%s: no hint", line)
		}
		tokens := strings.Fields(line)
		withLine := canonical.CheckArity(tokens[0], tokens[1:], "line 7")
		if withLine == nil || !strings.Contains(withLine.Error(), " (line 7).") {
			t.Errorf("%s: .ad form must name the line: %v", line, withLine)
		}
	}
}

// TestCommandLines pins what each positional command line normalizes to, or
// the error it gets.
func TestCommandLines(t *testing.T) {
	t.Parallel()
	lines := []string{
		"gesture pan 200 420 0 -80",
		"gesture pan 200 420 0 -80 300 --pointer-count 2",
		"gesture pan 200 420 0 -80 --pointer-count=3",
		"gesture pan 200 420 abc -80",
		"gesture pan 200 420",
		"gesture pan 200 420 0 -80 0x10",
		"gesture fling up 200 400",
		"gesture fling up 200 400 1e2",
		"gesture fling sideways 200 400",
		"gesture pinch 0.5 540",
		"gesture pinch 0.5 540 1200",
		"gesture pinch 0.5 --pointer-count 2",
		"gesture rotate -35",
		"gesture transform 200 420 10 10 1.5 45",
		"gesture drag id=a id=b",
		"gesture drag id=a",
		"gesture wave 1 2",
		"gesture",
		"gesture pan 1 2 3 4 --duration 5",
		"gesture pan 1 2 3 4 --pointer-count",
		"swipe 100 800 100 200",
		"swipe 100 800 100 200 --count 8 --pause-ms 30 --pattern ping-pong",
		"swipe 100 800 100 200 --count 201",
		"swipe 100 800 100 200 --count 0",
		"swipe 100 800 100 200 --pause-ms 10001",
		"swipe 100 800 100 200 --pattern zigzag",
		"swipe 100 800 100 200 --count 200 --pause-ms 201",
		"swipe 100 800 100 200 --count 200 --pause-ms 200",
		"swipe 100 800 x 200",
		"swipe 100 800 100 200 --pointer-count 2",
		"tap 1 2",
	}
	var b strings.Builder
	for _, line := range lines {
		cmd, err := canonical.ParseGestureCommand(strings.Fields(line))
		switch {
		case err != nil:
			fmt.Fprintf(&b, "%s\n  error %s\n", line, errorJSON(err))
		case cmd.Gesture != nil:
			data, _ := json.Marshal(cmd.Gesture)
			fmt.Fprintf(&b, "%s\n  gesture %s\n", line, data)
		default:
			data, _ := json.Marshal(cmd.Swipe)
			fmt.Fprintf(&b, "%s\n  swipe %s seriesMs=%d\n", line, data, cmd.Swipe.SeriesMs())
		}
	}
	snaps.MatchSnapshot(t, b.String())
}
