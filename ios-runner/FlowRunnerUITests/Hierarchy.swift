import XCTest

/// Reads an app's accessibility tree in one snapshot (a single round trip
/// to the app, where walking XCUIElement queries costs one per node) and
/// hands it to FlowRunnerCore as plain records; the mapping to the
/// protocol's elements is the core's (Snapshot.swift), tested without
/// XCTest.
@MainActor
final class Hierarchy {
    /// Private parts found missing, logged once each.
    private var reported = Set<String>()

    private func report(_ what: String) {
        if reported.insert(what).inserted {
            NSLog("%@", "flow-runner: \(what)")
        }
    }

    /// The app's tree, its depth capped at the accessibility client before
    /// the snapshot (M5: a deep tree then comes back trimmed instead of
    /// failing); when the snapshot fails anyway with
    /// kAXErrorIllegalArgument, Maestro's fallback: the app's parts read
    /// apart.
    func read(_ app: XCUIApplication, maxDepth: Int) throws -> Element {
        var error: NSError?
        if !FlowCapSnapshotDepth(max(1, maxDepth), &error) {
            report(error?.localizedDescription ?? "the snapshot depth cannot be capped")
        }
        do {
            return element(try snapshot(app), maxDepth: maxDepth)
        } catch let e as RunnerError where isIllegalArgumentSnapshotError(e.message) {
            NSLog("%@", "flow-runner: \(e.message); reading the app's parts apart")
            return try recover(app, maxDepth: maxDepth)
        }
    }

    /// read, with the accessibility client's timeout set to capMs for the
    /// read (R17: settle gives each read only the time it has left).
    func read(_ app: XCUIApplication, maxDepth: Int, capMs: Double) throws -> Element {
        var previous = 0.0
        var error: NSError?
        let capped = FlowSetSnapshotTimeout(max(capMs, 100) / 1000, &previous, &error)
        if !capped {
            report(error?.localizedDescription ?? "the snapshot timeout cannot be set")
        }
        defer {
            if capped {
                var restoreError: NSError?
                _ = FlowSetSnapshotTimeout(previous, nil, &restoreError)
            }
        }
        return try read(app, maxDepth: maxDepth)
    }

    /// One snapshot of an element, copied out; its failure is COMMAND_FAILED
    /// carrying XCTest's words (which the fallback looks for).
    func snapshot(_ e: XCUIElement) throws -> SnapshotRecord {
        do {
            return record(try e.snapshot())
        } catch {
            throw RunnerError.commandFailed("cannot read the screen of \(e.description): \(error.localizedDescription)",
                                            hint: "the app may be launching or gone: wait for it, or relaunch it")
        }
    }

    /// Maestro's ViewHierarchyHandler fallback: from the app's first child
    /// (its window) down to the first element that branches, read alone;
    /// the keyboard and an alert, which the content does not hold, read
    /// apart; under an application element with the app's frame and label.
    func recover(_ app: XCUIApplication, maxDepth: Int) throws -> Element {
        let window = app.children(matching: .any).firstMatch
        let start = try recoveryElement(from: window, limit: max(1, maxDepth), childCount: { e in
            try e.snapshot().children.count
        }, firstOtherChild: { e in
            let child = e.children(matching: .other).firstMatch
            return child.exists ? child : nil
        })
        let content = element(try snapshot(start), maxDepth: maxDepth)
        var keyboard: Element?
        if app.keyboards.firstMatch.exists, let k = try? snapshot(app.keyboards.firstMatch) {
            keyboard = element(k, maxDepth: maxDepth)
        }
        var alert: Element?
        if app.alerts.firstMatch.exists, let a = try? snapshot(app.alerts.firstMatch) {
            alert = element(a, maxDepth: maxDepth)
        }
        return recoveredTree(label: app.label, frame: rect(app.frame), parts: [keyboard, alert, content])
    }

    func record(_ s: XCUIElementSnapshot) -> SnapshotRecord {
        SnapshotRecord(
            elementType: s.elementType.rawValue,
            identifier: s.identifier,
            label: s.label,
            title: s.title,
            value: s.value,
            placeholder: s.placeholderValue,
            frame: rect(s.frame),
            enabled: s.isEnabled,
            selected: s.isSelected,
            hasFocus: hasKeyboardFocus(s),
            children: s.children.map { record($0) }
        )
    }

    func rect(_ f: CGRect) -> FlowRect {
        FlowRect(x: Double(f.origin.x), y: Double(f.origin.y), width: Double(f.size.width), height: Double(f.size.height))
    }

    static let keyboardFocus = NSSelectorFromString("hasKeyboardFocus")

    /// Whether the element holds the keyboard focus (the text field typing
    /// goes to). XCUIElementAttributes.hasFocus exists on tvOS only; on iOS
    /// the snapshot object answers the private hasKeyboardFocus, asked only
    /// after checking that it does, so an XCTest without it reads false.
    func hasKeyboardFocus(_ s: XCUIElementSnapshot) -> Bool {
        guard let object = s as? NSObject, object.responds(to: Hierarchy.keyboardFocus) else { return false }
        return (object.value(forKey: "hasKeyboardFocus") as? NSNumber)?.boolValue ?? false
    }
}
