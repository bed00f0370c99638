package convert

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// Conversions between Maestro flows and .ad scripts go through the
// canonical model both formats load into: [ToAd] writes canonical commands
// as .ad lines, [ToMaestro] as Maestro YAML. A conversion is exact or it
// fails: loading what it wrote gives the same canonical commands (ignoring
// source positions and the command's spelling), and a command the other
// format cannot express is refused with an UNSUPPORTED_OPERATION naming
// the command and why, never approximated. Every such command is reported,
// not only the first, so one run shows all the work a conversion needs.

// Conversion targets, as the CLI names them.
const (
	FormatAd      = "ad"
	FormatMaestro = "maestro"
)

// ConvertError is a conversion that cannot be exact: every problem found,
// in source order, each a *canonical.Error with the position of the
// command it concerns.
type ConvertError struct {
	To       string // FormatAd or FormatMaestro
	Problems []*canonical.Error
}

func (e *ConvertError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap exposes each problem to errors.As and errors.Is.
func (e *ConvertError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// commandName is how a command is named in messages: as it was written
// ("tapOn", "press") when known, else its canonical kind.
func commandName(c canonical.Command) string {
	if n := c.Base().Name; n != "" {
		return n
	}
	return c.Kind()
}

// noForm is the error for a command the target format cannot express.
func noForm(c canonical.Command, format string, reasons []string, hint string) *canonical.Error {
	target := ".ad"
	if format == FormatMaestro {
		target = "Maestro"
	}
	e := canonical.Errorf(canonical.CodeUnsupportedOperation, "%s has no exact %s form: %s",
		commandName(c), target, strings.Join(reasons, "; ")).
		At(c.Base().Pos).With("command", commandName(c)).With("to", format)
	if hint == "" {
		hint = "remove the command or rewrite it by hand; flow convert only writes conversions that load back to the same commands"
	}
	return e.WithHint(hint)
}

// commandJSON is a command's canonical JSON without its position and
// spelling: what "the same command" means for a conversion.
func commandJSON(c canonical.Command) (any, error) {
	data, err := canonical.EncodeCommand(c)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	delete(m, "at")
	delete(m, "as")
	if p, ok := m["point"].(string); ok && !strings.Contains(p, "${") {
		// A tap point is what Maestro reads from it: "235, 681" and
		// "235,681" tap at the same place.
		if x, y, percent, _, ok := canonical.ParseMaestroPoint(p); ok {
			unit := ""
			if percent {
				unit = "%"
			}
			m["point"] = fmt.Sprintf("%d%s,%d%s", x, unit, y, unit)
		}
	}
	return m, nil
}

// SameCommand reports whether two commands are the same for a conversion:
// equal canonical JSON once positions and spellings are left out.
func SameCommand(a, b canonical.Command) bool {
	ja, err1 := commandJSON(a)
	jb, err2 := commandJSON(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(ja, jb)
}

// mapStrings applies f to every string in a decoded JSON value.
func mapStrings(v any, f func(string) string) any {
	switch t := v.(type) {
	case string:
		return f(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = mapStrings(x, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = mapStrings(x, f)
		}
		return out
	}
	return v
}

func samePoints(a, b canonical.PlatformValue[canonical.Point]) bool {
	return reflect.DeepEqual(a, b)
}

func sameInts(a, b canonical.PlatformValue[int]) bool {
	return reflect.DeepEqual(a, b)
}

func oneOf(s string, set []string) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
