package adb

import "strings"

// Quote writes arg as one word for the device's sh (mksh/toybox): as is
// when it holds only characters no shell treats specially, else in single
// quotes with each ' written '\”. adb joins a shell request's words with
// spaces and the device's shell splits them again, so every argument
// must be quoted for it to arrive whole.
func Quote(arg string) string {
	if arg == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("@%+=:,./_-", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

// commandLine joins argv into one shell command line.
func commandLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}
