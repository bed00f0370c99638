package maestro

import (
	"github.com/flow-runner/flow/canonical"
)

// checkChain refuses a flow whose blocks nest deeper than
// canonical.MaxNesting when it runs, counting its subflow files: each runs
// one level deeper than the command that runs it, so a chain of files can
// nest past the limit that checkShape holds in each file. Subflows are
// loaded (and checked) before the flow that runs them, and a file whose
// chain crosses the limit fails to load, so the problem is reported once,
// in the file where the chain crosses, at the command that crosses it; the
// files above report that their subflow has errors. The depth of every
// loaded flow is kept, so a subflow run from many places is walked once.
func (l *Loader) checkChain(f *canonical.Flow) *canonical.Error {
	if l.depths == nil {
		l.depths = map[*canonical.Flow]int{}
	}
	w := chainWalk{depths: l.depths}
	w.list(f.OnFlowStart, 0)
	w.list(f.Commands, 0)
	w.list(f.OnFlowComplete, 0)
	if w.at != nil {
		meta := w.at.Base()
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s nests the flow %s blocks deep through %s; the limit is %s",
			meta.Name, thousands(w.atDepth), w.via, thousands(canonical.MaxNesting)).At(meta.Pos).
			With("depth", w.atDepth).With("limit", canonical.MaxNesting).
			WithHint("each subflow file runs one level deeper than the command that runs it; a chain this deep is most likely a mistake: run the files one after the other instead of each from the one before")
	}
	l.depths[f] = w.deepest
	return nil
}

// chainWalk finds how deep a flow's blocks nest, and the first command
// whose subflow takes them past the limit.
type chainWalk struct {
	depths  map[*canonical.Flow]int
	deepest int
	at      canonical.Command
	atDepth int
	via     string
}

// list walks commands at level depth.
func (w *chainWalk) list(cmds []canonical.Command, depth int) {
	for _, c := range cmds {
		var inner []canonical.Command
		var sub *canonical.Flow
		var file string
		switch x := c.(type) {
		case *canonical.RunFlow:
			inner, sub, file = x.Commands, x.Flow, x.File
		case *canonical.Repeat:
			inner = x.Commands
		case *canonical.Retry:
			inner, sub, file = x.Commands, x.Flow, x.File
		}
		if len(inner) > 0 {
			w.deepest = max(w.deepest, depth+1)
			w.list(inner, depth+1)
		}
		if sub == nil {
			continue
		}
		d := depth + 1 + w.depths[sub]
		w.deepest = max(w.deepest, d)
		if d > canonical.MaxNesting && w.at == nil {
			w.at, w.atDepth, w.via = c, d, file
		}
	}
}
