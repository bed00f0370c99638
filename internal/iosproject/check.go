package main

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"howett.net/plist"
)

// pbxObject is one entry of a project's objects table, with the fields the
// check reads.
type pbxObject struct {
	ISA           string         `plist:"isa"`
	Path          string         `plist:"path"`
	SourceTree    string         `plist:"sourceTree"`
	Children      []string       `plist:"children"`
	Files         []string       `plist:"files"`
	FileRef       string         `plist:"fileRef"`
	Name          string         `plist:"name"`
	BuildPhases   []string       `plist:"buildPhases"`
	ConfigList    string         `plist:"buildConfigurationList"`
	Configs       []string       `plist:"buildConfigurations"`
	BuildSettings map[string]any `plist:"buildSettings"`
	MainGroup     string         `plist:"mainGroup"`
	Targets       []string       `plist:"targets"`
}

type pbxFile struct {
	Objects    map[string]pbxObject `plist:"objects"`
	RootObject string               `plist:"rootObject"`
}

var importLine = regexp.MustCompile(`(?m)^\s*#(?:import|include)\s+"([^"]+)"`)

// Check reads a project.pbxproj as Xcode does and returns what is wrong
// with it for the sources in root (the ios-runner folder): a Swift or
// Objective-C source that no target compiles, a build-phase or referenced
// file that does not exist, a header that nothing of the build includes.
// It shares no code with Generate on purpose: it reads the file, not the
// generator's intentions.
func Check(pbxproj []byte, root fs.FS) ([]string, error) {
	var file pbxFile
	if _, err := plist.Unmarshal(pbxproj, &file); err != nil {
		return nil, fmt.Errorf("project.pbxproj is not a property list: %w", err)
	}
	proj, ok := file.Objects[file.RootObject]
	if !ok || proj.ISA != "PBXProject" {
		return nil, fmt.Errorf("rootObject %q is not a PBXProject", file.RootObject)
	}

	// Each file reference's path, through its enclosing groups.
	paths := map[string]string{}
	var walk func(id, dir string)
	walk = func(id, dir string) {
		o := file.Objects[id]
		p := dir
		if o.Path != "" && o.SourceTree == "<group>" {
			p = path.Join(dir, o.Path)
		}
		switch o.ISA {
		case "PBXGroup":
			for _, c := range o.Children {
				walk(c, p)
			}
		case "PBXFileReference":
			if o.SourceTree == "<group>" {
				paths[id] = p
			}
		}
	}
	walk(proj.MainGroup, "")

	var problems []string
	compiled := map[string][]string{} // file → targets compiling it
	var headers []string              // bridging headers
	for _, tid := range proj.Targets {
		t := file.Objects[tid]
		for _, ph := range t.BuildPhases {
			phase := file.Objects[ph]
			if phase.ISA != "PBXSourcesBuildPhase" && phase.ISA != "PBXHeadersBuildPhase" {
				continue
			}
			for _, bf := range phase.Files {
				p, ok := paths[file.Objects[bf].FileRef]
				if !ok {
					problems = append(problems, fmt.Sprintf("target %s: build file %s names no file in the project's groups", t.Name, bf))
					continue
				}
				compiled[p] = append(compiled[p], t.Name)
			}
		}
		for _, c := range file.Objects[t.ConfigList].Configs {
			settings := file.Objects[c].BuildSettings
			if h, ok := settings["SWIFT_OBJC_BRIDGING_HEADER"].(string); ok {
				headers = append(headers, h)
			}
			// An explicit App ID belongs to the first team that signs it
			// (agent-device issue #145): every id must follow the prefix a
			// build for iPhones sets from its team.
			if id, _ := settings["PRODUCT_BUNDLE_IDENTIFIER"].(string); !strings.HasPrefix(id, "$(FLOW_BUNDLE_ID_PREFIX).") {
				problems = append(problems, fmt.Sprintf("target %s (%s): PRODUCT_BUNDLE_IDENTIFIER %q does not start with $(FLOW_BUNDLE_ID_PREFIX). (the signing team's prefix)", t.Name, file.Objects[c].Name, id))
			}
		}
	}
	prefixed := false
	for _, c := range file.Objects[proj.ConfigList].Configs {
		prefixed = prefixed || file.Objects[c].BuildSettings["FLOW_BUNDLE_ID_PREFIX"] == "dev.flow.runner"
	}
	if !prefixed {
		problems = append(problems, "the project sets no FLOW_BUNDLE_ID_PREFIX = dev.flow.runner (the ids of a build without a team)")
	}

	exists := map[string]bool{}
	var sources []string
	if err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), ".xcodeproj")) {
				return fs.SkipDir
			}
			return nil
		}
		exists[p] = true
		if isSource(p) {
			sources = append(sources, p)
		}
		return nil
	}); err != nil {
		return nil, err
	}

	for id, p := range paths {
		if !exists[p] {
			problems = append(problems, fmt.Sprintf("the project references %s (%s), which does not exist", p, id))
		}
	}
	for p := range compiled {
		if !exists[p] {
			problems = append(problems, fmt.Sprintf("a build phase compiles %s, which does not exist", p))
		}
	}
	for _, h := range headers {
		if !exists[h] {
			problems = append(problems, fmt.Sprintf("SWIFT_OBJC_BRIDGING_HEADER names %s, which does not exist", h))
		}
	}

	// A header is built when a bridging header is it, or when a built file
	// (or a built header) includes it by its name.
	included := map[string]bool{}
	queue := append([]string(nil), headers...)
	for p := range compiled {
		queue = append(queue, p)
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if path.Ext(p) == ".h" {
			included[p] = true
		}
		data, err := fs.ReadFile(root, p)
		if err != nil {
			continue
		}
		for _, m := range importLine.FindAllSubmatch(data, -1) {
			queue = append(queue, path.Join(path.Dir(p), string(m[1])))
		}
	}

	for _, s := range sources {
		if _, skip := notSources[s]; skip {
			continue
		}
		switch {
		case path.Ext(s) == ".h":
			if !included[s] && len(compiled[s]) == 0 {
				problems = append(problems, fmt.Sprintf("%s is included by nothing that is built (not a bridging header, not imported by a built file)", s))
			}
		case len(compiled[s]) == 0:
			problems = append(problems, fmt.Sprintf("%s is in no target's Sources build phase", s))
		}
	}
	sort.Strings(problems)
	return problems, nil
}
