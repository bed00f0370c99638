package phone

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := []struct {
		in   string
		want [][]string // steps' argv; the join of each is in joins
		join []string
	}{
		{in: `getprop ro.build.version.sdk`, want: [][]string{{"getprop", "ro.build.version.sdk"}}, join: []string{""}},
		// adb 29 quotes install arguments; gadb and our client quote with Quote.
		{in: `cmd package 'install' '-r' -S 1234`, want: [][]string{{"cmd", "package", "install", "-r", "-S", "1234"}}, join: []string{""}},
		{in: `am start -a android.intent.action.VIEW -d "shop://item/a b"`, want: [][]string{{"am", "start", "-a", "android.intent.action.VIEW", "-d", "shop://item/a b"}}, join: []string{""}},
		{in: `echo 'it'\''s' "a \"q\" \$x"`, want: [][]string{{"echo", "it's", `a "q" $x`}}, join: []string{""}},
		{in: `am force-stop a; am start -W -n a/.Main && echo ok || echo no`,
			want: [][]string{{"am", "force-stop", "a"}, {"am", "start", "-W", "-n", "a/.Main"}, {"echo", "ok"}, {"echo", "no"}},
			join: []string{"", ";", "&&", "||"}},
		{in: `sh -c 'pm clear a && echo done'`, want: [][]string{{"pm", "clear", "a"}, {"echo", "done"}}, join: []string{"", "&&"}},
		{in: `rm -f '/data/local/tmp/x.apk' </dev/null`, want: [][]string{{"rm", "-f", "/data/local/tmp/x.apk"}}, join: []string{""}},
		{in: `screenrecord /sdcard/a.mp4 > /dev/null 2>&1 &`, want: [][]string{{"screenrecord", "/sdcard/a.mp4"}}, join: []string{""}},
		{in: `echo a2>f`, want: [][]string{{"echo", "a2"}}, join: []string{""}},
		{in: "echo a\necho b", want: [][]string{{"echo", "a"}, {"echo", "b"}}, join: []string{"", ";"}},
	}
	for _, c := range cases {
		sc, err := parseScript(c.in)
		if err != nil {
			t.Errorf("parseScript(%q): %v", c.in, err)
			continue
		}
		var got [][]string
		var joins []string
		for _, s := range sc {
			got = append(got, s.argv)
			joins = append(joins, s.join)
		}
		if !slices.EqualFunc(got, c.want, slices.Equal) || !slices.Equal(joins, c.join) {
			t.Errorf("parseScript(%q) = %q joins %q, want %q joins %q", c.in, got, joins, c.want, c.join)
		}
	}
}

func TestTokenizeRefuses(t *testing.T) {
	for _, in := range []string{`echo 'open`, `echo "open`, `&& echo`, `echo a &&`, `echo a | grep a`, `echo >`} {
		if sc, err := parseScript(in); err == nil {
			t.Errorf("parseScript(%q) = %v, want a syntax error", in, sc)
		}
	}
}

// Every reply fixture names its source on its first line and renders with
// every placeholder it has filled, so no reply can panic at its first use.
func TestFixtures(t *testing.T) {
	names, err := fs.Glob(fixtureFS, "testdata/*.txt")
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	ph := regexp.MustCompile(`\$\{([A-Za-z]+)\}`)
	for _, path := range names {
		data, _ := fs.ReadFile(fixtureFS, path)
		first, body, _ := strings.Cut(string(data), "\n")
		if !strings.HasPrefix(first, "# source: ") || len(first) < len("# source: ")+20 {
			t.Errorf("%s: first line %q does not name a source", path, first)
		}
		var vars []string
		for _, m := range ph.FindAllStringSubmatch(body, -1) {
			vars = append(vars, m[1], "<"+m[1]+">")
		}
		name := strings.TrimSuffix(strings.TrimPrefix(path, "testdata/"), ".txt")
		got := reply(name, vars...)
		if strings.Contains(got, "${") || strings.Contains(got, "# source") {
			t.Errorf("%s rendered as %q", name, got)
		}
	}
	if got := reply("pm-path", "path", "/a/${b}"); got != "package:/a/${b}" {
		t.Errorf("a value with ${ is rendered as %q", got)
	}
}
