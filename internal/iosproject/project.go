package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// target is one Xcode target and the folders whose sources it compiles.
type target struct {
	name        string
	productType string
	product     string // file name of the built product
	productKind string // its explicitFileType
	bundleID    string
	dirs        []string // ios-runner/-relative folders compiled into it
	settings    [][2]string
	testHost    string // the app a UI test drives (TestTargetID)
}

// targets is the runner's layout (android-ios-design.md §B4): the host app,
// the never-ending UI test, and a logic-test bundle that runs the pure
// core's tests under Xcode as `swift test` runs them under SwiftPM. The
// core's sources compile into the UI test directly, so the test bundle needs
// no framework and go-ios finds one .xctest to start.
func targets() []target {
	return []target{
		{
			name: "FlowRunnerHost", productType: "com.apple.product-type.application",
			product: "FlowRunnerHost.app", productKind: "wrapper.application", bundleID: "$(FLOW_BUNDLE_ID_PREFIX).Host",
			dirs: []string{"FlowRunnerHost"},
			settings: [][2]string{
				{"INFOPLIST_KEY_UIApplicationSceneManifest_Generation", "YES"},
				{"INFOPLIST_KEY_UILaunchScreen_Generation", "YES"},
				{"LD_RUNPATH_SEARCH_PATHS", "(\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"@executable_path/Frameworks\",\n\t\t\t\t)"},
			},
		},
		{
			name: "FlowRunnerUITests", productType: "com.apple.product-type.bundle.ui-testing",
			product: "FlowRunnerUITests.xctest", productKind: "wrapper.cfbundle", bundleID: "$(FLOW_BUNDLE_ID_PREFIX).UITests",
			dirs: []string{"FlowRunnerUITests", "FlowRunnerCore/Sources/FlowRunnerCore"},
			settings: [][2]string{
				{"SWIFT_OBJC_BRIDGING_HEADER", "FlowRunnerUITests/FlowRunnerUITests-Bridging-Header.h"},
				{"TEST_TARGET_NAME", "FlowRunnerHost"},
				{"LD_RUNPATH_SEARCH_PATHS", "(\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"@executable_path/Frameworks\",\n\t\t\t\t\t\"@loader_path/Frameworks\",\n\t\t\t\t)"},
			},
			testHost: "FlowRunnerHost",
		},
		{
			name: "FlowRunnerCoreTests", productType: "com.apple.product-type.bundle.unit-test",
			product: "FlowRunnerCoreTests.xctest", productKind: "wrapper.cfbundle", bundleID: "$(FLOW_BUNDLE_ID_PREFIX).CoreTests",
			dirs: []string{"FlowRunnerCore/Sources/FlowRunnerCore", "FlowRunnerCore/Tests/FlowRunnerCoreTests"},
		},
	}
}

// notSources are Swift files that no target compiles, with the reason.
var notSources = map[string]string{
	"FlowRunnerCore/Package.swift": "the SwiftPM manifest: SwiftPM evaluates it, no target compiles it",
}

// IsSource reports whether a file is Swift or Objective-C source.
func isSource(p string) bool {
	switch path.Ext(p) {
	case ".swift", ".m", ".h":
		return true
	}
	return false
}

// id is a stable 96-bit object id, as Xcode's are, derived from what the
// object is so that regenerating changes nothing that did not change.
func id(key string) string {
	sum := sha256.Sum256([]byte("flow-runner.xcodeproj:" + key))
	return strings.ToUpper(hex.EncodeToString(sum[:12]))
}

var bare = regexp.MustCompile(`^[A-Za-z0-9_./]+$`)

