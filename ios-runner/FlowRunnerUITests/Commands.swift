import XCTest

/// Runs flow-runner-v1 commands with XCUITest. Everything here runs on the
/// main thread, one command at a time (Server).
final class Commands {
    let started = Date()
    let springboard = XCUIApplication(bundleIdentifier: "com.apple.springboard")
    /// The app flow last read, launched or gestured on: commands without
    /// app ids (type, erase, keys) address it.
    var current: XCUIApplication?
    /// XCTest failures recorded while the command runs (FlowRunnerTests
    /// diverts them here): XCUITest reports a launch that failed or text with
    /// no focused field that way instead of throwing.
    private(set) var issues: [String] = []

    static let version = "1.0"

    func noteIssue(_ description: String) {
        issues.append(description)
    }

    var isSimulator: Bool {
        #if targetEnvironment(simulator)
            return true
        #else
            return false
        #endif
    }

    /// Decodes, runs and answers one request body; quit is true for `quit`.
    func handle(_ body: Data) -> (answer: Data, quit: Bool) {
        let (id, decoded) = decodeRequest(body)
        switch decoded {
        case let .failure(e):
            return (encodeAnswer(commandId: id, .failure(e)), false)
        case let .success(command):
            issues = []
            var result: Result<JSON, RunnerError>
            do {
                result = .success(try run(command))
            } catch let e as RunnerError {
                result = .failure(e)
            } catch {
                result = .failure(.internalError("\(error)"))
            }
            if case .success = result, let issue = issues.first {
                // XCUITest did not do what it was asked, though it returned.
                result = .failure(.commandFailed("XCUITest: \(issue)",
                                                 hint: "check the device: the app may have gone, or no field has the keyboard focus"))
            }
            if case .quit = command {
                return (encodeAnswer(commandId: id, result), true)
            }
            return (encodeAnswer(commandId: id, result), false)
        }
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
            let app = foreground(appIds)
            return .object([("root", try Hierarchy.read(app, maxDepth: maxDepth).json)])
        case let .settle(appIds, maxDepth, quietMs, timeoutMs):
            return try settle(foreground(appIds), maxDepth: maxDepth, quietMs: quietMs, timeoutMs: timeoutMs)
        case let .viewport(appIds):
            return viewport(foreground(appIds))
        case let .gesture(plan, bundle):
            return try gesture(plan, bundle: bundle)
        case let .tap(x, y):
            try press(FlowPoint(x: x, y: y), hold: 0.05)
            return .object([])
        case let .longPress(x, y, holdMs):
            try press(FlowPoint(x: x, y: y), hold: Double(max(holdMs, 1)) / 1000)
            return .object([])
        case let .typeText(text):
            try typeIntoFocus(text)
            return .object([])
        case let .erase(count):
            if count > 0 {
                try typeIntoFocus(String(repeating: XCUIKeyboardKey.delete.rawValue, count: count))
            }
            return .object([])
        case let .key(name):
            switch name {
            case .enter: try typeIntoFocus(XCUIKeyboardKey.return.rawValue)
            case .backspace: try typeIntoFocus(XCUIKeyboardKey.delete.rawValue)
            }
            return .object([])
        case let .button(name):
            try pressButton(name)
            return .object([])
        case .hideKeyboard:
            return try hideKeyboard()
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
        case .quit:
            return .object([])
        }
    }

    /// The first of appIds that runs in the foreground, else the one flow
    /// used last if it does, else SpringBoard (the home screen, alerts).
    func foreground(_ appIds: [String]) -> XCUIApplication {
        for id in appIds {
            let app = XCUIApplication(bundleIdentifier: id)
            if app.state == .runningForeground {
                current = app
                return app
            }
        }
        if let app = current, app.state == .runningForeground {
            return app
        }
        return springboard
    }

    /// The app flow addresses when a command names none: the one it used
    /// last while that is in front, else SpringBoard.
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
        AppState(orientation: interfaceOrientation(app), window: windowFrame(app))
    }

    /// The app's window: the first window's frame, else the app's own.
    func windowFrame(_ app: XCUIApplication) -> FlowRect {
        let window = app.windows.firstMatch
        let f = window.exists ? window.frame : app.frame
        return FlowRect(x: Double(f.origin.x), y: Double(f.origin.y), width: Double(f.size.width), height: Double(f.size.height))
    }

    static let interfaceOrientationSelector = NSSelectorFromString("interfaceOrientation")

    /// The app's UIInterfaceOrientation. XCUIApplication answers it
    /// privately (agent-device reads the same), checked before it is asked.
    /// Without it the device's orientation stands in: the raw values
    /// coincide for the four upright ones (a device turned landscape-left,
    /// 3, shows the interface landscape-right, 3, and the other way round
    /// for 4), unless the window's shape says the app did not rotate; lying
    /// flat, the window's shape decides alone.
    func interfaceOrientation(_ app: XCUIApplication) -> Int {
        if app.responds(to: Commands.interfaceOrientationSelector),
           let n = app.value(forKey: "interfaceOrientation") as? NSNumber, (1...4).contains(n.intValue) {
            return n.intValue
        }
        let w = windowFrame(app)
        let wide = w.width > w.height
        let raw = XCUIDevice.shared.orientation.rawValue
        switch raw {
        case Orientation.portrait, Orientation.portraitUpsideDown:
            if !wide { return raw }
        case Orientation.landscapeRight, Orientation.landscapeLeft:
            if wide { return raw }
        default:
            break
        }
        return wide ? Orientation.landscapeRight : Orientation.portrait
    }

    func viewport(_ app: XCUIApplication) -> JSON {
        let w = windowFrame(app)
        var members: [(String, JSON)] = [
            ("x", .number(w.x)), ("y", .number(w.y)), ("w", .number(w.width)), ("h", .number(w.height)),
            ("orientation", .string(Orientation.name(interfaceOrientation(app)))),
        ]
        let keyboard = app.keyboards.firstMatch
        if keyboard.exists {
            let k = keyboard.frame
            members.append(("keyboard", .object([
                ("x", .number(Double(k.origin.x))), ("y", .number(Double(k.origin.y))),
                ("w", .number(Double(k.size.width))), ("h", .number(Double(k.size.height))),
            ])))
        }
        return .object(members)
    }

    /// Snapshots until none changed for quietMs (still) or timeoutMs passed
    /// (not still, not an error), comparing versions in the runner so flow
    /// pays one round trip.
    func settle(_ app: XCUIApplication, maxDepth: Int, quietMs: Int, timeoutMs: Int) throws -> JSON {
        let start = Date()
        var root = try Hierarchy.read(app, maxDepth: maxDepth)
        var version = root.version
        var sameSince = Date()
        var still = false
        while true {
            let now = Date()
            if now.timeIntervalSince(sameSince) * 1000 >= Double(quietMs) {
                still = true
                break
            }
            if now.timeIntervalSince(start) * 1000 >= Double(timeoutMs) {
                break
            }
            RunLoop.current.run(until: Date().addingTimeInterval(0.05))
            let next = try Hierarchy.read(app, maxDepth: maxDepth)
            if next.version != version {
                root = next
                version = next.version
                sameSince = Date()
            }
        }
        return .object([("root", root.json), ("still", .bool(still)), ("version", .string(version)), ("opaque", .bool(false))])
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
        try perform(record)
        let endMs = (ProcessInfo.processInfo.systemUptime * 1000).rounded()
        return .object([
            ("startUptimeMs", .number(startMs)), ("endUptimeMs", .number(endMs)),
            ("schedule", .string(schedule(for: plan).rawValue)),
        ])
    }

    /// Performs a record through the private event bridge.
    func perform(_ record: EventRecord) throws {
        let paths: [[[String: Any]]] = record.paths.map { events in
            events.map { e -> [String: Any] in
                switch e {
                case let .touch(p, o): return ["type": "touch", "offset": o, "x": p.x, "y": p.y]
                case let .move(p, o): return ["type": "move", "offset": o, "x": p.x, "y": p.y]
                case let .lift(o): return ["type": "lift", "offset": o]
                }
            }
        }
        var error: NSError?
        if !FlowPerformEventRecord(record.name, record.interfaceOrientation, paths, &error) {
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
            case let .success(r): try perform(r)
            }
            return
        }
        let origin = app.coordinate(withNormalizedOffset: CGVector(dx: 0, dy: 0))
        let at = origin.withOffset(CGVector(dx: p.x, dy: p.y))
        if hold <= 0.05 {
            at.tap()
        } else {
            at.press(forDuration: hold)
        }
    }

    /// Types into whatever has the keyboard focus in the app in front. The
    /// software keyboard is not required: with a hardware keyboard attached
    /// to a simulator it stays hidden while typing still works. Without a
    /// focused field XCUITest records an issue, which handle answers as
    /// COMMAND_FAILED.
    func typeIntoFocus(_ text: String) throws {
        front().typeText(text)
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

    /// Maestro's iOS hideKeyboard: with the keyboard up, a 50 ms swipe
    /// from mid-screen a little up (50% to 47% of the height); if that left
    /// it up, one a little left (50% to 47% of the width). Views that
    /// dismiss their keyboard on a drag take either. The keyboard is checked
    /// before, between and after; one that stays is COMMAND_FAILED.
    func hideKeyboard() throws -> JSON {
        let app = front()
        guard keyboardShown(app) else {
            return .object([("wasShown", .bool(false))])
        }
        let state = appState(app)
        let w = state.window
        let middle = FlowPoint(x: w.x + w.width * 0.5, y: w.y + w.height * 0.5)
        let ends = [FlowPoint(x: middle.x, y: w.y + w.height * 0.47), FlowPoint(x: w.x + w.width * 0.47, y: middle.y)]
        for end in ends {
            try swipe(app, from: middle, to: end, durationMs: 50, state: state)
            RunLoop.current.run(until: Date().addingTimeInterval(0.3))
            if !keyboardShown(app) {
                return .object([("wasShown", .bool(true))])
            }
        }
        throw RunnerError.commandFailed("the keyboard is still shown after two short swipes",
                                        hint: "this screen does not dismiss its keyboard on a drag: tapOn its Done or Return key instead")
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
            case let .success(r): try perform(r)
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
        current = app
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
