package iosrunner

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The review rows whose fix lives only in the XCTest target (no Swift
// toolchain here, and nothing but a Mac runs XCTest) are held in place by
// reading the sources: each pattern is the fix itself, so removing the fix
// fails this test on Linux before a Mac ever builds the runner. What each
// fix does is verified only on a Mac (README.md, "What is verified where").
func TestXCTestOnlyFixesStayInTheSources(t *testing.T) {
	read := func(name string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("FlowRunnerUITests", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	cases := []struct {
		row, file, why string
		pattern        string
	}{
		// R1: XCUIApplication/XCUIElement are @MainActor from Xcode 16.3.
		{"R1", "Commands.swift", "Commands runs on the main actor", `@MainActor\s+final class Commands\b`},
		{"R1", "Hierarchy.swift", "Hierarchy runs on the main actor", `@MainActor\s+final class Hierarchy\b`},
		{"R1", "FlowRunnerTests.swift", "testServe runs on the main actor", `@MainActor\s+func testServe\(`},
		// R2: every command inside an Objective-C catch, every synthesis too.
		{"R2", "Commands.swift", "handle runs each command inside catchingObjC", `guarded: \{ work in try catchingObjC\(work\) \}`},
		{"R2", "Commands.swift", "catchingObjC goes through FlowTry", `FlowTry\(`},
		{"R2", "FlowCatch.m", "FlowTry catches NSException", `@catch \(NSException \*exception\)`},
		{"R2", "EventBridge.m", "touch synthesis is caught", `(?s)BOOL FlowPerformEventRecord\(.*?@try \{.*?@catch \(NSException`},
		{"R2", "EventBridge.m", "text synthesis is caught", `(?s)BOOL FlowTypeText\(.*?@try \{.*?@catch \(NSException`},
		// R3: issues go to the locked IssueLog, from whatever thread.
		{"R3", "FlowRunnerTests.swift", "record(_:) notes into the IssueLog", `(?s)override func record\(_ issue: XCTIssue\) \{\s*if issues\.note\(`},
		// R4: the record names the app's process.
		{"R4", "EventBridge.m", "records get setTargetProcessID:", `\[record setTargetProcessID:targetProcessID\]`},
		{"R4", "Commands.swift", "touches pass the app's pid", `FlowPerformEventRecord\([^)]*FlowProcessID\(app\)`},
		// R5/R6: all three quiescence waits, text through synthesized records.
		{"R5/R6", "Quiescence.swift", "the one-argument wait", `"waitForQuiescenceIncludingAnimationsIdle:"`},
		{"R5/R6", "Quiescence.swift", "the isPreEvent: wait", `"waitForQuiescenceIncludingAnimationsIdle:isPreEvent:"`},
		{"R5/R6", "Quiescence.swift", "the usingActivity:isPreEvent: wait", `"waitForQuiescenceIncludingAnimationsIdle:usingActivity:isPreEvent:"`},
		{"R5/R6", "EventBridge.m", "text goes through initForTextInput", `initForTextInput\]`},
		{"R5/R6", "Commands.swift", "type uses Maestro's pace", `typeSteps\(typingSteps\(text\)`},
		// M5: the depth is capped at the AX client before the snapshot.
		{"M5", "FlowAX.m", "defaultParameters is patched", `NSSelectorFromString\(@"defaultParameters"\)`},
		{"M5", "FlowAX.m", "with maxDepth", `out\[@"maxDepth"\] = @\(depth\)`},
		{"M5", "Hierarchy.swift", "before every snapshot", `(?s)FlowCapSnapshotDepth\(.*?try snapshot\(app\)`},
		// M4 and M3: the app's tree gets SpringBoard's alerts; running apps are asked.
		{"M4", "Commands.swift", "SpringBoard's alerts join the app's tree", `withSystemAlerts\(tree, springboard:`},
		{"M3", "Commands.swift", "running apps are candidates", `running: runningApps\(\)`},
		// setOrientation turns the device as Maestro's SetOrientationHandler
		// does, with FlowRunnerCore's UIDeviceOrientation raw value.
		{"O1", "Commands.swift", "setOrientation sets XCUIDevice's orientation", `(?s)case let \.setOrientation\((\w+)\):.*?XCUIDevice\.shared\.orientation = UIDeviceOrientation\(rawValue: (\w+)\.uiDeviceOrientation\)`},
	}
	for _, c := range cases {
		if !regexp.MustCompile(c.pattern).MatchString(read(c.file)) {
			t.Errorf("%s: %s: %s is gone (pattern %s)", c.row, c.file, c.why, c.pattern)
		}
	}
	// The bridging header exposes every Objective-C header the Swift calls.
	header := read("FlowRunnerUITests-Bridging-Header.h")
	for _, h := range []string{"EventBridge.h", "FlowAX.h", "FlowCatch.h"} {
		if !strings.Contains(header, `#import "`+h+`"`) {
			t.Errorf("the bridging header does not import %s", h)
		}
	}
}
