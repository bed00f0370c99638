import Foundation
import Network

/// The runner's HTTP listener: one request per connection (HTTPRequestReader),
/// the command run on the main actor, where XCUITest must be called, one at
/// a time in arrival order; the answer is written and the connection closed.
///
/// One at a time is kept here, not left to the main queue: XCUITest and the
/// runner's own pauses spin the main run loop, which would start the next
/// request's block inside the running one. A request is handed to the main
/// actor only after the previous one has answered.
final class Server {
    private let listener: NWListener
    private let queue = DispatchQueue(label: "dev.flow.runner.server")
    private let handle: @MainActor (Data) -> (answer: Data, quit: Bool)
    /// Requests waiting for the one in progress; touched on queue only.
    private var pending: [(NWConnection, HTTPRequest)] = []
    private var busy = false
    let port: UInt16
    var onReady: (() -> Void)?
    var onStop: ((String?) -> Void)?

    init(port: UInt16, handle: @escaping @MainActor (Data) -> (answer: Data, quit: Bool)) throws {
        guard let p = NWEndpoint.Port(rawValue: port) else {
            throw RunnerError.invalidArgs("FLOW_RUNNER_PORT \(port) is not a port")
        }
        let params = NWParameters.tcp
        params.allowLocalEndpointReuse = true
        #if targetEnvironment(simulator)
            // A simulator shares the Mac's network: listening beyond
            // loopback would let the whole network drive it. flow connects
            // to 127.0.0.1 (exec/ios/simulator.go).
            params.requiredInterfaceType = .loopback
        #endif
        // On an iPhone, all interfaces: flow reaches the runner through
        // usbmuxd's forward or a tunnel, which connect from outside loopback.
        listener = try NWListener(using: params, on: p)
        self.port = port
        self.handle = handle
    }

    func start() {
        listener.stateUpdateHandler = { [weak self] state in
            switch state {
            case .ready:
                self?.onReady?()
            case let .failed(error):
                self?.onStop?("the listener failed: \(error)")
            default:
                break
            }
        }
        listener.newConnectionHandler = { [weak self] conn in
            self?.accept(conn)
        }
        listener.start(queue: queue)
    }

    func stop() {
        listener.cancel()
    }

    private func accept(_ conn: NWConnection) {
        conn.start(queue: queue)
        receive(conn, HTTPRequestReader())
    }

    private func receive(_ conn: NWConnection, _ reader: HTTPRequestReader) {
        conn.receive(minimumIncompleteLength: 1, maximumLength: 1 << 16) { [weak self] data, _, isComplete, error in
            guard let self = self else { return }
            if error != nil {
                conn.cancel()
                return
            }
            var reader = reader
            do {
                if let data = data, !data.isEmpty, let request = try reader.feed(data) {
                    self.serve(conn, request)
                    return
                }
            } catch let status as HTTPStatus {
                self.send(conn, httpResponse(status: status.code, reason: status.reason, contentType: "text/plain",
                                             body: Data(status.reason.utf8)))
                return
            } catch {
                conn.cancel()
                return
            }
            if isComplete {
                conn.cancel()
                return
            }
            self.receive(conn, reader)
        }
    }

    /// Queues a request (on queue) and starts it when nothing runs.
    private func serve(_ conn: NWConnection, _ request: HTTPRequest) {
        pending.append((conn, request))
        next()
    }

    /// Starts the oldest waiting request unless one runs (on queue).
    private func next() {
        guard !busy, !pending.isEmpty else { return }
        busy = true
        let (conn, request) = pending.removeFirst()
        let handle = self.handle
        Task { @MainActor in
            let (answer, quit) = handle(request.body)
            self.send(conn, httpResponse(body: answer)) {
                if quit {
                    self.onStop?(nil)
                }
            }
            self.queue.async {
                self.busy = false
                self.next()
            }
        }
    }

    private func send(_ conn: NWConnection, _ data: Data, then: (() -> Void)? = nil) {
        conn.send(content: data, completion: .contentProcessed { _ in
            conn.cancel()
            then?()
        })
    }
}
