import XCTest

/// The system's uptime in ms, and a pause that runs the main run loop so
/// that XCTest's own callbacks keep being served while the runner waits.
struct RunLoopClock: RunnerClock {
    func nowMs() -> Double { ProcessInfo.processInfo.systemUptime * 1000 }
    func sleep(ms: Double) { RunLoop.current.run(until: Date().addingTimeInterval(ms / 1000)) }
}

/// Runs body with Objective-C exceptions caught (FlowCatch.h): an
/// NSException raised inside becomes CaughtException, which the command
/// layer answers as COMMAND_FAILED (review R2).
func catchingObjC<T>(_ body: () throws -> T) throws -> T {
    // The block runs before FlowTry returns; withoutActuallyEscaping lets
    // it hold body whichever way Swift imports the block parameter.
    return try withoutActuallyEscaping(body) { body in
        var result: Result<T, Error>?
        var error: NSError?
        let ok = FlowTry({ result = Result { try body() } }, &error)
        guard ok, let r = result else {
            throw CaughtException(name: error?.userInfo[FlowExceptionNameKey] as? String ?? "NSException",
                                  reason: error?.userInfo[FlowExceptionReasonKey] as? String ?? "no reason given")
        }
        return try r.get()
    }
}

/// Runs flow-runner-v1 commands with XCUITest. XCUIApplication and
/// XCUIElement are main-actor types from Xcode 16.3 on (review R1): all of
/// this runs on the main actor, one command at a time (Server serializes
/// them). What needs no XCTest is FlowRunnerCore's and tested there:
/// decoding and the per-command error handling (Dispatch.swift), the
/// foreground app (Foreground.swift), orientation and hideKeyboard
/// (Screen.swift), settle (Settle.swift), typing (Typing.swift), snapshots
/// (Snapshot.swift).
@MainActor
final class Commands {
    let started = Date()
    let springboard = XCUIApplication(bundleIdentifier: springboardBundleId)
    let issues: IssueLog
    let clock = RunLoopClock()
    let hierarchy = Hierarchy()
    /// The bundle id of the app flow last read, launched or gestured on:
    /// commands without app ids (type, erase, keys) address it while it is
    /// in front.
    var current: String?
    /// Why the running apps could not be listed, logged once.
    private var runningAppsFailure: String?

    static let version = "1.0"

    init(issues: IssueLog) {
        self.issues = issues
    }

    var isSimulator: Bool {
        #if targetEnvironment(simulator)
            return true
        #else
            return false
        #endif
    }

    /// Decodes, runs and answers one request body; quit is true for `quit`.
    /// Every command runs inside an Objective-C catch and with XCTest's
    /// issues diverted to it: nothing a command does ends the session.
    func handle(_ body: Data) -> (answer: Data, quit: Bool) {
        handleRequest(body, issues: issues, guarded: { work in try catchingObjC(work) }, run: { command in
            try self.run(command)
        })
    }

    func run(_ command: Command) throws -> JSON {
        switch command {
        case .status:
            return .object([
                ("protocol", .string(runnerProtocol)), ("version", .string(Commands.version)),
                ("uptimeMs", .number((Date().timeIntervalSince(started) * 1000).rounded())),
                ("simulator", .bool(isSimulator)),
            ])
        case let .hierarchy(appIds, maxDepth):
            return .object([("root", try screen(foreground(appIds), maxDepth: maxDepth, capMs: nil).json)])
        case let .settle(appIds, maxDepth, quietMs, timeoutMs):
            let app = foreground(appIds)
            let settled = try settle(quietMs: quietMs, timeoutMs: timeoutMs, clock: clock) { capMs in
                try self.screen(app, maxDepth: maxDepth, capMs: capMs)
            }
            if settled.failedReads > 0 {
                NSLog("%@", "flow-runner: settle kept its last good read: \(settled.failedReads) of \(settled.reads + settled.failedReads) reads failed")
            }
            return settled.json
        case let .viewport(appIds):
            return viewport(foreground(appIds))
        case let .gesture(plan, bundle):
            return try gesture(plan, bundle: bundle)
        case let .tap(x, y):
            try press(FlowPoint(x: x, y: y), hold: tapLiftSeconds)
            return .object([])
        case let .longPress(x, y, holdMs):
            // holdMs is within 0...maxHoldMs (decodeRequest, R14).
            try press(FlowPoint(x: x, y: y), hold: Double(max(holdMs, 1)) / 1000)
            return .object([])
        case let .typeText(text):
            try typeSteps(typingSteps(text), whole: text, for: command)
            return .object([])
        case let .erase(count):
            // count is within 0...maxEraseCount (decodeRequest, R14).
            if count > 0 {
                let deletes = String(repeating: XCUIKeyboardKey.delete.rawValue, count: count)
                try typeSteps(keySteps(deletes), whole: deletes, for: command)
            }
            return .object([])
        case let .key(name):
            let key = name == .enter ? XCUIKeyboardKey.return.rawValue : XCUIKeyboardKey.delete.rawValue
            try typeSteps(keySteps(key), whole: key, for: command)
            return .object([])
        case let .button(name):
            try pressButton(name)
            return .object([])
        case .hideKeyboard:
            return try dismissKeyboard()
        case .screenshot:
            let png = XCUIScreen.main.screenshot().pngRepresentation
            return .object([("pngBase64", .string(png.base64EncodedString()))])
        case let .launch(appId, arguments, stop):
            try launch(appId, arguments: arguments, stop: stop)
            return .object([])
        case let .terminate(appId):
            let app = try installed(appId)
            if app.state != .notRunning {
                app.terminate()
            }
            return .object([])
        case let .openLink(link):
            try openLink(link)
            return .object([])
        case let .setOrientation(o):
            // As Maestro's SetOrientationHandler: the device turns, the app
            // follows if it supports the orientation; the runtime settles.
            XCUIDevice.shared.orientation = UIDeviceOrientation(rawValue: o.uiDeviceOrientation) ?? .portrait
            return .object([])
        case .quit:
            return .object([])
        }
    }

