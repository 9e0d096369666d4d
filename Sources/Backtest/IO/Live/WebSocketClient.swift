import BacktestCore
import CWebSockets
import Foundation

/// Where a WebSocket client connects: `ws://host[:port]/path?query` or `wss://...`.
package struct WebSocketAddress: Equatable, Sendable {
    package var secure: Bool
    package var host: String
    package var port: Int
    /// The path with its query, starting with `/`.
    package var path: String

    /// - Throws: `InputError` (setting `.wsURL`) for anything but a ws:// or wss:// URL with a host.
    package init(_ text: String, path extra: String = "") throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let host = url.host, !host.isEmpty else {
            throw InputError("is not a ws:// or wss:// URL with a host", setting: .wsURL, value: text)
        }
        secure = scheme == "wss"
        self.host = host
        port = url.port ?? (secure ? 443 : 80)
        guard (1...65_535).contains(port) else { throw InputError("has a port outside 1...65535", setting: .wsURL, value: text) }
        var p = url.percentEncodedPath
        if p.hasSuffix("/") { p.removeLast() }
        p += extra
        if p.isEmpty { p = "/" }
        if let q = url.percentEncodedQuery, !q.isEmpty { p += (p.contains("?") ? "&" : "?") + q }
        path = p
    }

    package var description: String { "\(secure ? "wss" : "ws")://\(host):\(port)\(path)" }
}

/// A WebSocket client connection through libwebsockets: one connection, serviced on its own
/// thread; what arrives is queued as `WebSocketEvent`s for the caller's thread to take with
/// `next(timeout:)`, so the caller never runs inside a libwebsockets callback. Pings are
/// answered by libwebsockets itself. Messages larger than `largestMessage` close the connection.
///
/// Lifetime: the service thread holds only the connection's state (`Connection`), never the
/// client, and ends by itself once the connection is gone (closed by either side, or failed),
/// destroying libwebsockets' context (its tables are sized by the descriptor limit: about
/// 320 KB at `ulimit -n` 20,000). `close()`, or dropping the client, stops it sooner; either way
/// nothing of a connection outlives it, however many a session makes.
///
/// The only file that calls libwebsockets.
package final class WebSocketClient: @unchecked Sendable {
    package enum Event: Equatable, Sendable {
        case connected
        /// One whole message (fragments joined).
        case message([UInt8])
        /// The connection failed or closed; no event follows.
        case closed(String)
    }

    package let address: WebSocketAddress
    package let largestMessage: Int
    private let connection: Connection

    /// Starts connecting to `address` at once.
    /// - Throws: `InputError` when libwebsockets cannot create its context or start the connection.
    package init(_ address: WebSocketAddress, connectTimeoutSeconds: Int = 10, largestMessage: Int = 16 << 20,
                 allowSelfSigned: Bool = false) throws {
        self.address = address
        self.largestMessage = largestMessage
        connection = try Connection(address, connectTimeoutSeconds: connectTimeoutSeconds, largestMessage: largestMessage,
                                    allowSelfSigned: allowSelfSigned)
        let connection = self.connection
        let thread = Thread { connection.serviceLoop() }
        thread.name = "bt-live-websocket"
        thread.start()
    }

    deinit { close() }

    /// The events that arrived, waiting up to `timeout` seconds for the first one.
    package func next(timeout: Double) -> [Event] { connection.next(timeout: timeout) }

    /// Closes the connection (if open) and waits for the service thread to release
    /// libwebsockets' context; idempotent.
    package func close() { connection.close() }

    /// Whether the service thread has released libwebsockets' context (the connection is gone).
    var isReleased: Bool { connection.isReleased }
}

