import Foundation
import ObjectiveC

/// XCUITest waits for the app to be idle, animations included, before and
/// after each action; a flow that taps through a looping animation would
/// wait for ever. Maestro's runner turns that wait into a no-op, and so
/// does this one: flow settles the screen itself (`settle`).
enum Quiescence {
    static func disable() {
        guard let cls = NSClassFromString("XCUIApplicationProcess") else {
            NSLog("flow-runner: no XCUIApplicationProcess in this XCTest; quiescence waits stay on")
            return
        }
        var replaced = 0
        // Xcode 15 added an isPreEvent: argument; older ones have one.
        let oneArg = NSSelectorFromString("waitForQuiescenceIncludingAnimationsIdle:")
        if let m = class_getInstanceMethod(cls, oneArg) {
            let noop: @convention(block) (AnyObject, Bool) -> Void = { _, _ in }
            method_setImplementation(m, imp_implementationWithBlock(noop))
            replaced += 1
        }
        let twoArgs = NSSelectorFromString("waitForQuiescenceIncludingAnimationsIdle:isPreEvent:")
        if let m = class_getInstanceMethod(cls, twoArgs) {
            let noop: @convention(block) (AnyObject, Bool, Bool) -> Void = { _, _, _ in }
            method_setImplementation(m, imp_implementationWithBlock(noop))
            replaced += 1
        }
        if replaced == 0 {
            NSLog("flow-runner: XCUIApplicationProcess has no quiescence wait to replace; quiescence waits stay on")
        }
    }
}
