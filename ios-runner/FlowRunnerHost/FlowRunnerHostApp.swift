import SwiftUI

/// The UI test's host: XCTest needs an app to attach a UI-test bundle to.
/// flow never looks at it; the runner drives other apps by bundle id.
@main
struct FlowRunnerHostApp: App {
    var body: some Scene {
        WindowGroup {
            Text("flow runner")
                .accessibilityIdentifier("flow-runner-host")
        }
    }
}
