import Foundation

/// The app's UIInterfaceOrientation from what the runner can read.
/// XCUIApplication answers it privately (agent-device reads the same);
/// reported is that answer, nil when this XCTest has none. Without it the
/// device's orientation stands in: the raw values coincide for the four
/// upright ones (a device turned landscape-left, 3, shows the interface
/// landscape-right, 3, and the other way round for 4), unless the window's
/// shape says the app did not rotate; lying flat (face up or down, 5 and 6)
/// or unknown, the window's shape decides alone.
public func interfaceOrientation(reported: Int?, device: Int, window: FlowRect) -> Int {
    if let n = reported, (Orientation.portrait...Orientation.landscapeLeft).contains(n) {
        return n
    }
    let wide = window.width > window.height
    switch device {
    case Orientation.portrait, Orientation.portraitUpsideDown:
        if !wide { return device }
    case Orientation.landscapeRight, Orientation.landscapeLeft:
        if wide { return device }
    default:
        break
    }
    return wide ? Orientation.landscapeRight : Orientation.portrait
}

/// One drag of hideKeyboard, in the app's oriented points.
public struct Drag: Equatable {
    public var from: FlowPoint
    public var to: FlowPoint

    public init(from: FlowPoint, to: FlowPoint) {
        self.from = from
        self.to = to
    }
}

/// How long each hideKeyboard drag lasts, and how long the keyboard is
/// given to go after one (Maestro's iOS hideKeyboard).
public let hideKeyboardDragMs = 50.0
public let hideKeyboardPauseSeconds = 0.3

/// Maestro's iOS hideKeyboard drags: from the middle of the window a
/// little up (50% to 47% of the height), then a little left (50% to 47% of
/// the width). Views that dismiss their keyboard on a drag take either.
public func hideKeyboardDrags(window w: FlowRect) -> [Drag] {
    let middle = FlowPoint(x: w.x + w.width * 0.5, y: w.y + w.height * 0.5)
    return [
        Drag(from: middle, to: FlowPoint(x: middle.x, y: w.y + w.height * 0.47)),
        Drag(from: middle, to: FlowPoint(x: w.x + w.width * 0.47, y: middle.y)),
    ]
}

/// The refusal when the keyboard stays up after both drags.
public let keyboardStaysError = RunnerError.commandFailed(
    "the keyboard is still shown after two short swipes",
    hint: "this screen does not dismiss its keyboard on a drag: tapOn its Done or Return key instead")

/// hideKeyboard: checks the keyboard before, between and after the drags;
/// answers whether one was shown, and fails when it stays.
public func hideKeyboard(window: FlowRect, shown: () -> Bool, drag: (Drag) throws -> Void,
                         pause: (Double) -> Void) throws -> Bool {
    guard shown() else { return false }
    for d in hideKeyboardDrags(window: window) {
        try drag(d)
        pause(hideKeyboardPauseSeconds)
        if !shown() { return true }
    }
    throw keyboardStaysError
}
