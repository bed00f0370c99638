package phone

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
)

// Every reply the fake prints comes from a file in testdata/ whose first
// line ("# source: …") names where the format was read: AOSP, Maestro or
// agent-device parse code, or helper-apk/PROTOCOL.md. The rest of the file
// is the reply with ${name} placeholders. Keeping formats out of the Go code
// means a reply is never invented inline, and a real-device capture can
// replace a file without touching the fake.
//
//go:embed testdata/*.txt
var fixtureFS embed.FS

var placeholder = regexp.MustCompile(`\$\{[A-Za-z]+\}`)

// reply renders fixture name with vars. A missing fixture or an unfilled
// placeholder is a bug in the fake, so it panics at the first use, which
// the fixture test exercises for every file.
func reply(name string, vars ...string) string {
	data, err := fixtureFS.ReadFile("testdata/" + name + ".txt")
	if err != nil {
		panic(fmt.Sprintf("fakeandroid: no reply fixture %q", name))
	}
	_, body, ok := strings.Cut(string(data), "\n")
	if !ok || !strings.HasPrefix(string(data), "# source: ") {
		panic(fmt.Sprintf("fakeandroid: fixture %q does not name its source on its first line", name))
	}
	// The file's last newline ends the file, not the reply: callers add
	// the line ends the command prints (Fprintln, lines).
	body = strings.TrimSuffix(body, "\n")
	if len(vars)%2 != 0 {
		panic("fakeandroid: reply vars come in name, value pairs")
	}
	values := map[string]string{}
	for i := 0; i < len(vars); i += 2 {
		values[vars[i]] = vars[i+1]
	}
	// One pass, so a value that itself contains "${" is printed as is.
	return placeholder.ReplaceAllStringFunc(body, func(m string) string {
		v, ok := values[m[2:len(m)-1]]
		if !ok {
			panic(fmt.Sprintf("fakeandroid: fixture %q left placeholder %s unfilled", name, m))
		}
		return v
	})
}