// quote writes an OpenStep string: bare when Xcode would write it bare.
func quote(s string) string {
	if bare.MatchString(s) {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

func fileType(p string) string {
	switch path.Ext(p) {
	case ".swift":
		return "sourcecode.swift"
	case ".m":
		return "sourcecode.c.objc"
	}
	return "sourcecode.c.h"
}

// Generate returns the files of ios-runner/FlowRunner.xcodeproj for the
// sources found in root (the ios-runner folder), keyed by their path in
// it. A source under no target's folder is an error, so a new file can
// never be left out of the build silently.
func Generate(root fs.FS) (map[string][]byte, error) {
	var files []string
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), ".xcodeproj") || d.Name() == "testdata") && p != "." {
			return fs.SkipDir
		}
		if !d.IsDir() && isSource(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	ts := targets()
	members := map[string][]string{} // target → compiled files
	for _, f := range files {
		if _, skip := notSources[f]; skip {
			continue
		}
		found := false
		for _, t := range ts {
			for _, d := range t.dirs {
				if path.Dir(f) == d {
					found = true
					if path.Ext(f) != ".h" {
						members[t.name] = append(members[t.name], f)
					}
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("ios-runner/%s is in no target's folder; move it into one (internal/iosproject/project.go lists them) or list it in notSources", f)
		}
	}
	var refs []string
	for _, f := range files {
		if _, skip := notSources[f]; !skip {
			refs = append(refs, f)
		}
	}
	return map[string][]byte{
		"FlowRunner.xcodeproj/project.pbxproj":                                     pbxproj(ts, refs, members),
		"FlowRunner.xcodeproj/xcshareddata/xcschemes/FlowRunner.xcscheme":          scheme(ts[1], ts[0]),
		"FlowRunner.xcodeproj/xcshareddata/xcschemes/FlowRunnerCoreTests.xcscheme": scheme(ts[2], ts[2]),
	}, nil
}

type writer struct{ strings.Builder }

func (w *writer) f(format string, args ...any) { fmt.Fprintf(&w.Builder, format, args...) }

func pbxproj(ts []target, refs []string, members map[string][]string) []byte {
	var w writer
	project := id("project")
	mainGroup, products := id("group:"), id("group:Products")
	w.f("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n\n")

	w.f("/* Begin PBXBuildFile section */\n")
	for _, t := range ts {
		for _, f := range members[t.name] {
			w.f("\t\t%s /* %s in Sources */ = {isa = PBXBuildFile; fileRef = %s /* %s */; };\n",
				id("build:"+t.name+":"+f), path.Base(f), id("file:"+f), path.Base(f))
		}
	}
	w.f("/* End PBXBuildFile section */\n\n")

	w.f("/* Begin PBXContainerItemProxy section */\n")
	for _, t := range ts {
		if t.testHost == "" {
			continue
		}
		w.f("\t\t%s /* PBXContainerItemProxy */ = {\n\t\t\tisa = PBXContainerItemProxy;\n\t\t\tcontainerPortal = %s /* Project object */;\n"+
			"\t\t\tproxyType = 1;\n\t\t\tremoteGlobalIDString = %s;\n\t\t\tremoteInfo = %s;\n\t\t};\n",
			id("proxy:"+t.name), project, id("target:"+t.testHost), t.testHost)
	}
	w.f("/* End PBXContainerItemProxy section */\n\n")

	w.f("/* Begin PBXFileReference section */\n")
	for _, f := range refs {
		w.f("\t\t%s /* %s */ = {isa = PBXFileReference; lastKnownFileType = %s; path = %s; sourceTree = \"<group>\"; };\n",
			id("file:"+f), path.Base(f), fileType(f), quote(path.Base(f)))
	}
	for _, t := range ts {
		w.f("\t\t%s /* %s */ = {isa = PBXFileReference; explicitFileType = %s; includeInIndex = 0; path = %s; sourceTree = BUILT_PRODUCTS_DIR; };\n",
			id("product:"+t.name), t.product, t.productKind, quote(t.product))
	}
	w.f("/* End PBXFileReference section */\n\n")

	w.f("/* Begin PBXFrameworksBuildPhase section */\n")
	for _, t := range ts {
		w.f("\t\t%s /* Frameworks */ = {\n\t\t\tisa = PBXFrameworksBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n\t\t\t);\n"+
			"\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n", id("frameworks:"+t.name))
	}
	w.f("/* End PBXFrameworksBuildPhase section */\n\n")

	w.f("/* Begin PBXGroup section */\n")
	groups(&w, refs, ts, products)
	w.f("/* End PBXGroup section */\n\n")

	w.f("/* Begin PBXNativeTarget section */\n")
	for _, t := range ts {
		w.f("\t\t%s /* %s */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = %s /* Build configuration list for PBXNativeTarget \"%s\" */;\n"+
			"\t\t\tbuildPhases = (\n\t\t\t\t%s /* Sources */,\n\t\t\t\t%s /* Frameworks */,\n\t\t\t\t%s /* Resources */,\n\t\t\t);\n\t\t\tbuildRules = (\n\t\t\t);\n\t\t\tdependencies = (\n",
			id("target:"+t.name), t.name, id("configs:"+t.name), t.name, id("sources:"+t.name), id("frameworks:"+t.name), id("resources:"+t.name))
		if t.testHost != "" {
			w.f("\t\t\t\t%s /* PBXTargetDependency */,\n", id("dependency:"+t.name))
		}
		w.f("\t\t\t);\n\t\t\tname = %s;\n\t\t\tproductName = %s;\n\t\t\tproductReference = %s /* %s */;\n\t\t\tproductType = %s;\n\t\t};\n",
			t.name, t.name, id("product:"+t.name), t.product, quote(t.productType))
	}
	w.f("/* End PBXNativeTarget section */\n\n")

	w.f("/* Begin PBXProject section */\n")
	w.f("\t\t%s /* Project object */ = {\n\t\t\tisa = PBXProject;\n\t\t\tattributes = {\n\t\t\t\tBuildIndependentTargetsInParallel = 1;\n"+
		"\t\t\t\tLastSwiftUpdateCheck = 1500;\n\t\t\t\tLastUpgradeCheck = 1500;\n\t\t\t\tTargetAttributes = {\n", project)
	for _, t := range ts {
		w.f("\t\t\t\t\t%s = {\n\t\t\t\t\t\tCreatedOnToolsVersion = 15.0;\n", id("target:"+t.name))
		if t.testHost != "" {
			w.f("\t\t\t\t\t\tTestTargetID = %s;\n", id("target:"+t.testHost))
		}
		w.f("\t\t\t\t\t};\n")
	}
	w.f("\t\t\t\t};\n\t\t\t};\n\t\t\tbuildConfigurationList = %s /* Build configuration list for PBXProject \"FlowRunner\" */;\n"+
		"\t\t\tcompatibilityVersion = \"Xcode 14.0\";\n\t\t\tdevelopmentRegion = en;\n\t\t\thasScannedForEncodings = 0;\n"+
		"\t\t\tknownRegions = (\n\t\t\t\ten,\n\t\t\t\tBase,\n\t\t\t);\n\t\t\tmainGroup = %s;\n\t\t\tproductRefGroup = %s /* Products */;\n"+
		"\t\t\tprojectDirPath = \"\";\n\t\t\tprojectRoot = \"\";\n\t\t\ttargets = (\n", id("configs:project"), mainGroup, products)
	for _, t := range ts {
		w.f("\t\t\t\t%s /* %s */,\n", id("target:"+t.name), t.name)
	}
	w.f("\t\t\t);\n\t\t};\n/* End PBXProject section */\n\n")

	w.f("/* Begin PBXResourcesBuildPhase section */\n")
	for _, t := range ts {
		w.f("\t\t%s /* Resources */ = {\n\t\t\tisa = PBXResourcesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n\t\t\t);\n"+
			"\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n", id("resources:"+t.name))
	}
	w.f("/* End PBXResourcesBuildPhase section */\n\n")

	w.f("/* Begin PBXSourcesBuildPhase section */\n")
	for _, t := range ts {
		w.f("\t\t%s /* Sources */ = {\n\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n", id("sources:"+t.name))
		for _, f := range members[t.name] {
			w.f("\t\t\t\t%s /* %s in Sources */,\n", id("build:"+t.name+":"+f), path.Base(f))
		}
		w.f("\t\t\t);\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n")
	}
	w.f("/* End PBXSourcesBuildPhase section */\n\n")

	w.f("/* Begin PBXTargetDependency section */\n")
	for _, t := range ts {
		if t.testHost == "" {
			continue
		}
		w.f("\t\t%s /* PBXTargetDependency */ = {\n\t\t\tisa = PBXTargetDependency;\n\t\t\ttarget = %s /* %s */;\n\t\t\ttargetProxy = %s /* PBXContainerItemProxy */;\n\t\t};\n",
			id("dependency:"+t.name), id("target:"+t.testHost), t.testHost, id("proxy:"+t.name))
	}
	w.f("/* End PBXTargetDependency section */\n\n")

	w.f("/* Begin XCBuildConfiguration section */\n")
	for _, cfg := range []string{"Debug", "Release"} {
		w.f("\t\t%s /* %s */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n", id("config:project:"+cfg), cfg)
		for _, kv := range projectSettings(cfg) {
			w.f("\t\t\t\t%s = %s;\n", kv[0], settingValue(kv[1]))
		}
		w.f("\t\t\t};\n\t\t\tname = %s;\n\t\t};\n", cfg)
		for _, t := range ts {
			w.f("\t\t%s /* %s */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n", id("config:"+t.name+":"+cfg), cfg)
			for _, kv := range targetSettings(t) {
				w.f("\t\t\t\t%s = %s;\n", kv[0], settingValue(kv[1]))
			}
			w.f("\t\t\t};\n\t\t\tname = %s;\n\t\t};\n", cfg)
		}
	}
	w.f("/* End XCBuildConfiguration section */\n\n")

	w.f("/* Begin XCConfigurationList section */\n")
	lists := []struct{ key, what string }{{"project", "PBXProject \"FlowRunner\""}}
	for _, t := range ts {
		lists = append(lists, struct{ key, what string }{t.name, "PBXNativeTarget \"" + t.name + "\""})
	}
	for _, l := range lists {
		w.f("\t\t%s /* Build configuration list for %s */ = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n"+
			"\t\t\t\t%s /* Debug */,\n\t\t\t\t%s /* Release */,\n\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = Release;\n\t\t};\n",
			id("configs:"+l.key), l.what, id("config:"+l.key+":Debug"), id("config:"+l.key+":Release"))
	}
	w.f("/* End XCConfigurationList section */\n")
	w.f("\t};\n\trootObject = %s /* Project object */;\n}\n", project)
	return []byte(w.String())
}

// settingValue quotes a value unless it is already an OpenStep list.
func settingValue(v string) string {
	if strings.HasPrefix(v, "(") {
		return v
	}
	return quote(v)
}

func projectSettings(cfg string) [][2]string {
	s := [][2]string{
		{"ALWAYS_SEARCH_USER_PATHS", "NO"},
		{"CLANG_ENABLE_MODULES", "YES"},
		{"CLANG_ENABLE_OBJC_ARC", "YES"},
		{"CODE_SIGN_STYLE", "Automatic"},
		{"COPY_PHASE_STRIP", "NO"},
		{"ENABLE_STRICT_OBJC_MSGSEND", "YES"},
		// Explicit App IDs are unique across all teams, so only the first
		// team could sign fixed ids: a build for iPhones overrides the
		// prefix with one made of its team (ios-runner.BundleIDs).
		{"FLOW_BUNDLE_ID_PREFIX", "dev.flow.runner"},
		{"GCC_C_LANGUAGE_STANDARD", "gnu17"},
		{"IPHONEOS_DEPLOYMENT_TARGET", "15.0"},
		{"SDKROOT", "iphoneos"},
		{"SWIFT_VERSION", "5.0"},
		{"TARGETED_DEVICE_FAMILY", "1,2"},
	}
	if cfg == "Debug" {
		return append(s, [2]string{"DEBUG_INFORMATION_FORMAT", "dwarf"}, [2]string{"ENABLE_TESTABILITY", "YES"},
			[2]string{"GCC_OPTIMIZATION_LEVEL", "0"}, [2]string{"ONLY_ACTIVE_ARCH", "YES"},
			[2]string{"SWIFT_ACTIVE_COMPILATION_CONDITIONS", "DEBUG"}, [2]string{"SWIFT_OPTIMIZATION_LEVEL", "-Onone"})
	}
	return append(s, [2]string{"DEBUG_INFORMATION_FORMAT", "dwarf-with-dsym"}, [2]string{"SWIFT_COMPILATION_MODE", "wholemodule"},
		[2]string{"SWIFT_OPTIMIZATION_LEVEL", "-O"}, [2]string{"VALIDATE_PRODUCT", "YES"})
}

func targetSettings(t target) [][2]string {
	s := [][2]string{
		{"CURRENT_PROJECT_VERSION", "1"},
		{"GENERATE_INFOPLIST_FILE", "YES"},
		{"MARKETING_VERSION", "1.0"},
		{"PRODUCT_BUNDLE_IDENTIFIER", t.bundleID},
		{"PRODUCT_NAME", "$(TARGET_NAME)"},
	}
	s = append(s, t.settings...)
	sort.Slice(s, func(i, j int) bool { return s[i][0] < s[j][0] })
	return s
}

// groups writes one PBXGroup per folder, children sorted, folders first.
func groups(w *writer, refs []string, ts []target, products string) {
	dirs := map[string]bool{"": true}
	for _, f := range refs {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var all []string
	for d := range dirs {
		all = append(all, d)
	}
	sort.Strings(all)
	for _, d := range all {
		var sub, leaf []string
		for c := range dirs {
			if c != "" && parent(c) == d {
				sub = append(sub, c)
			}
		}
		for _, f := range refs {
			if parent(f) == d {
				leaf = append(leaf, f)
			}
		}
		sort.Strings(sub)
		gid := id("group:" + d)
		if d == "" {
			w.f("\t\t%s = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n", gid)
		} else {
			w.f("\t\t%s /* %s */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n", gid, path.Base(d))
		}
		for _, c := range sub {
			w.f("\t\t\t\t%s /* %s */,\n", id("group:"+c), path.Base(c))
		}
		for _, f := range leaf {
			w.f("\t\t\t\t%s /* %s */,\n", id("file:"+f), path.Base(f))
		}
		if d == "" {
			w.f("\t\t\t\t%s /* Products */,\n\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n", products)
			continue
		}
		w.f("\t\t\t);\n\t\t\tpath = %s;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n", quote(path.Base(d)))
	}
	w.f("\t\t%s /* Products */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n", products)
	for _, t := range ts {
		w.f("\t\t\t\t%s /* %s */,\n", id("product:"+t.name), t.product)
	}
	w.f("\t\t\t);\n\t\t\tname = Products;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n")
}

func parent(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// scheme is a shared scheme that builds host and tests test: the runner's
// scheme tests only the UI test (test-without-building runs every testable
// of the .xctestrun, and the UI test must be the one that starts).
func scheme(test, host target) []byte {
	ref := func(t target, indent string) string {
		return fmt.Sprintf("%s<BuildableReference\n%s   BuildableIdentifier = \"primary\"\n%s   BlueprintIdentifier = \"%s\"\n"+
			"%s   BuildableName = \"%s\"\n%s   BlueprintName = \"%s\"\n%s   ReferencedContainer = \"container:FlowRunner.xcodeproj\">\n%s</BuildableReference>\n",
			indent, indent, indent, id("target:"+t.name), indent, t.product, indent, t.name, indent, indent)
	}
	var w writer
	w.f("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Scheme\n   LastUpgradeVersion = \"1500\"\n   version = \"1.7\">\n")
	w.f("   <BuildAction\n      parallelizeBuildables = \"YES\"\n      buildImplicitDependencies = \"YES\">\n      <BuildActionEntries>\n")
	w.f("         <BuildActionEntry\n            buildForTesting = \"YES\"\n            buildForRunning = \"YES\"\n            buildForProfiling = \"YES\"\n"+
		"            buildForArchiving = \"YES\"\n            buildForAnalyzing = \"YES\">\n%s         </BuildActionEntry>\n", ref(host, "            "))
	w.f("      </BuildActionEntries>\n   </BuildAction>\n")
	w.f("   <TestAction\n      buildConfiguration = \"Debug\"\n      selectedDebuggerIdentifier = \"Xcode.DebuggerFoundation.Debugger.LLDB\"\n" +
		"      selectedLauncherIdentifier = \"Xcode.DebuggerFoundation.Launcher.LLDB\"\n      shouldUseLaunchSchemeArgsEnv = \"YES\">\n      <Testables>\n")
	w.f("         <TestableReference\n            skipped = \"NO\">\n%s         </TestableReference>\n", ref(test, "            "))
	w.f("      </Testables>\n   </TestAction>\n")
	w.f("   <LaunchAction\n      buildConfiguration = \"Debug\"\n      selectedDebuggerIdentifier = \"Xcode.DebuggerFoundation.Debugger.LLDB\"\n" +
		"      selectedLauncherIdentifier = \"Xcode.DebuggerFoundation.Launcher.LLDB\"\n      launchStyle = \"0\"\n      useCustomWorkingDirectory = \"NO\"\n" +
		"      ignoresPersistentStateOnLaunch = \"NO\"\n      debugDocumentVersioning = \"YES\"\n      debugServiceExtension = \"internal\"\n      allowLocationSimulation = \"YES\">\n")
	if host.productType == "com.apple.product-type.application" {
		w.f("      <BuildableProductRunnable\n         runnableDebuggingMode = \"0\">\n%s      </BuildableProductRunnable>\n", ref(host, "         "))
	}
	w.f("   </LaunchAction>\n</Scheme>\n")
	return []byte(w.String())
}
