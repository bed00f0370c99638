package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// fakeXcrunDir names the folder where the fake xcrun keeps its log.
const fakeXcrunDir = "FLOW_FAKE_XCRUN_DIR"

// fakeXcrun is the test binary run as xcrun (through a symlink named
// xcrun first on PATH): it logs each call and answers simctl and
// xcodebuild as a Mac with one booted simulator would. Output shapes:
// `simctl list -j devices` as Maestro's util/SimctlList.kt reads it;
// test-without-building starts the fake runner on
// TEST_RUNNER_FLOW_RUNNER_PORT and prints the runner's ready line
// (ios-runner/PROTOCOL.md).
func fakeXcrun(args []string) int {
	dir := os.Getenv(fakeXcrunDir)
	if f, err := os.OpenFile(filepath.Join(dir, "xcrun.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, strings.Join(args, " "))
		f.Close()
	}
	if len(args) == 0 {
		return 64
	}
	switch {
	case len(args) >= 3 && args[0] == "simctl" && args[1] == "list":
		second := "Shutdown"
		if os.Getenv("FLOW_FAKE_XCRUN_BOOTED") == "2" {
			second = "Booted"
		}
		fmt.Printf(`{"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [
  {"udid": "FAKE-UDID-1", "name": "iPhone 15", "state": "Booted", "isAvailable": true},
  {"udid": "FAKE-UDID-2", "name": "iPhone SE (3rd generation)", "state": "%s", "isAvailable": true}],
 "com.apple.CoreSimulator.SimRuntime.iOS-16-0": [
  {"udid": "FAKE-UDID-OLD", "name": "iPhone 8", "state": "Shutdown", "isAvailable": false}]}}`+"\n", second)
		return 0
	case args[0] == "simctl" && len(args) >= 2 && args[1] == "get_app_container":
		// The simulator has the fake runner's apps (sim's demo app) and the
		// bundles simctl install put there; for any other bundle id simctl
		// fails as it does for an app the simulator lacks
		// (appium/appium#15256). The installed bundle has the Info.plist
		// every app has.
		id := args[len(args)-1]
		if _, err := os.Stat(filepath.Join(dir, "apps", id+".app")); id != "com.example.shop" && err != nil {
			fmt.Fprintln(os.Stderr, "An error was encountered processing the command (domain=NSPOSIXErrorDomain, code=2):")
			fmt.Fprintln(os.Stderr, "The operation couldn’t be completed. No such file or directory")
			fmt.Fprintln(os.Stderr, "No such file or directory")
			return 2
		}
		app := filepath.Join(dir, "apps", args[len(args)-1]+".app")
		os.MkdirAll(app, 0o755)
		os.WriteFile(filepath.Join(app, "Info.plist"), []byte(`<plist version="1.0"><dict><key>CFBundleIdentifier</key><string>`+args[len(args)-1]+`</string></dict></plist>`), 0o644)
		fmt.Println(app)
		return 0
	case args[0] == "simctl" && len(args) >= 4 && args[1] == "io" && args[3] == "recordVideo":
		// Records until SIGINT, then writes the file, as simctl does.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		fmt.Fprintln(os.Stderr, "Recording started")
		<-ctx.Done()
		os.WriteFile(args[len(args)-1], []byte("fake mp4"), 0o644)
		return 0
	case args[0] == "simctl" && len(args) == 4 && args[1] == "install":
		// simctl install DEVICE PATH takes an app bundle: a folder with an
		// Info.plist naming CFBundleIdentifier (Apple's Information
		// Property List reference); simctl is closed source, so its
		// refusal here is ours in words, its exit status non-zero.
		plist, err := os.ReadFile(filepath.Join(args[3], "Info.plist"))
		if err != nil || !strings.Contains(string(plist), "<key>CFBundleIdentifier</key>") {
			fmt.Fprintf(os.Stderr, "An error was encountered processing the command: Failed to install the requested application: %s is not an application bundle with an Info.plist naming its bundle identifier\n", args[3])
			return 1
		}
		// Installed: get_app_container finds it from now on.
		if m := regexp.MustCompile(`<key>CFBundleIdentifier</key>\s*<string>([^<]+)</string>`).FindSubmatch(plist); m != nil {
			os.MkdirAll(filepath.Join(dir, "apps", string(m[1])+".app"), 0o755)
		}
		return 0
	case args[0] == "simctl":
		return 0 // boot, bootstatus, privacy, location, addmedia, uninstall, keychain
	case args[0] == "xcodebuild" && len(args) > 1 && args[1] == "build-for-testing":
		return fakeBuildForTesting(args[2:])
	case args[0] == "xcodebuild" && len(args) > 1 && args[1] == "test-without-building" && os.Getenv("FLOW_FAKE_XCRUN_RUNNER") == "hang":
		// A runner that never starts listening (a simulator stuck behind a
		// dialog): xcodebuild waits until it is ended.
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		fmt.Println("Test Suite 'FlowRunnerUITests' started")
		<-ctx.Done()
		return 65
	case args[0] == "xcodebuild" && len(args) > 1 && args[1] == "test-without-building":
		port := os.Getenv("TEST_RUNNER_FLOW_RUNNER_PORT")
		l, err := net.Listen("tcp", "127.0.0.1:"+port)
		if err != nil {
			fmt.Println("Testing failed:", err)
			return 65
		}
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		ctx, cancel := context.WithCancel(ctx)
		r := runner.New(runner.Options{Simulator: true, OnQuit: cancel})
		fmt.Println("Test Suite 'FlowRunnerUITests' started")
		fmt.Println("FLOW_RUNNER_READY port=" + port)
		r.Serve(ctx, l)
		fmt.Println("** TEST EXECUTE SUCCEEDED **")
		return 0
	}
	fmt.Fprintln(os.Stderr, "xcrun: error: unable to find utility", args[0])
	return 72
}

// fakeBuildForTesting lays out -derivedDataPath's Build/Products as Xcode
// 15 does for the FlowRunner scheme (an .xctestrun named
// <scheme>_<platform><sdk>-<archs>, the runner app under
// Debug-<platform> with its Info.plist), after checking the project it is given exists; with
// FLOW_FAKE_XCRUN_BUILD=fail it fails as a compile error does (exit 65).
func fakeBuildForTesting(args []string) int {
	var project, derived, dest, version string
	prefix := "dev.flow.runner" // the project's FLOW_BUNDLE_ID_PREFIX
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "CURRENT_PROJECT_VERSION="); ok {
			version = v
		}
		if v, ok := strings.CutPrefix(a, "FLOW_BUNDLE_ID_PREFIX="); ok {
			prefix = v
		}
	}
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "-project":
			project = args[i+1]
		case "-derivedDataPath":
			derived = args[i+1]
		case "-destination":
			dest = args[i+1]
		}
	}
	if _, err := os.Stat(filepath.Join(project, "project.pbxproj")); err != nil {
		fmt.Fprintln(os.Stderr, "xcodebuild: error: '"+project+"' does not exist.")
		return 66
	}
	if os.Getenv("FLOW_FAKE_XCRUN_BUILD") == "fail" {
		fmt.Fprintln(os.Stderr, "FlowRunnerUITests/Commands.swift:40:9: error: value of type 'XCUIApplication' has no member 'frobnicate'")
		fmt.Println("** TEST BUILD FAILED **")
		return 65
	}
	platform := "iphonesimulator"
	if !strings.Contains(dest, "Simulator") {
		platform = "iphoneos"
	}
	products := filepath.Join(derived, "Build", "Products")
	app := filepath.Join(products, "Debug-"+platform, "FlowRunnerUITests-Runner.app")
	os.MkdirAll(app, 0o755)
	// Xcode's generated Info.plist takes CFBundleVersion from
	// CURRENT_PROJECT_VERSION, and the UI-test runner app's id is the test
	// bundle's PRODUCT_BUNDLE_IDENTIFIER ($(FLOW_BUNDLE_ID_PREFIX).UITests)
	// + ".xctrunner".
	os.WriteFile(filepath.Join(app, "Info.plist"), []byte(`<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>CFBundleIdentifier</key><string>`+prefix+`.UITests.xctrunner</string>
<key>CFBundleVersion</key><string>`+version+`</string></dict></plist>`), 0o644)
	os.WriteFile(filepath.Join(products, "FlowRunner_"+platform+"17.5-arm64.xctestrun"), []byte("<plist/>"), 0o644)
	fmt.Println("** TEST BUILD SUCCEEDED **")
	return 0
}
