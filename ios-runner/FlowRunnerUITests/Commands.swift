import XCTest

/// Runs flow-runner-v1 commands with XCUITest. Everything here runs on the
/// main thread, one command at a time (Server).
final class Commands {
    let started = Date()
    let springboard = XCUIApplication(bundleIdentifier: "com.apple.springboard")
    /// The app flow last read, launched or gestured on: commands without
    /// app ids (type, erase, keys) address it.
    var current: XCUIApplication?

    static let version = "1.0"

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
            let result: Result<JSON, RunnerError>
            do {
                result = .success(try run(command))
            } catch let e as RunnerError {
                result = .failure(e)
            } catch {
                result = .failure(.internalError("\(error)"))
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
            let app = XCUIApplication(bundleIdentifier: appId)
            if app.state == .unknown {
                throw RunnerError.commandFailed("\(appId) is not installed", hint: "check the appId")
            }
            app.terminate()
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

    func appState(_ app: XCUIApplication) -> AppState {
        AppState(orientation: interfaceOrientation(app), window: windowFrame(app))
    }

    /// The app's window: the first window's frame, else the app's own.
    func windowFrame(_ app: XCUIApplication) -> FlowRect {
        let window = app.windows.firstMatch
        let f = window.exists ? window.frame : app.frame
        return FlowRect(x: Double(f.origin.x), y: Double(f.origin.y), width: Double(f.size.width), height: Double(f.size.height))
    }

    /// UIInterfaceOrientation from the device's orientation. Their raw
    /// values coincide for the four upright ones: a device turned
    /// landscape-left (3) shows the interface landscape-right (3), and the
    /// other way round for 4. Lying flat, the window's shape decides.
    func interfaceOrientation(_ app: XCUIApplication) -> Int {
        let raw = XCUIDevice.shared.orientation.rawValue
        if (1...4).contains(raw) {
            return raw
        }
        let w = windowFrame(app)
        return w.width > w.height ? Orientation.landscapeRight : Orientation.portrait
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
        var app = current ?? springboard
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
        let app = current ?? springboard
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

    /// Types into the field that has keyboard focus; typeText on an app
    /// with no focused field would fail the test instead of answering.
    func typeIntoFocus(_ text: String) throws {
        let app = current ?? springboard
        guard app.keyboards.count > 0 else {
            throw RunnerError.commandFailed("no text field has keyboard focus", hint: "tapOn the field first")
        }
        app.typeText(text)
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

    /// Maestro's iOS hideKeyboard: two short swipes down in mid-screen, which
    /// dismiss a keyboard of a scroll view that dismisses on drag; the
    /// keyboard is checked before and after.
    func hideKeyboard() throws -> JSON {
        let app = current ?? springboard
        guard app.keyboards.count > 0 else {
            return .object([("wasShown", .bool(false))])
        }
        let state = appState(app)
        let w = state.window
        let from = FlowPoint(x: w.x + w.width / 2, y: w.y + w.height * 0.45)
        let to = FlowPoint(x: from.x, y: w.y + w.height * 0.55)
        for _ in 0..<2 {
            let path: [PathEvent] = [
                .touch(toNative(from, frame: w, orientation: state.orientation), offset: 0),
                .move(toNative(to, frame: w, orientation: state.orientation), offset: 0.05),
                .lift(offset: 0.05),
            ]
            try perform(EventRecord(name: recordSwipe, interfaceOrientation: state.orientation, paths: [path]))
        }
        RunLoop.current.run(until: Date().addingTimeInterval(0.3))
        if app.keyboards.count > 0 {
            throw RunnerError.commandFailed("the keyboard is still shown after two swipes down",
                                            hint: "this screen does not dismiss its keyboard on a drag: tapOn its Done or Return key instead")
        }
        return .object([("wasShown", .bool(true))])
    }

    func launch(_ appId: String, arguments: [String], stop: Bool) throws {
        let app = XCUIApplication(bundleIdentifier: appId)
        if stop && app.state != .notRunning && app.state != .unknown {
            app.terminate()
        }
        app.launchArguments = arguments
        app.launch()
        // XCUIApplication.launch records an XCTest failure instead of
        // throwing when the app cannot start; the state tells.
        if app.state != .runningForeground && app.state != .runningBackground {
            throw RunnerError.commandFailed("\(appId) is not installed", hint: "check the appId")
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
