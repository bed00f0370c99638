package helperapk

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var (
	apiComment  = regexp.MustCompile(`^\s*// API (\d+)\s*$`)
	declName    = regexp.MustCompile(`^\s*(?:(?:public|protected|static|final|abstract)\s+)*(?:(?:class|interface|enum)\s+)?(?:[\w.<>\[\]]+\s+)?(\w+)\s*(?:\(|=|;|\{|extends|implements)`)
	sdkGuard    = regexp.MustCompile(`SDK_INT\s*>=\s*(\d+)`)
	lineComment = regexp.MustCompile(`//.*$`)
)

// stubMember is one declaration a stub holds and the API level that added it.
type stubMember struct {
	file, name string
	api        int
	ctor       bool
}

// checkStubs holds the stubs to what makes them worth compiling against:
// each file names its source, each public member the API level that added
// it, each member is one the android.* layer uses (stubs hold nothing
// else), and a member newer than minSdk is only reached behind a
// Build.VERSION.SDK_INT check, as Android lint's NewApi would demand.
func checkStubs(stubs, glue map[string]string, minSdk int) []string {
	var problems []string
	var members []stubMember
	for _, file := range sortedKeys(stubs) {
		src := stubs[file]
		if !strings.Contains(src, "Source: developer.android.com/reference/") {
			problems = append(problems, file+": the doc comment does not name its Source: developer.android.com/reference/…")
		}
		lines := strings.Split(src, "\n")
		for i, l := range lines {
			trimmed := strings.TrimSpace(l)
			if m := apiComment.FindStringSubmatch(l); m != nil {
				j := i + 1
				for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "@") {
					j++
				}
				d := declName.FindStringSubmatch(lines[min(j, len(lines)-1)])
				if d == nil {
					problems = append(problems, file+":"+strconv.Itoa(i+1)+": // API N must stand above a declaration")
					continue
				}
				api, _ := strconv.Atoi(m[1])
				name := d[1]
				ctor := regexp.MustCompile(`^\s*(?:public|protected)\s+` + name + `\s*\(`).MatchString(lines[j])
				members = append(members, stubMember{file: file, name: name, api: api, ctor: ctor})
				continue
			}
			if strings.HasPrefix(l, "    ") && strings.HasPrefix(trimmed, "public ") {
				prev := ""
				for k := i - 1; k >= 0; k-- {
					if p := strings.TrimSpace(lines[k]); !strings.HasPrefix(p, "@") {
						prev = lines[k]
						break
					}
				}
				if !apiComment.MatchString(prev) {
					problems = append(problems, file+":"+strconv.Itoa(i+1)+": public member without a // API N line above it: "+trimmed)
				}
			}
		}
	}

	code := map[string][]string{}
	for file, src := range glue {
		var lines []string
		for _, l := range strings.Split(src, "\n") {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*") {
				l = ""
			}
			lines = append(lines, lineComment.ReplaceAllString(l, ""))
		}
		code[file] = lines
	}
	for _, m := range members {
		use := regexp.MustCompile(`\b` + m.name + `\b`)
		if m.ctor {
			use = regexp.MustCompile(`new\s+(?:\w+\.)*` + m.name + `\s*\(|extends\s+` + m.name + `\b`)
		}
		used := false
		for _, file := range sortedKeys(glue) {
			lines := code[file]
			for i, l := range lines {
				if !use.MatchString(l) {
					continue
				}
				used = true
				if m.api > minSdk && guardLevel(lines, i) < m.api {
					problems = append(problems, file+":"+strconv.Itoa(i+1)+": "+m.name+" is API "+strconv.Itoa(m.api)+
						" (minSdk "+strconv.Itoa(minSdk)+") but no Build.VERSION.SDK_INT >= "+strconv.Itoa(m.api)+" guards it")
				}
			}
		}
		if !used {
			problems = append(problems, m.file+": "+m.name+" is not used by the android.* layer; stubs hold only what it calls")
		}
	}
	return problems
}

// guardLevel is the API level an SDK_INT check on line i, or on the if
// that encloses it, guarantees (0: none).
func guardLevel(lines []string, i int) int {
	level := func(l string) int {
		best := 0
		for _, m := range sdkGuard.FindAllStringSubmatch(l, -1) {
			n, _ := strconv.Atoi(m[1])
			best = max(best, n)
		}
		return best
	}
	if n := level(lines[i]); n > 0 {
		return n
	}
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	own := indent(lines[i])
	for k := i - 1; k >= 0; k-- {
		l := lines[k]
		if strings.TrimSpace(l) == "" || indent(l) >= own {
			continue
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "if (") {
			return level(l)
		}
		return 0
	}
	return 0
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func readAll(t *testing.T, files []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(f)] = string(data)
	}
	return out
}

// TestStubs checks stubs/ against the android.* layer (checkStubs). It
// needs no JDK.
func TestStubs(t *testing.T) {
	_, glue := javaSources(t)
	for _, p := range checkStubs(readAll(t, stubFiles(t)), readAll(t, glue), MinSDK) {
		t.Error(p)
	}
}

// TestCheckStubsCatches proves checkStubs can fail: an unguarded API 26
// call, an unused member, a member without its level, a file without its
// source.
func TestCheckStubsCatches(t *testing.T) {
	stubs := map[string]string{
		"stubs/android/view/Node.java": `package android.view;

/** Stub. Source: developer.android.com/reference/android/view/Node */
public class Node {
    // API 26
    public CharSequence getHintText() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public CharSequence getText() {
        throw new RuntimeException("Stub!");
    }

    public boolean isPassword() {
        throw new RuntimeException("Stub!");
    }

    // API 14
    public void unused() {
        throw new RuntimeException("Stub!");
    }
}`,
		"stubs/android/view/Other.java": "package android.view;\n\n/** Stub. */\npublic class Other {\n}\n",
	}
	glue := map[string]string{
		"src/A.java": `class A {
    CharSequence a(Node n) {
        if (Build.VERSION.SDK_INT >= 26) {
            return n.getHintText();
        }
        return Build.VERSION.SDK_INT >= 26 ? n.getHintText() : n.getText();
    }

    CharSequence b(Node n) {
        boolean p = n.isPassword();
        return n.getHintText();
    }
}`,
	}
	got := strings.Join(checkStubs(stubs, glue, 24), "\n")
	want := strings.Join([]string{
		"stubs/android/view/Node.java:15: public member without a // API N line above it: public boolean isPassword() {",
		"stubs/android/view/Other.java: the doc comment does not name its Source: developer.android.com/reference/…",
		"src/A.java:11: getHintText is API 26 (minSdk 24) but no Build.VERSION.SDK_INT >= 26 guards it",
		"stubs/android/view/Node.java: unused is not used by the android.* layer; stubs hold only what it calls",
	}, "\n")
	if got != want {
		t.Fatalf("checkStubs found:\n%s\nwant:\n%s", got, want)
	}
}
