package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Rule says which project packages a package may import and which
// third-party modules it may use. Packages are module-relative paths; a rule
// for "exec/*" covers every adapter under exec.
type Rule struct {
	Project    []string // allowed project imports (module-relative); "*" allows all
	ThirdParty []string // allowed third-party path prefixes; "*" allows all
}

// Rules is the design card's import graph: canonical imports nothing of
// ours; planner and compat only canonical; the two input formats, maestro
// (YAML, with compat's quirks) and ad (.ad scripts), only canonical and
// compat for maestro; convert, where both formats are visible, imports ad
// and compat, and neither format imports it; exec never imports maestro,
// ad, convert or compat and adapters never import each other;
// the Go API (the module root) sees every product package, and only
// cmd/flow sees everything, the Go API included.
func Rules() map[string]Rule {
	return map[string]Rule{
		"canonical":         {},
		"planner":           {Project: []string{"canonical"}},
		"planner/plancases": {Project: []string{"canonical", "planner"}},
		"compat":            {Project: []string{"canonical"}, ThirdParty: []string{"gopkg.in/yaml.v3"}},
		"maestro":           {Project: []string{"canonical", "compat"}, ThirdParty: []string{"gopkg.in/yaml.v3", "github.com/santhosh-tekuri/jsonschema/v5"}},
		// The .ad script format's codec: its own syntax, not a Maestro shim.
		"ad": {Project: []string{"canonical"}},
		// Maestro flow <-> .ad script conversions.
		"convert":          {Project: []string{"canonical", "ad", "compat"}},
		"exec":             {Project: []string{"canonical", "planner"}, ThirdParty: []string{"github.com/dlclark/regexp2"}},
		"exec/js":          {Project: []string{"canonical"}, ThirdParty: []string{"github.com/dop251/goja", "github.com/dlclark/regexp2"}},
		"exec/report":      {Project: []string{"canonical", "exec"}},
		"exec/fsext":       {Project: []string{"canonical"}, ThirdParty: []string{"golang.org/x/sys"}},
		"exec/sim":         {Project: []string{"canonical", "planner", "exec"}, ThirdParty: []string{"gopkg.in/yaml.v3", "golang.org/x/image"}},
		"exec/android":     {Project: []string{"canonical", "planner", "planner/plancases", "exec", "exec/android/adb", "exec/uiautomator"}, ThirdParty: []string{"github.com/electricbubble/gadb"}},
		"exec/android/adb": {Project: []string{"canonical"}, ThirdParty: []string{"github.com/electricbubble/gadb"}},
		"exec/ios":         {Project: []string{"canonical", "planner", "planner/plancases", "exec", "exec/fsext", "exec/procgroup"}, ThirdParty: []string{"github.com/danielpaulus/go-ios"}},
		"exec/webdriver":   {Project: []string{"canonical", "planner", "planner/plancases", "exec", "exec/procgroup"}},
		"exec/procgroup":   {},
		"exec/fswatch":     {},
		"exec/uiautomator": {Project: []string{"canonical", "exec"}},
		"exec/appium":      {Project: []string{"canonical", "planner", "planner/plancases", "exec", "exec/uiautomator", "exec/webdriver"}},
		"helper-apk":       {Project: []string{"canonical", "planner", "planner/plancases", "exec/android"}},
		// The shipped helper's build command (go run ./helper-apk/cmd/builddist).
		"helper-apk/cmd/builddist": {Project: []string{"canonical", "helper-apk"}},
		"ios-runner":               {Project: []string{"canonical"}, ThirdParty: []string{"howett.net/plist"}},
		// The Go API (package flow, the module root): the surfaces' shared
		// engine; it sees every product package but the CLI.
		".": {Project: []string{"canonical", "ad", "compat", "convert", "maestro", "planner", "exec", "exec/android", "exec/android/adb", "exec/appium", "exec/fsext",
			"exec/ios", "exec/js", "exec/sim", "exec/webdriver", "helper-apk", "ios-runner"},
			ThirdParty: []string{"golang.org/x/text"}},
		// flow studio's server: drives the session cmd/flow hands it, and
		// appends an .ad line to a YAML flow through convert.
		"studio":                       {Project: []string{"canonical", "maestro", "convert", "exec", "exec/fsext", "exec/fswatch"}},
		"cmd/flow":                     {Project: []string{"*"}, ThirdParty: []string{"*"}},
		"internal/archtest":            {},
		"internal/browsertest":         {Project: []string{"exec/webdriver"}},
		"internal/appiumtest":          {},
		"internal/peakrss":             {},
		"internal/iosproject":          {ThirdParty: []string{"howett.net/plist"}},
		"internal/fakedevice":          {Project: []string{"exec", "exec/sim"}},
		"internal/fakeios":             {Project: []string{"internal/fakedevice", "internal/fakeios/runner"}},
		"internal/fakeios/runner":      {Project: []string{"canonical", "planner", "exec", "exec/ios", "exec/sim"}},
		"internal/fakeandroid":         {Project: []string{"internal/fakedevice", "internal/fakeandroid/adbd", "internal/fakeandroid/adbtest", "internal/fakeandroid/phone"}},
		"internal/fakeandroid/adbd":    {},
		"internal/fakeandroid/phone":   {Project: []string{"canonical", "planner", "exec", "exec/sim", "exec/android", "exec/android/adb", "internal/fakeandroid/adbd"}},
		"internal/fakeandroid/adbtest": {Project: []string{"internal/fakeandroid/adbd", "exec/android/adb"}},
	}
}