    /// The screen flow reads: the app's tree, with SpringBoard's alerts
    /// beside it (M4) unless SpringBoard is the app; capMs bounds each
    /// snapshot (settle), nil leaves XCTest's own timeout.
    func screen(_ app: XCUIApplication, maxDepth: Int, capMs: Double?) throws -> Element {
        let read: (XCUIApplication) throws -> Element = { a in
            if let cap = capMs {
                return try self.hierarchy.read(a, maxDepth: maxDepth, capMs: cap)
            }
            return try self.hierarchy.read(a, maxDepth: maxDepth)
        }
        let tree = try read(app)
        if app === springboard {
            return tree
        }
        // SpringBoard's read failing must not fail the app's (Maestro
        // ignores it too).
        return withSystemAlerts(tree, springboard: try? read(springboard))
    }

    /// The app in front (M3): flow's app ids first, then the app it used
    /// last, then every app the accessibility client lists as running;
    /// SpringBoard when none is in front. Foreground.swift decides; this
    /// only asks XCTest.
    func foreground(_ appIds: [String]) -> XCUIApplication {
        var states: [String: RunState] = [:]
        let state: (String) -> RunState = { id in
            if let s = states[id] { return s }
            let s = RunState(rawValue: Int(XCUIApplication(bundleIdentifier: id).state.rawValue)) ?? .unknown
            states[id] = s
            return s
        }
        var found = foregroundApp(requested: appIds, last: current, running: [], state: state)
        if found == nil {
            found = foregroundApp(requested: [], last: nil, running: runningApps(), state: state)
        }
        guard let id = found else { return springboard }
        current = id
        return XCUIApplication(bundleIdentifier: id)
    }

    /// The apps the device runs, as the accessibility client lists them;
    /// none when this XCTest cannot tell (logged once).
    func runningApps() -> [RunningApp] {
        var error: NSError?
        guard let list = FlowActiveApplications(&error) else {
            let why = error?.localizedDescription ?? "the running apps cannot be listed"
            if runningAppsFailure != why {
                runningAppsFailure = why
                NSLog("%@", "flow-runner: \(why); only flow's own apps can be found in front")
            }
            return []
        }
        return list.compactMap { d -> RunningApp? in
            guard let id = d["bundleId"] as? String, let pid = d["pid"] as? NSNumber else { return nil }
            return RunningApp(bundleId: id, pid: pid.int32Value)
        }
    }

    /// The app flow addresses when a command names none.
    func front() -> XCUIApplication {
        foreground([])
    }

    /// An app by bundle id, or COMMAND_FAILED when the device has no such
    /// app. XCUIApplication reports state unknown for a bundle id nothing is
    /// installed under (Appium's queryAppState reads it the same way).
    func installed(_ appId: String) throws -> XCUIApplication {
        let app = XCUIApplication(bundleIdentifier: appId)
        if app.state == .unknown {
            throw RunnerError.commandFailed("\(appId) is not installed", hint: "check the appId")
        }
        return app
    }

    func appState(_ app: XCUIApplication) -> AppState {
        AppState(orientation: orientation(of: app), window: windowFrame(app))
    }

