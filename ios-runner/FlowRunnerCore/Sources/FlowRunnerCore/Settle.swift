import Foundation

/// Time as the settle loop and the focus wait see it: milliseconds of a
/// monotonic clock, and a pause. The runner uses the system's uptime and
/// its run loop; tests use a clock that moves only when told to.
public protocol RunnerClock {
    func nowMs() -> Double
    func sleep(ms: Double)
}

/// How often settle reads the screen while it waits.
public let settlePollMs = 50.0

/// The least time a read is given while settle has no good read yet: a
/// settle whose time is up still answers a screen if one can be read.
public let settleFirstReadMs = 1000.0

/// What settle answers: the last good read, whether it stayed unchanged for
/// quietMs, its version; reads and failures are counted for the log.
public struct Settled: Equatable {
    public var root: Element
    public var still: Bool
    public var version: String
    public var reads: Int
    public var failedReads: Int

    public var json: JSON {
        .object([("root", root.json), ("still", .bool(still)), ("version", .string(version)), ("opaque", .bool(false))])
    }
}

/// Reads the screen until it did not change for quietMs (still) or
/// timeoutMs passed (not still; not an error), comparing versions in the
/// runner so flow pays one round trip.
///
/// A large tree takes 0.2–2 s a read, and a read can fail while the app
/// changes screen: a failed read is skipped and the last good one kept, and
/// each read is given only the time left (read's argument, in ms), so one
/// slow or failed snapshot neither fails the settle nor overruns its
/// timeout. Only when no read at all succeeded is the last failure thrown.
public func settle(quietMs: Int, timeoutMs: Int, clock: RunnerClock, read: (Double) throws -> Element) throws -> Settled {
    let start = clock.nowMs()
    let deadline = start + Double(max(timeoutMs, 0))
    let quiet = Double(max(quietMs, 0))
    var last: Element?
    var version = ""
    var sameSince = start
    var lastError: Error?
    var reads = 0, failed = 0
    var still = false
    while true {
        let now = clock.nowMs()
        if last != nil && now - sameSince >= quiet {
            still = true
            break
        }
        let left = deadline - now
        if left <= 0 && (last != nil || reads + failed > 0) {
            break
        }
        do {
            let next = try read(last == nil ? max(left, settleFirstReadMs) : left)
            reads += 1
            let v = next.version
            if last == nil || v != version {
                last = next
                version = v
                sameSince = clock.nowMs()
            }
        } catch {
            failed += 1
            lastError = error
        }
        let after = clock.nowMs()
        if last != nil && after - sameSince >= quiet {
            continue
        }
        let remaining = deadline - after
        if remaining > 0 {
            clock.sleep(ms: min(settlePollMs, remaining))
        }
    }
    guard let root = last else {
        throw lastError ?? RunnerError.commandFailed("settle: no screen could be read")
    }
    return Settled(root: root, still: still, version: version, reads: reads, failedReads: failed)
}

/// Asks ready every everyMs until it answers true or timeoutMs passed;
/// answers its last answer.
public func waitUntil(timeoutMs: Double, everyMs: Double, clock: RunnerClock, _ ready: () -> Bool) -> Bool {
    let deadline = clock.nowMs() + timeoutMs
    while true {
        if ready() { return true }
        let left = deadline - clock.nowMs()
        if left <= 0 { return false }
        clock.sleep(ms: min(everyMs, left))
    }
}