// testOnlyProject may be imported by any package's _test.go files.
func testOnlyProject() []string {
	return []string{"internal/appiumtest", "internal/browsertest", "internal/peakrss", "internal/fakeandroid/adbd", "internal/fakeandroid/adbtest", "internal/fakeios/runner"}
}

// testOnlyThirdParty may appear in any package's _test.go files.
func testOnlyThirdParty() []string {
	return []string{"github.com/gkampitakis/go-snaps"}
}

// Check parses every .go file under root in fsys and reports each import
// that breaks the rules, as "pkg imports dep (file)". module is the module
// path. A package directory with no rule is itself a violation, so a new
// package must be placed in the graph on purpose.
func Check(fsys fs.FS, module string, rules map[string]Rule) ([]string, error) {
	var problems []string
	fset := token.NewFileSet()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := path.Base(p)
			if p != "." && (strings.HasPrefix(base, ".") || base == "testdata" || base == "node_modules" || base == "vendor") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("parse %s: %w", p, err)
		}
		pkg := path.Dir(p)
		rule, ok := ruleFor(pkg, rules)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s has no place in the import graph (%s): add it to archtest.Rules", pkg, p))
			return nil
		}
		isTest := strings.HasSuffix(p, "_test.go")
		for _, imp := range f.Imports {
			dep, _ := strconv.Unquote(imp.Path.Value)
			if msg := checkImport(pkg, dep, module, rule, isTest); msg != "" {
				problems = append(problems, fmt.Sprintf("%s (%s)", msg, p))
			}
		}
		return nil
	})
	sort.Strings(problems)
	return problems, err
}

func ruleFor(pkg string, rules map[string]Rule) (Rule, bool) {
	if r, ok := rules[pkg]; ok {
		return r, true
	}
	return Rule{}, false
}

func checkImport(pkg, dep, module string, rule Rule, isTest bool) string {
	if dep == module || strings.HasPrefix(dep, module+"/") {
		rel := strings.TrimPrefix(strings.TrimPrefix(dep, module), "/")
		if rel == "" {
			rel = "." // the module root, as its directory is named
		}
		if rel == pkg || allowedProject(rel, rule.Project) || (isTest && allowedProject(rel, testOnlyProject())) {
			return ""
		}
		return pkg + " must not import " + rel
	}
	first, _, _ := strings.Cut(dep, "/")
	if !strings.Contains(first, ".") {
		return "" // standard library
	}
	if allowed(dep, rule.ThirdParty) || (isTest && allowed(dep, testOnlyThirdParty())) {
		return ""
	}
	return pkg + " must not use " + dep
}

// allowedProject matches project packages exactly: "exec" allows the
// runtime, not its adapters.
func allowedProject(dep string, list []string) bool {
	for _, a := range list {
		if a == "*" || dep == a {
			return true
		}
	}
	return false
}

func allowed(dep string, list []string) bool {
	for _, a := range list {
		if a == "*" || dep == a || strings.HasPrefix(dep, a+"/") {
			return true
		}
	}
	return false
}