/// One connection's state, shared by the client and its service thread (libwebsockets' context
/// points at it as its user data).
private final class Connection: @unchecked Sendable {
    let largestMessage: Int
    private let lock = NSCondition()
    private var queue: [WebSocketClient.Event] = []
    private var stopping = false
    /// `.closed` was queued: no event follows.
    private var finished = false
    /// libwebsockets is done with the connection (closed or failed): the service loop may end.
    private var gone = false
    /// The context's resources are freed (`lws_context_destroy` returned).
    private var released = false
    private var partial: [UInt8] = []
    /// libwebsockets' context while it is serviced; nil once the service loop stopped.
    private var context: OpaquePointer?
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ address: WebSocketAddress, connectTimeoutSeconds: Int, largestMessage: Int, allowSelfSigned: Bool) throws {
        self.largestMessage = largestMessage
        lws_set_log_level(0, nil)
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        let name = strdup("bt-live")!
        strings.append(name)
        protocols[0].name = UnsafePointer(name)
        protocols[0].callback = webSocketCallback
        protocols[0].rx_buffer_size = 0
        self.protocols = protocols

        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(protocols)
        info.gid = -1
        info.uid = -1
        info.options = address.secure ? UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT) : 0
        info.connect_timeout_secs = UInt32(max(1, connectTimeoutSeconds))
        // The service thread holds this object until after the context is destroyed.
        info.user = Unmanaged.passUnretained(self).toOpaque()
        guard let context = lws_create_context(&info) else {
            throw InputError("libwebsockets could not create its context", setting: .wsURL, value: address.description)
        }
        self.context = context

        var connect = lws_client_connect_info()
        connect.context = context
        let host = strdup(address.host)!, path = strdup(address.path)!
        strings += [host, path]
        connect.address = UnsafePointer(host)
        connect.port = Int32(address.port)
        connect.path = UnsafePointer(path)
        connect.host = UnsafePointer(host)
        connect.origin = UnsafePointer(host)
        connect.ietf_version_or_minus_one = -1
        if address.secure {
            connect.ssl_connection = Int32(LCCSCF_USE_SSL.rawValue)
            if allowSelfSigned {
                connect.ssl_connection |= Int32(LCCSCF_ALLOW_SELFSIGNED.rawValue | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue)
            }
        }
        connect.protocol = UnsafePointer(name)
        guard lws_client_connect_via_info(&connect) != nil else {
            lws_context_destroy(context)
            self.context = nil
            throw InputError("libwebsockets could not start the connection", setting: .wsURL, value: address.description)
        }
    }

    deinit {
        for s in strings { free(s) }
        if let protocols { protocols.deallocate() }
    }

    func next(timeout: Double) -> [WebSocketClient.Event] {
        lock.lock()
        defer { lock.unlock() }
        if queue.isEmpty && !finished {
            _ = lock.wait(until: Date(timeIntervalSinceNow: max(0, timeout)))
        }
        defer { queue.removeAll(keepingCapacity: true) }
        return queue
    }

    func close() {
        lock.lock()
        stopping = true
        // Under the lock: the service thread takes the context away under it before destroying it.
        if let context { lws_cancel_service(context) }
        lock.unlock()
        while !isReleased { usleep(1_000) }
    }

    var isReleased: Bool {
        lock.lock()
        defer { lock.unlock() }
        return released
    }

    // MARK: - The service thread

    /// Services the connection until it is gone or `close()` asks, then destroys the context.
    func serviceLoop() {
        lock.lock()
        let context = self.context
        lock.unlock()
        guard let context else { return }
        while true {
            lock.lock()
            let stop = stopping || gone
            if stop { self.context = nil }
            lock.unlock()
            if stop || lws_service(context, 0) < 0 { break }
        }
        lock.lock()
        self.context = nil
        lock.unlock()
        // Outside the lock: destroying the context closes the connection through the callback.
        lws_context_destroy(context)
        lock.lock()
        released = true
        push(.closed("closed by bt"))
        lock.unlock()
    }

    /// Queues `event` and wakes `next`; call with `lock` held.
    private func push(_ event: WebSocketClient.Event) {
        if finished { return }
        if case .closed = event { finished = true }
        queue.append(event)
        lock.broadcast()
    }

    /// The end of the connection as libwebsockets reports it: `why` is queued (unless the
    /// connection already said why it closed) and the service loop ends.
    private func end(_ why: String) {
        lock.lock()
        push(.closed(why))
        gone = true
        lock.unlock()
    }

    fileprivate func handle(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            lock.lock(); push(.connected); lock.unlock()
        case LWS_CALLBACK_CLIENT_RECEIVE:
            if let bytes, count > 0 {
                partial.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
            }
            if partial.count > largestMessage {
                lock.lock(); push(.closed("a message longer than \(largestMessage) bytes")); lock.unlock()
                partial = []
                return -1
            }
            if lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0 {
                let message = partial
                partial.removeAll(keepingCapacity: true)
                lock.lock(); push(.message(message)); lock.unlock()
            }
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            end("connection failed: " + (bytes.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "unknown error"))
        case LWS_CALLBACK_CLIENT_CLOSED:
            end("closed by the server")
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            var code = "no code"
            if let bytes, count >= 2 {
                let b = bytes.assumingMemoryBound(to: UInt8.self)
                code = "code \(Int(b[0]) << 8 | Int(b[1]))"
            }
            lock.lock(); push(.closed("closed by the server (\(code))")); lock.unlock()
        default:
            break
        }
        return 0
    }
}

/// libwebsockets' protocol callback: hands each event to the connection that owns the context.
private func webSocketCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                               _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    return Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue().handle(wsi, reason, bytes, count)
}
