package phone

import (
	"fmt"
	"strings"
)

// A script is what the host sent on one shell stream, cut into simple
// commands. Android's /system/bin/sh (mksh) reads it; the fake understands
// the subset adb clients send: words with single quotes, double quotes and
// backslashes, sequences with ";", "&&", "||" and a trailing "&", and
// redirections, which it drops because the fake has no file descriptors to
// point them at. Variables and globs are left as written: no client of ours
// relies on expansion, and expanding them would hide a quoting bug that a
// real shell would expose.
type script []step

// step is one simple command and how it joins the previous one.
type step struct {
	join string // "", ";", "&&", "||", "&"
	argv []string
}

// syntaxError is a script the shell cannot read; the fake answers it as sh
// does, without running any part of it.
type syntaxError struct{ msg string }

func (e syntaxError) Error() string { return e.msg }

// parseScript tokenizes cmd. A `sh -c SCRIPT` step is replaced by the steps
// of SCRIPT, so a client that wraps its commands in sh -c reaches the same
// command table.
func parseScript(cmd string) (script, error) {
	words, err := tokenize(cmd)
	if err != nil {
		return nil, err
	}
	var out script
	cur := step{}
	flush := func(next string) error {
		if len(cur.argv) == 0 {
			// Only separators may follow nothing; "&&", "||", "|" and "&"
			// need a command before them, as in sh.
			if next != "" && next != ";" || next == "" && cur.join != "" && cur.join != ";" && cur.join != "&" {
				return syntaxError{fmt.Sprintf("syntax error: unexpected '%s'", next+cur.join)}
			}
			return nil
		}
		if next == "|" {
			return syntaxError{"fakeandroid: pipelines are not modelled"}
		}
		inner, err := expandShC(cur)
		if err != nil {
			return err
		}
		out = append(out, inner...)
		cur = step{join: next}
		return nil
	}
	for _, w := range words {
		if w.op != "" {
			if err := flush(w.op); err != nil {
				return nil, err
			}
			continue
		}
		cur.argv = append(cur.argv, w.text)
	}
	if err := flush(""); err != nil {
		return nil, err
	}
	return out, nil
}

// expandShC inlines `sh -c SCRIPT [NAME ARGS…]`; positional arguments are
// not supported because nothing sends them.
func expandShC(s step) ([]step, error) {
	if len(s.argv) < 3 || baseName(s.argv[0]) != "sh" || s.argv[1] != "-c" {
		return []step{s}, nil
	}
	inner, err := parseScript(s.argv[2])
	if err != nil {
		return nil, err
	}
	if len(inner) > 0 {
		inner[0].join = s.join
	}
	return inner, nil
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

type word struct {
	text string
	op   string // set for ";", "&&", "||", "&", "|"
}

// tokenize splits cmd into words and operators. Redirections (`<f`, `>f`,
// `2>&1`, `>>f`) are consumed with their target and dropped.
func tokenize(cmd string) ([]word, error) {
	var out []word
	var b strings.Builder
	inWord := false
	redirect := false // the next word is a redirection target
	end := func() {
		if !inWord {
			return
		}
		if redirect {
			redirect = false
		} else {
			out = append(out, word{text: b.String()})
		}
		b.Reset()
		inWord = false
	}
	r := []rune(cmd)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			end()
			if c == '\n' {
				out = append(out, word{op: ";"})
			}
		case c == '\'':
			j := i + 1
			for j < len(r) && r[j] != '\'' {
				j++
			}
			if j == len(r) {
				return nil, syntaxError{"syntax error: unterminated quoted string"}
			}
			b.WriteString(string(r[i+1 : j]))
			inWord = true
			i = j
		case c == '"':
			j := i + 1
			for ; j < len(r) && r[j] != '"'; j++ {
				// Inside double quotes a backslash escapes only these.
				if r[j] == '\\' && j+1 < len(r) && strings.ContainsRune("\"\\$`\n", r[j+1]) {
					j++
				}
				b.WriteRune(r[j])
			}
			if j == len(r) {
				return nil, syntaxError{"syntax error: unterminated quoted string"}
			}
			inWord = true
			i = j
		case c == '\\':
			if i+1 < len(r) {
				i++
				if r[i] != '\n' {
					b.WriteRune(r[i])
					inWord = true
				}
			}
		case c == ';' || c == '&' || c == '|':
			// "2>&1" is a redirection, not a background operator.
			end()
			op := string(c)
			if i+1 < len(r) && r[i+1] == c {
				op += string(c)
				i++
			}
			if op == ";;" {
				return nil, syntaxError{"syntax error: unexpected ';;'"}
			}
			out = append(out, word{op: op})
		case c == '<' || c == '>':
			// A bare fd number before the operator belongs to it.
			if inWord && isDigits(b.String()) {
				b.Reset()
				inWord = false
			} else {
				end()
			}
			if i+1 < len(r) && (r[i+1] == '>' || r[i+1] == '&') {
				i++
				if r[i] == '&' {
					// >&N duplicates a descriptor: consume the number.
					for i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9' {
						i++
					}
					continue
				}
			}
			redirect = true
		default:
			b.WriteRune(c)
			inWord = true
		}
	}
	end()
	if redirect {
		return nil, syntaxError{"syntax error: redirection without a target"}
	}
	return out, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