    /// The app's window: the first window's frame, else the app's own.
    func windowFrame(_ app: XCUIApplication) -> FlowRect {
        let window = app.windows.firstMatch
        return hierarchy.rect(window.exists ? window.frame : app.frame)
    }

    static let interfaceOrientationSelector = NSSelectorFromString("interfaceOrientation")

    /// The app's UIInterfaceOrientation: XCUIApplication's private answer
    /// when it has one, else the fallback of Screen.swift.
    func orientation(of app: XCUIApplication) -> Int {
        var reported: Int?
        if app.responds(to: Commands.interfaceOrientationSelector),
           let n = app.value(forKey: "interfaceOrientation") as? NSNumber {
            reported = n.intValue
        }
        return interfaceOrientation(reported: reported, device: XCUIDevice.shared.orientation.rawValue, window: windowFrame(app))
    }

    func viewport(_ app: XCUIApplication) -> JSON {
        let w = windowFrame(app)
        var members: [(String, JSON)] = [
            ("x", .number(w.x)), ("y", .number(w.y)), ("w", .number(w.width)), ("h", .number(w.height)),
            ("orientation", .string(Orientation.name(orientation(of: app)))),
        ]
        let keyboard = app.keyboards.firstMatch
        if keyboard.exists {
            let k = hierarchy.rect(keyboard.frame)
            members.append(("keyboard", .object([
                ("x", .number(k.x)), ("y", .number(k.y)), ("w", .number(k.width)), ("h", .number(k.height)),
            ])))
        }
        return .object(members)
    }

    func gesture(_ plan: GesturePlan, bundle: String?) throws -> JSON {
        if let e = validate(plan) {
            throw e
        }
        if plan.pointers.count > 1 && !isSimulator {
            // ADR 0013: multi-touch is for simulators; flow refuses first.
            throw RunnerError.unsupported("two-contact gestures need a simulator")
        }
        var app = front()
        if let bundle = bundle, !bundle.isEmpty {
            app = XCUIApplication(bundleIdentifier: bundle)
        }
        let record: EventRecord
        switch synthesize(plan, app: appState(app)) {
        case let .failure(e): throw e
        case let .success(r): record = r
        }
        let startMs = (ProcessInfo.processInfo.systemUptime * 1000).rounded()
        try perform(record, on: app)
        let endMs = (ProcessInfo.processInfo.systemUptime * 1000).rounded()
        return .object([
            ("startUptimeMs", .number(startMs)), ("endUptimeMs", .number(endMs)),
            ("schedule", .string(schedule(for: plan).rawValue)),
        ])
    }

    /// Performs a record through the private event bridge, aimed at the
    /// app's process (R4: targetProcessID).
    func perform(_ record: EventRecord, on app: XCUIApplication) throws {
        var error: NSError?
        if !FlowPerformEventRecord(record.name, record.interfaceOrientation, record.bridgePaths, FlowProcessID(app), &error) {
            throw RunnerError.commandFailed(error?.localizedDescription ?? "the synthesized \(record.name) failed",
                                            hint: "this Xcode's XCTest may lack the private event API flow's gestures use; report it with `xcodebuild -version`")
        }
    }

    /// A tap (hold 0.05 s) or long press at a point, synthesized like every
    /// other touch; without the bridge, XCUICoordinate does it.
    func press(_ p: FlowPoint, hold: Double) throws {
        let app = front()
        if FlowEventBridgeAvailable() {
            switch tapRecord(p, holdSeconds: hold, app: appState(app)) {
            case let .failure(e): throw e
            case let .success(r): try perform(r, on: app)
            }
            return
        }
        let origin = app.coordinate(withNormalizedOffset: CGVector(dx: 0, dy: 0))
        let at = origin.withOffset(CGVector(dx: p.x, dy: p.y))
        if hold <= tapLiftSeconds {
            at.tap()
        } else {
            at.press(forDuration: hold)
        }
    }

    /// Whether a field of the app holds the keyboard focus: the software
    /// keyboard is up, or (a hardware keyboard attached to a simulator
    /// hides it) an element answers hasKeyboardFocus.
    func hasFocus(_ app: XCUIApplication) -> Bool {
        if app.keyboards.firstMatch.exists {
            return true
        }
        return app.descendants(matching: .any).matching(NSPredicate(format: "hasKeyboardFocus == YES")).firstMatch.exists
    }

