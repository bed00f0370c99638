import Foundation
import ObjectiveC

/// XCUITest waits for the app to be idle, animations included, before and
/// after each action; a flow that taps through a looping animation would
/// wait for ever. Maestro's runner turns that wait into a no-op, and so
/// does this one: flow settles the screen itself (`settle`).
enum Quiescence {
    /// XCUIApplicationProcess's waits (WebDriverAgent's
    /// PrivateHeaders/XCTest/XCUIApplicationProcess.h, iOS 26.4 SDK): one
    /// argument (Xcode before 15), isPreEvent: (15 on), and
    /// usingActivity:isPreEvent: (today's). XCTest calls whichever its
    /// version has, so all three are replaced.
    static let selectors = [
        "waitForQuiescenceIncludingAnimationsIdle:",
        "waitForQuiescenceIncludingAnimationsIdle:isPreEvent:",
        "waitForQuiescenceIncludingAnimationsIdle:usingActivity:isPreEvent:",
    ]

    static func disable() {
        guard let cls = NSClassFromString("XCUIApplicationProcess") else {
            NSLog("flow-runner: no XCUIApplicationProcess in this XCTest; quiescence waits stay on")
            return
        }
        var replaced: [String] = []
        // Each block is passed as its own typed value, as the runtime takes
        // blocks, never through a list of Any.
        func replace(_ name: String, with imp: IMP) {
            if let m = class_getInstanceMethod(cls, NSSelectorFromString(name)) {
                method_setImplementation(m, imp)
                replaced.append(name)
            }
        }
        let one: @convention(block) (AnyObject, Bool) -> Void = { _, _ in }
        let two: @convention(block) (AnyObject, Bool, Bool) -> Void = { _, _, _ in }
        let three: @convention(block) (AnyObject, Bool, Bool, Bool) -> Void = { _, _, _, _ in }
        replace(selectors[0], with: imp_implementationWithBlock(one))
        replace(selectors[1], with: imp_implementationWithBlock(two))
        replace(selectors[2], with: imp_implementationWithBlock(three))
        if replaced.isEmpty {
            NSLog("flow-runner: XCUIApplicationProcess has no quiescence wait to replace; quiescence waits stay on")
        } else {
            NSLog("%@", "flow-runner: quiescence waits replaced: \(replaced.joined(separator: ", "))")
        }
    }
}
