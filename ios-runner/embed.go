package iosrunner

import (
	"embed"
	"io/fs"
)

// embedded is what a build needs: the project and every source it names.
// The Go files, the docs and testdata/ stay out; the Swift tests are in so
// the project opens whole.
//
//go:embed FlowRunner.xcodeproj FlowRunnerHost FlowRunnerUITests FlowRunnerCore
var embedded embed.FS

// Sources are the runner's sources as Build writes them out for xcodebuild.
func Sources() fs.FS { return embedded }
