package ad

import (
	"strings"
	"testing"
)

// adShapes are the .ad scripts that made parsing quadratic or slow (issue
// 10), at about size bytes: one line of one long value, one line of many
// words, and many short lines.
func adShapes() map[string]func(size int) string {
	return map[string]func(size int) string{
		"long-quoted": func(size int) string { return "type \"" + strings.Repeat("a", size) + "\"\n" },
		"long-words":  func(size int) string { return "type " + strings.Repeat("a ", size/2) + "\n" },
		"long-words-non-ascii": func(size int) string {
			return "type " + strings.Repeat("é ", size/3) + "\n"
		},
		"many-lines": func(size int) string { return strings.Repeat("click 100 200\n", size/14) },
	}
}

// BenchmarkParseScript parses each shape at 4 MiB; MB/s is the parse rate.
func BenchmarkParseScript(b *testing.B) {
	for name, gen := range adShapes() {
		src := []byte(gen(4 << 20))
		b.Run(name+"-4MB", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				s, err := ParseScript("f.ad", src, ParseOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := CheckSupported(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLongLinePositions: the columns of a long line's words, counted in
// characters, stay exact with the running count that keeps long lines
// linear, also when asked out of order (an error about an earlier word).
func TestLongLinePositions(t *testing.T) {
	t.Parallel()
	raw := "  type " + strings.Repeat("é ", 1000) + "z"
	l := newSrcLine("f.ad", 1, raw)
	toks, err := tokenize(l)
	if err != nil {
		t.Fatal(err)
	}
	last := toks[len(toks)-1]
	if got, want := l.pos(last.off).Col, 3+5+2*1000; got != want {
		t.Errorf("last word at column %d, want %d", got, want)
	}
	if got := l.pos(toks[1].off).Col; got != 8 {
		t.Errorf("first argument at column %d after a later one, want 8", got)
	}
	if got, want := l.pos(toks[500].off).Col, 8+2*499; got != want {
		t.Errorf("word 500 at column %d, want %d", got, want)
	}
}
