package maestro

import (
	"io/fs"
	"math"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// The loader's limits. Each is far above what a hand-written flow needs
// and low enough that loading stays linear in the file and well under
// 1 GB of memory; docs/performance.md ("Loading") has the measurements.
const (
	// MaxFileSize bounds every file flow reads as text: flows, scripts,
	// workspace configs, app models, .ad scripts and capabilities files.
	// Real Maestro flows are a few kilobytes and stay under 1 MB. Parsed,
	// a flow takes up to about 110 bytes of memory per byte of YAML (a
	// yaml.v3 node is 160 bytes, and "a," is one): at 5 MB the worst case
	// peaks near 600 MB, at 10 MB it passed 1 GB. A larger file is almost
	// certainly not a flow (a log, a generated file gone wrong).
	MaxFileSize = 5 << 20

	// MaxMediaSize bounds an addMedia file. flow only checks it exists
	// and is a regular file; the device pushes it to its gallery, and a
	// phone video of several minutes fits.
	MaxMediaSize = 1 << 30

	// maxValues bounds the YAML values (scalars, lists, mappings) one flow
	// file writes. Each becomes up to about 500 bytes in memory (its
	// yaml.v3 node, then a selector in containsDescendants: [a, b, ...]):
	// a million values peak near 550 MB. A 100,000-command flow writes
	// 300,000 to 500,000; real flows a few thousand.
	maxValues = 1_000_000

	// maxBlockDepth bounds how deep command blocks (repeat, retry and
	// runFlow with inline commands, and the header's hooks) nest in one
	// file. Real flows nest two or three.
	maxBlockDepth = canonical.MaxNesting

	// maxValueDepth bounds how deep a command's own value nests (relative
	// selectors inside selectors, conditions), not counting the blocks it
	// holds. Real flows nest three or four; the schema's error reports
	// cost grows with the cube of this depth.
	maxValueDepth = 32

	// maxAliasValues and maxAliasBytes bound what aliases (*name) add to
	// a flow file: without a bound nine lines of nested aliases expand to
	// a billion values ("billion laughs"). Aliases may add as many values
	// as the file writes itself, or 100,000 when that is more, and 10 MB
	// of text; a flow without aliases is never refused by them.
	maxAliasValues = 100_000
	maxAliasBytes  = 10 << 20
)

// blockList is the key of a command's value that holds a nested command
// list, if the command has one.
func blockList(command string) (string, bool) {
	// A switch, not a map: it is asked for every command of every flow.
	switch command {
	case "repeat", "retry", "runFlow":
		return "commands", true
	}
	return "", false
}

// hookKeys are the header keys that hold command lists.
func hookKeys() []string { return []string{"onFlowStart", "onFlowComplete"} }

// CheckFileInfo refuses what flow must not read as a text file (what
// says which: "flow file", "runScript file"): anything but a regular file
// (a folder, a device such as /dev/zero, a FIFO, a socket), and a file
// over limit bytes. info is os.Stat's, so a symlink to a regular file is
// fine. The error has no position; the caller adds the one that names the
// file.
func CheckFileInfo(name, what string, info fs.FileInfo, limit int64) *canonical.Error {
	switch mode := info.Mode(); {
	case mode.IsDir():
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s %s is a folder, not a file", what, name).
			WithHint("name a file inside it")
	case !mode.IsRegular():
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s %s is %s, not a regular file", what, name, modeName(mode)).
			WithHint("flow reads only regular files; copy the content into a file and name that")
	case info.Size() > limit:
		return tooLarge(name, what, info.Size(), limit)
	}
	return nil
}

func tooLarge(name, what string, size, limit int64) *canonical.Error {
	sz := Bytes(size)
	if sz == Bytes(limit) {
		sz = thousands(int(size)) + " bytes"
	}
	return canonical.Errorf(canonical.CodeInvalidArgs, "%s %s is %s; the limit is %s", what, name, sz, Bytes(limit)).
		With("size", size).With("limit", limit).
		WithHint("check that the path names the file you meant; split a larger flow into subflows (runFlow)")
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// Bytes words a size for a message: 5 MiB, 1.5 MiB, 512 bytes (fractions
// are cut, not rounded).
func Bytes(n int64) string {
	unit := func(shift uint, name string) string {
		return strconv.FormatFloat(math.Floor(float64(n)/float64(int64(1)<<shift)*10)/10, 'f', -1, 64) + " " + name
	}
	switch {
	case n >= 1<<30:
		return unit(30, "GiB")
	case n >= 1<<20:
		return unit(20, "MiB")
	case n >= 1<<10:
		return unit(10, "KiB")
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// thousands writes n with thousands separators: 1,001.
func thousands(n int) string {
	s := strconv.Itoa(n)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// shape walks a flow file's documents once, before anything else reads
// them, and refuses what would make loading slow or unbounded: blocks or
// values nested past the limits, and aliases that expand past theirs. It
// reports the first crossing of each limit at the node that crosses it,
// with the depth the file reaches.
type shape struct {
	d *decoder
	// active are the anchored nodes being expanded through an alias: an
	// alias inside its own anchor is left to the decoder, which names it.
	active      map[*yaml.Node]bool
	aliasValues int
	aliasBytes  int
	valueLimit  int // aliasValueLimit of the file

	blockAt, valueAt *yaml.Node // where each limit was first crossed
	lastAlias        *yaml.Node // the alias being expanded, where its limit is reported
	valueCmd         string     // the command whose value crossed it
	maxBlock         int
	maxValue         int
	aliasErr         *canonical.Error
}

// checkShape returns the problems of a flow file's two documents.
func checkShape(d *decoder, header, commands *yaml.Node) []*canonical.Error {
	written := countNodes(header) + countNodes(commands)
	if written > maxValues {
		at := nthNode(maxValues+1, header, commands)
		return []*canonical.Error{d.errorf(at, "the flow holds %s values; the limit is %s", thousands(written), thousands(maxValues)).
			With("values", written).With("limit", maxValues).
			WithHint("each YAML scalar, list and mapping is a value; a flow this large is most likely generated by mistake: split it into subflows (runFlow: part.yaml)")}
	}
	s := &shape{d: d, active: map[*yaml.Node]bool{}, valueLimit: aliasValueLimit(written)}
	if h := resolve(header); h != nil && h.Kind == yaml.MappingNode {
		s.pairs(h, false, 1, func(k, v *yaml.Node, alias bool) {
			if contains(hookKeys(), k.Value) && isSeq(v) {
				s.list(v, 1, alias)
				return
			}
			s.value(v, 0, 1, "", alias)
		})
	} else {
		s.value(header, 0, 0, "", false)
	}
	if isSeq(commands) {
		s.list(commands, 0, false)
	} else {
		s.value(commands, 0, 0, "", false)
	}
	var out []*canonical.Error
	if s.blockAt != nil {
		out = append(out, d.errorf(s.blockAt, "the flow nests %s blocks deep; the limit is %s", thousands(s.maxBlock), thousands(maxBlockDepth)).
			With("depth", s.maxBlock).With("limit", maxBlockDepth).
			WithHint("repeat, retry and runFlow commands nest here; move the inner commands into a subflow file (runFlow: file.yaml) or flatten them"))
	}
	if s.valueAt != nil {
		out = append(out, d.errorf(s.valueAt, "%s nests %s levels deep; the limit is %s", s.valueCmd, thousands(s.maxValue), thousands(maxValueDepth)).
			With("depth", s.maxValue).With("limit", maxValueDepth).
			WithHint("relative selectors (below:, childOf: ...) this deep are most likely generated by mistake; select the element more directly"))
	}
	if s.aliasErr != nil {
		out = append(out, s.aliasErr)
	}
	return out
}

func isSeq(n *yaml.Node) bool {
	r := resolve(n)
	return r != nil && r.Kind == yaml.SequenceNode
}

// list walks a command list at block depth depth (the top list is 0).
func (s *shape) list(n *yaml.Node, depth int, alias bool) {
	n, alias = s.enter(n, alias)
	if n == nil {
		return
	}
	defer s.leave(n)
	for _, item := range n.Content {
		it, itAlias := s.enter(item, alias)
		if it == nil {
			continue
		}
		s.count(it, itAlias)
		if it.Kind == yaml.MappingNode {
			s.pairs(it, itAlias, depth, func(k, v *yaml.Node, alias bool) {
				s.command(k, v, depth, alias)
			})
		}
		s.leave(it)
	}
}

// command walks the value v of the command key k at block depth depth.
func (s *shape) command(k, v *yaml.Node, depth int, alias bool) {
	name := k.Value
	lists, hasLists := blockList(name)
	r := resolve(v)
	if !hasLists || r == nil || r.Kind != yaml.MappingNode {
		s.value(v, 0, depth, name, alias)
		return
	}
	r, alias = s.enter(v, alias)
	if r == nil {
		return
	}
	defer s.leave(r)
	s.count(r, alias)
	s.pairs(r, alias, depth, func(key, v *yaml.Node, alias bool) {
		if key.Value == lists && isSeq(v) {
			if depth+1 > s.maxBlock {
				s.maxBlock = depth + 1
			}
			if depth+1 > maxBlockDepth && s.blockAt == nil {
				s.blockAt = k
			}
			s.list(v, depth+1, alias)
			return
		}
		s.value(v, 1, depth, name, alias)
	})
}

// value walks a value nested level containers deep inside command cmd
// ("" outside commands, where depth is not limited).
func (s *shape) value(n *yaml.Node, level, depth int, cmd string, alias bool) {
	n, alias = s.enter(n, alias)
	if n == nil {
		return
	}
	defer s.leave(n)
	s.count(n, alias)
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return
	}
	level++
	if cmd != "" && level > s.maxValue {
		s.maxValue = level
	}
	if cmd != "" && level > maxValueDepth && s.valueAt == nil {
		s.valueAt, s.valueCmd = n, cmd
	}
	if n.Kind == yaml.SequenceNode {
		for _, c := range n.Content {
			s.value(c, level, depth, cmd, alias)
		}
		return
	}
	s.pairs(n, alias, depth, func(_, v *yaml.Node, alias bool) {
		s.value(v, level, depth, cmd, alias)
	})
}

// pairs calls f for each entry of mapping n, merged entries (<<) included
// as entries of n.
func (s *shape) pairs(n *yaml.Node, alias bool, depth int, f func(k, v *yaml.Node, alias bool)) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		s.count(k, alias)
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			m, mAlias := s.enter(v, alias)
			if m == nil {
				continue
			}
			sources := []*yaml.Node{m}
			if m.Kind == yaml.SequenceNode {
				sources = m.Content
			}
			for _, src := range sources {
				r, rAlias := s.enter(src, mAlias)
				if r != nil && r.Kind == yaml.MappingNode {
					s.pairs(r, rAlias, depth, f)
				}
				if r != nil && r != m {
					s.leave(r)
				}
			}
			s.leave(m)
			continue
		}
		f(k, v, alias)
	}
}

// enter resolves n, noting an alias expansion; it returns nil for an alias
// inside its own anchor and once the alias budget is spent.
func (s *shape) enter(n *yaml.Node, alias bool) (*yaml.Node, bool) {
	if n == nil || s.aliasErr != nil {
		return nil, alias
	}
	if n.Kind != yaml.AliasNode {
		return n, alias
	}
	r := resolve(n)
	if r == nil || s.active[r] {
		return nil, alias
	}
	s.active[r] = true
	s.lastAlias = n
	return r, true
}

// leave ends an expansion enter started (a no-op for plain nodes).
func (s *shape) leave(n *yaml.Node) { delete(s.active, n) }

// count charges one node reached through an alias to the alias budget;
// a refusal is reported at the alias being expanded.
func (s *shape) count(n *yaml.Node, alias bool) {
	if !alias || s.aliasErr != nil {
		return
	}
	s.aliasValues++
	s.aliasBytes += len(n.Value)
	if s.aliasValues > s.valueLimit {
		s.aliasErr = aliasValuesError(s.d, s.lastAlias, s.valueLimit)
	} else if s.aliasBytes > maxAliasBytes {
		s.aliasErr = s.d.errorf(s.lastAlias, "aliases repeat more than %s of text; the limit is %s", Bytes(maxAliasBytes), Bytes(maxAliasBytes)).
			With("limit", maxAliasBytes)
	}
	if s.aliasErr != nil {
		s.aliasErr = s.aliasErr.WithHint(aliasHint())
	}
}

// aliasValueLimit is how many values aliases may add to a document of
// written nodes.
func aliasValueLimit(written int) int { return max(written, maxAliasValues) }

func aliasValuesError(d *decoder, at *yaml.Node, limit int) *canonical.Error {
	return d.errorf(at, "aliases expand this flow by more than %s values; the limit is %s (as many as the file writes, at least %s)",
		thousands(limit), thousands(limit), thousands(maxAliasValues)).With("limit", limit).WithHint(aliasHint())
}

func aliasHint() string {
	return "every *name copies what &name marks, and nested aliases multiply; anchor smaller parts, or write the repetition out"
}

// nthNode is the nth node of the documents in file order (1-based), the
// one where a count limit is crossed.
func nthNode(n int, docs ...*yaml.Node) *yaml.Node {
	var found *yaml.Node
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x == nil || found != nil {
			return
		}
		if n--; n == 0 {
			found = x
			return
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	for _, doc := range docs {
		walk(doc)
	}
	return found
}

// countNodes counts a document's nodes as written, aliases not followed.
func countNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	c := 1
	for _, child := range n.Content {
		c += countNodes(child)
	}
	return c
}
