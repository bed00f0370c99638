import Foundation

/// One synthesized text record: XCPointerEventPath's initForTextInput path
/// typing text at typingSpeed, then a pause before the next record.
public struct TypingStep: Equatable {
    public var text: String
    public var typingSpeed: Int
    public var pauseAfter: Double

    public init(text: String, typingSpeed: Int, pauseAfter: Double = 0) {
        self.text = text
        self.typingSpeed = typingSpeed
        self.pauseAfter = pauseAfter
    }
}

/// Maestro's typing pace (maestro-ios-xctest-runner InputTextRouteHandler
/// and TextInputHelper): text, erase and keys at typing speed 30; the first
/// character of inputText alone at speed 1, then 0.5 s before the rest,
/// because autocorrection and hardware-keyboard listeners drop characters
/// that follow the first one too closely.
public let typingSpeed = 30
public let firstCharacterTypingSpeed = 1
public let firstCharacterPauseSeconds = 0.5

/// inputText as records: the first character (a whole grapheme, so an emoji
/// or an accented letter is never split) slowly, then the rest.
public func typingSteps(_ text: String) -> [TypingStep] {
    guard let first = text.first else { return [] }
    var steps = [TypingStep(text: String(first), typingSpeed: firstCharacterTypingSpeed)]
    let rest = String(text.dropFirst())
    if !rest.isEmpty {
        steps[0].pauseAfter = firstCharacterPauseSeconds
        steps.append(TypingStep(text: rest, typingSpeed: typingSpeed))
    }
    return steps
}

/// Keys (Enter, Backspace) and erase's deletes: one record at typing speed;
/// nothing for no keys.
public func keySteps(_ keys: String) -> [TypingStep] {
    keys.isEmpty ? [] : [TypingStep(text: keys, typingSpeed: typingSpeed)]
}

/// How long text entry looks for a field with the keyboard focus (Maestro's
/// eraseText waits 1 s for the keyboard, looking every 0.2 s).
public let focusWaitMs = 1000.0
public let focusPollMs = 200.0

/// What a typing command does when no field has the keyboard focus.
public enum WithoutFocus: Equatable {
    /// COMMAND_FAILED (noFocusError): the text would vanish and the flow
    /// fail later, far from its cause.
    case fail
    /// Nothing, successfully: the keys would have gone nowhere on a device
    /// too, and erasing is often defensive.
    case skip
}

/// How long a typing command waits for the focus, and what it does
/// without: inputText waits and fails (as flow's sim fails it); eraseText
/// waits as Maestro waits, then erases nothing (as Maestro and sim do);
/// Enter and Backspace are pressed at once or not at all (Maestro sends
/// them unchecked; sim ignores them without a field). nil for commands that
/// type nothing.
public func focusPolicy(_ command: Command) -> (waitMs: Double, without: WithoutFocus)? {
    switch command {
    case .typeText: return (focusWaitMs, .fail)
    case .erase: return (focusWaitMs, .skip)
    case .key: return (0, .skip)
    default: return nil
    }
}

/// The refusal when nothing has the keyboard focus: synthesized text goes
/// to the focused field, and with none it would vanish without a trace.
/// The wording is the Appium adapter's (exec/appium).
public func noFocusError(_ command: String) -> RunnerError {
    .commandFailed("\(command): no element has keyboard focus", hint: "tap the field first (tapOn), as on a phone")
}
