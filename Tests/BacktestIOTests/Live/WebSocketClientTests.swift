import Foundation
import Testing
import TestSupport
import BacktestCore
@testable import BacktestLive

/// `WebSocketClient` (libwebsockets) against a real server on 127.0.0.1
/// (`Tests/Fixtures/live/push_server.py`, Debian's python3-websockets): plain ws:// and wss://
/// with a self-signed certificate, fragmented and binary messages, a ping answered, the close
/// code, the size limit, a refused connection, and nothing kept of a connection once it is gone.
@Suite("WebSocket client: libwebsockets against a local server", .serialized)
struct WebSocketClientTests {
    /// push_server.py with `arguments`, stopped when dropped.
    static func server(_ arguments: [String] = []) throws -> PortServer {
        try PortServer("push_server.py", executable: "/usr/bin/python3",
                       arguments: [Repository.path("Tests/Fixtures/live/push_server.py")] + arguments)
    }

    /// Every event until the connection closes (at most `seconds`).
    static func events(_ client: WebSocketClient, seconds: Double = 20) -> [WebSocketClient.Event] {
        var out: [WebSocketClient.Event] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            out += client.next(timeout: 0.1)
            if case .closed? = out.last { break }
        }
        return out
    }

    static func check(_ events: [WebSocketClient.Event]) {
        #expect(events.first == .connected, "\(events.prefix(2))")
        let messages = events.compactMap { e -> [UInt8]? in if case .message(let m) = e { m } else { nil } }
        #expect(messages.count == 4)
        guard messages.count == 4 else { return }
        #expect(messages[0] == Array("hello".utf8))
        #expect(messages[1] == Array((String(repeating: "x", count: 50_000) + String(repeating: "y", count: 50_000)
                                      + String(repeating: "x", count: 50_000) + String(repeating: "y", count: 50_000)).utf8))
        #expect(messages[2] == Array(0...255))
        #expect(messages[3] == Array("pong seen".utf8), "the server saw the pong to its ping")
        guard case .closed(let why)? = events.last else {
            Issue.record("no close: \(events.suffix(1))")
            return
        }
        #expect(why.contains("4001"), "the close code: \(why)")
    }

    @Test("ws://: fragments joined, binary kept, a ping answered, the server's close code")
    func plain() throws {
        let server = try Self.server()
        let client = try WebSocketClient(WebSocketAddress("ws://127.0.0.1:\(server.port)/stream?x=1"))
        defer { client.close() }
        Self.check(Self.events(client))
    }

    @Test("wss://: the same through OpenSSL, to a server with a self-signed certificate")
    func tls() throws {
        let dir = TestSupport.scratchDirectory()
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                             "-subj", "/CN=127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        #expect(openssl.terminationStatus == 0)
        let server = try Self.server(["--tls", cert, key])
        let client = try WebSocketClient(WebSocketAddress("wss://127.0.0.1:\(server.port)/"), allowSelfSigned: true)
        defer { client.close() }
        Self.check(Self.events(client))
        // Without accepting a self-signed certificate the connection is refused.
        let strict = try WebSocketClient(WebSocketAddress("wss://127.0.0.1:\(server.port)/"))
        defer { strict.close() }
        let refused = Self.events(strict)
        #expect(!refused.contains(.connected), "\(refused)")
        guard case .closed? = refused.last else { Issue.record("no close: \(refused)"); return }
    }

    @Test("a message over the size limit closes the connection, saying why")
    func sizeLimit() throws {
        let server = try Self.server()
        let client = try WebSocketClient(WebSocketAddress("ws://127.0.0.1:\(server.port)/"), largestMessage: 1_000)
        defer { client.close() }
        let events = Self.events(client)
        guard case .closed(let why)? = events.last else { Issue.record("no close: \(events)"); return }
        #expect(why.contains("longer than 1000 bytes"), "\(why)")
        #expect(events.filter { if case .message = $0 { true } else { false } }.count == 1, "only 'hello' fits")
    }

    @Test("nothing listening: the connection fails with a reason, and no event follows the close")
    func refused() throws {
        // A port that was just free.
        let server = try Self.server()
        let port = server.port
        server.stop()
        let client = try WebSocketClient(WebSocketAddress("ws://127.0.0.1:\(port)/"), connectTimeoutSeconds: 2)
        defer { client.close() }
        let events = Self.events(client, seconds: 10)
        #expect(events.count == 1, "\(events)")
        guard case .closed(let why)? = events.first else { Issue.record("\(events)"); return }
        #expect(why.contains("connection failed"), "\(why)")
        #expect(client.next(timeout: 0.2).isEmpty)
    }

    @Test("addresses: ws and wss, default ports, path and query kept; anything else refused")
    func addresses() throws {
        let a = try WebSocketAddress("wss://stream.binance.com:9443", path: "/stream?streams=btcusdt@trade")
        #expect(a.secure && a.host == "stream.binance.com" && a.port == 9443 && a.path == "/stream?streams=btcusdt@trade")
        let b = try WebSocketAddress("ws://127.0.0.1/x/?k=v", path: "/stream")
        #expect(!b.secure && b.port == 80 && b.path == "/x/stream?k=v")
        #expect(try WebSocketAddress("wss://h").port == 443)
        for bad in ["http://h", "ws://", "h:80", "ws://h:0", "ws://h:70000"] {
            #expect(throws: InputError.self, "\(bad)") { _ = try WebSocketAddress(bad) }
        }
    }

    /// This process's resident memory (`/proc/self/statm`, pages) and thread count (`/proc/self/task`).
    static func footprint() -> (bytes: Int, threads: Int) {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE))), threads)
    }

    @Test("connections the server closed, dropped without close(): memory and threads stay bounded over 300 of them")
    func reconnectsDoNotLeak() throws {
        // What `bt live` did on every reconnect: the server closed, the client was dropped. Each
        // one kept its service thread and libwebsockets' context (about 340 KB at ulimit -n 20000).
        let server = try Self.server()
        func connectOnce() throws {
            let client = try WebSocketClient(WebSocketAddress("ws://127.0.0.1:\(server.port)/"))
            let events = Self.events(client)
            guard case .closed? = events.last else { Issue.record("no close: \(events.suffix(1))"); return }
        }
        for _ in 0..<20 { try connectOnce() }
        usleep(200_000)
        let before = Self.footprint()
        let n = 300
        for _ in 0..<n { try connectOnce() }
        usleep(200_000)
        let after = Self.footprint()
        #expect(after.threads - before.threads < 10, "threads: \(before.threads) before, \(after.threads) after \(n) connections")
        // The leak grew it by about 100 MB; the bound is 30 MB.
        #expect(after.bytes - before.bytes < 30 << 20,
                "resident memory grew \((after.bytes - before.bytes) >> 10) KB over \(n) connections")
    }

    @Test("a connection the server closed frees libwebsockets' context by itself, before close()")
    func closedConnectionIsReleased() throws {
        let server = try Self.server()
        let client = try WebSocketClient(WebSocketAddress("ws://127.0.0.1:\(server.port)/"))
        let events = Self.events(client)
        guard case .closed? = events.last else { Issue.record("no close: \(events.suffix(1))"); return }
        let deadline = Date().addingTimeInterval(5)
        while !client.isReleased && Date() < deadline { usleep(10_000) }
        #expect(client.isReleased)
        // Over the size limit: bt closes it, and the context goes too.
        let limited = try WebSocketClient(WebSocketAddress("ws://127.0.0.1:\(server.port)/"), largestMessage: 1_000)
        _ = Self.events(limited)
        let until = Date().addingTimeInterval(5)
        while !limited.isReleased && Date() < until { usleep(10_000) }
        #expect(limited.isReleased)
    }
}