    /// Types as Maestro and WebDriverAgent do (R5/R6): synthesized text
    /// records into the focused field, at Typing.swift's pace, with no
    /// XCUIElement.typeText focus checks or idle waits. Without a focused
    /// field the command fails or does nothing, as focusPolicy says; without
    /// the text bridge, typeText of the whole text does it.
    func typeSteps(_ steps: [TypingStep], whole: String, for command: Command) throws {
        let app = front()
        if let policy = focusPolicy(command),
           !waitUntil(timeoutMs: policy.waitMs, everyMs: focusPollMs, clock: clock, { self.hasFocus(app) }) {
            switch policy.without {
            case .fail: throw noFocusError(command.name)
            case .skip: return
            }
        }
        guard FlowTextBridgeAvailable() else {
            app.typeText(whole)
            return
        }
        let pid = FlowProcessID(app)
        for step in steps {
            var error: NSError?
            if !FlowTypeText(step.text, UInt(step.typingSpeed), pid, &error) {
                throw RunnerError.commandFailed("\(command.name): \(error?.localizedDescription ?? "the synthesized text failed")",
                                                hint: "this Xcode's XCTest may lack the private text API; report it with `xcodebuild -version`")
            }
            if step.pauseAfter > 0 {
                clock.sleep(ms: step.pauseAfter * 1000)
            }
        }
    }

    func pressButton(_ name: ButtonName) throws {
        switch name {
        case .home:
            XCUIDevice.shared.press(.home)
        case .lock:
            // No public API locks the screen; XCUIDevice answers a private
            // selector on every Xcode flow supports, checked before use.
            let sel = NSSelectorFromString("pressLockButton")
            guard XCUIDevice.shared.responds(to: sel) else {
                throw RunnerError.unsupported("this XCTest cannot press the lock button",
                                              hint: "remove pressKey: Lock from the flow for this device")
            }
            _ = XCUIDevice.shared.perform(sel)
        }
    }

    /// Maestro's iOS hideKeyboard (Screen.swift): two short drags, the
    /// keyboard checked before, between and after.
    func dismissKeyboard() throws -> JSON {
        let app = front()
        let state = appState(app)
        let wasShown = try hideKeyboard(window: state.window, shown: { self.keyboardShown(app) }, drag: { d in
            try self.swipe(app, from: d.from, to: d.to, durationMs: hideKeyboardDragMs, state: state)
        }, pause: { seconds in
            self.clock.sleep(ms: seconds * 1000)
        })
        return .object([("wasShown", .bool(wasShown))])
    }

    func keyboardShown(_ app: XCUIApplication) -> Bool {
        app.keyboards.firstMatch.exists
    }

    /// A fastSwipe through the event bridge, or XCUICoordinate's drag when
    /// this XCTest has no bridge.
    func swipe(_ app: XCUIApplication, from: FlowPoint, to: FlowPoint, durationMs: Double, state: AppState) throws {
        if FlowEventBridgeAvailable() {
            switch swipeRecord(from: from, to: to, durationMs: durationMs, app: state) {
            case let .failure(e): throw e
            case let .success(r): try perform(r, on: app)
            }
            return
        }
        let origin = app.coordinate(withNormalizedOffset: CGVector(dx: 0, dy: 0))
        let start = origin.withOffset(CGVector(dx: from.x, dy: from.y))
        let end = origin.withOffset(CGVector(dx: to.x, dy: to.y))
        start.press(forDuration: 0.05, thenDragTo: end)
    }

    /// Maestro's launch: stop first unless told not to. launch() always
    /// starts the app afresh (it terminates a running one itself), so an
    /// app left running is brought to the front with activate() instead,
    /// keeping its state; the launch arguments then do not apply, as with
    /// `simctl launch` of a running app.
    func launch(_ appId: String, arguments: [String], stop: Bool) throws {
        let app = try installed(appId)
        let running = app.state != .notRunning
        if stop && running {
            app.terminate()
        }
        if running && !stop {
            app.activate()
        } else {
            app.launchArguments = arguments
            app.launch()
        }
        // A launch that failed is recorded as an XCTest issue, not thrown
        // (also for an app that is not installed, should its state not have
        // said so above).
        if let issue = issues.first {
            throw RunnerError.commandFailed("\(appId) could not be launched: \(issue)",
                                            hint: "check the appId; if the app crashes at launch, look at the device")
        }
        if app.state != .runningForeground {
            throw RunnerError.commandFailed("\(appId) did not come to the foreground",
                                            hint: "the app may crash at launch: look at the device")
        }
        current = appId
    }

    func openLink(_ link: String) throws {
        guard let url = URL(string: link) else {
            throw RunnerError.invalidArgs("openLink: \(link) is not a URL")
        }
        if #available(iOS 16.4, *) {
            XCUIDevice.shared.system.open(url)
            return
        }
        throw RunnerError.unsupported("openLink needs iOS 16.4 or later on this device",
                                      hint: "on an older simulator, open the link with `xcrun simctl openurl`")
    }
}
