import Backtest
import Foundation
import Testing
import TestSupport

/// `bt data fetch` against hostile servers, end to end: the real bt against the mock exchange's
/// faults on 127.0.0.1, each run bounded in time (`timeout -s KILL`) and, where a body could be
/// held whole, in address space (`prlimit --as`). Every number from the server is read into a
/// checked range, every answer is bounded in time and size, and only the bars asked for are
/// stored; on the code before these checks each case trapped (SIGILL), ran until killed, ran out
/// of memory, or stored the wrong bars.
@Suite("bt data fetch against hostile servers: numbers, time, size, pages, echoed keys", .serialized)
struct HostileServerFetchTests {
    /// The mock's default now (2024-03-15T12:34:56.789Z) in ms, and its minute in seconds.
    static let serverNowMs: Int64 = 1_710_506_096_789
    static let nowMinute: Int64 = 1_710_506_040
    static let environment = ["no_proxy": "127.0.0.1,localhost", "BT_FETCH_BACKOFF": "0.01"]

    struct Run {
        var result: BT.Result
        var seconds: Double
        /// True when `timeout` had to kill bt.
        var killed: Bool { [9, 124, 137].contains(result.status) }
    }

    /// `bt data fetch args` against `mock`, killed after `seconds`, in at most `addressSpace`
    /// bytes of virtual memory when given.
    static func fetch(_ args: [String], _ mock: MockExchange, db: String, seconds: Int = 60, addressSpace: Int? = nil) throws -> Run {
        let bt = [BT.binary.path, "data", "fetch"] + args + ["--base-url", mock.baseURL, "--db", db]
        let limited = addressSpace.map { ["/usr/bin/prlimit", "--as=\($0)"] + bt } ?? bt
        let start = Date()
        let r = try BT.runExecutable("/usr/bin/timeout", ["-s", "KILL", String(seconds)] + limited, environment: environment)
        return Run(result: r, seconds: Date().timeIntervalSince(start))
    }

    /// A fault rule as the mock's JSON spec.
    static func fault(_ rule: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: rule, options: [.sortedKeys]), as: UTF8.self)
    }

    /// `exchangeInfo` answered with `body` (and `headers`), every time.
    static func exchangeInfo(_ body: String, headers: [String: String] = [:]) throws -> [String] {
        ["--fault", try fault(["kind": "raw", "api": "/api/v3/exchangeInfo", "request": 1, "times": -1, "body": body, "headers": headers])]
    }

    /// A klines row as Binance sends it: open and close times in ms, prices as text.
    static func row(_ openSeconds: Int64, close: Double = 1.5) -> String {
        let open = openSeconds * 1000
        return #"[\#(open),"1.0","2.0","0.5","\#(close)","10",\#(open + 59_999),"15",3,"5","7","0"]"#
    }

    /// The klines answered with the rows `body`, every time.
    static func klines(_ rows: [String]) throws -> [String] {
        ["--fault", try fault(["kind": "raw", "api": "/api/v3/klines", "request": 1, "times": -1, "body": "[" + rows.joined(separator: ",") + "]"])]
    }

    static func storedTimes(_ symbol: String, _ db: String) throws -> [Int64] {
        let csv = try BT.run(["data", "export", symbol, "--db", db]).stdout
        return csv.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: ",").first.flatMap { field in Array(field.utf8).withUnsafeBufferPointer { UTCTime.parseISO(bytes: $0) } }
        }
    }

    // MARK: - Numbers from the network

    struct HostileNumber: CustomTestStringConvertible, Sendable {
        var name: String
        var faults: @Sendable () throws -> [String]
        var options: [String] = []
        var status: Int32
        var words: [String]
        var absent: [String] = []
        var testDescription: String { name }
    }

    static let limits = #"{"serverTime": 1710506096789, "rateLimits": [{"rateLimitType": "REQUEST_WEIGHT", "interval": "MINUTE", "intervalNum": 1, "limit": LIMIT}]}"#

    static let hostileNumbers: [HostileNumber] = [
        HostileNumber(name: "a rateLimits limit of 1e300", faults: { try exchangeInfo(limits.replacingOccurrences(of: "LIMIT", with: "1e300")) },
                      status: 1, words: ["rateLimits limit 1e+300 is not a whole number in 1...1000000000", "nothing was stored"]),
        HostileNumber(name: "a rateLimits limit of 2^63", faults: { try exchangeInfo(limits.replacingOccurrences(of: "LIMIT", with: "9223372036854775808")) },
                      status: 1, words: ["rateLimits limit 9.223372036854776e+18 is not a whole number"]),
        HostileNumber(name: "an intervalNum of -1e19", faults: {
                          try exchangeInfo(limits.replacingOccurrences(of: "LIMIT", with: "6000").replacingOccurrences(of: "\"intervalNum\": 1", with: "\"intervalNum\": -1e19"))
                      }, status: 1, words: ["rateLimits intervalNum -1e+19 is not a whole number"]),
        HostileNumber(name: "a used weight of Int64.max", faults: {
                          try exchangeInfo(limits.replacingOccurrences(of: "LIMIT", with: "6000"), headers: ["X-MBX-USED-WEIGHT-1M": "9223372036854775807"])
                      }, status: 1, words: ["the used-weight header '9223372036854775807' is not a whole number in 0...1000000000"]),
        HostileNumber(name: "a serverTime of 1e300", faults: { try exchangeInfo(#"{"serverTime": 1e300}"#) },
                      status: 1, words: ["serverTime 1e+300 is not a whole number"]),
        HostileNumber(name: "an error code of 1e300", faults: {
                          [ "--fault", try fault(["kind": "raw", "api": "/api/v3/exchangeInfo", "status": 400, "body": #"{"code": 1e300, "msg": "no such thing"}"#]) ]
                      }, status: 2, words: [#"refused the request with HTTP 400: "no such thing""#], absent: ["(code"]),
        HostileNumber(name: "an error code of -1e19", faults: {
                          [ "--fault", try fault(["kind": "raw", "api": "/api/v3/exchangeInfo", "status": 400, "body": #"{"code": -1e19, "msg": "no such thing"}"#]) ]
                      }, status: 2, words: [#"HTTP 400: "no such thing""#], absent: ["(code"]),
        HostileNumber(name: "an error code in range is still shown", faults: {
                          [ "--fault", try fault(["kind": "raw", "api": "/api/v3/exchangeInfo", "status": 400, "body": #"{"code": -1121, "msg": "Invalid symbol."}"#]) ]
                      }, status: 2, words: [#""Invalid symbol." (code -1121)"#]),
        HostileNumber(name: "Retry-After 1e20 with a --max-wait past a week", faults: { ["--fault", "rate_limit@2+,retry_after=1e20"] },
                      options: ["--max-wait", "1e30"], status: 2, words: ["--max-wait '1e+30': must be seconds from 0 to 604800"]),
        HostileNumber(name: "Retry-After 1e20 is longer than the longest wait", faults: { ["--fault", "rate_limit@2+,retry_after=1e20"] },
                      options: ["--max-wait", "604800"], status: 1, words: ["asked to wait 1e+20 s, longer than the longest wait allowed (604800 s)"]),
    ]

    @Test("every number from the server is read into a checked range or refused with its field's name", arguments: hostileNumbers)
    func hostileNumber(_ c: HostileNumber) throws {
        let mock = try MockExchange(try c.faults())
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m", "--from", "2024-03-15T12:00:00Z"] + c.options, mock, db: db, seconds: 30)
        #expect(run.result.status == c.status, "\(c.name): exit \(run.result.status): \(run.result.stderr)")
        for w in c.words { #expect(run.result.stderr.contains(w), "\(c.name): \(run.result.stderr)") }
        for w in c.absent { #expect(!run.result.stderr.contains(w), "\(c.name): \(run.result.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    // MARK: - Time, size and pages

    @Test("a server sending one byte every half second is given up after 4 x --timeout per attempt")
    func dribble() throws {
        let mock = try MockExchange(["--fault", "dribble@1+,api=/api/v3/exchangeInfo,interval=0.5"])
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m", "--timeout", "2", "--attempts", "2"], mock, db: db, seconds: 60)
        #expect(!run.killed && run.result.status == 1, "exit \(run.result.status) after \(run.seconds) s: \(run.result.stderr)")
        #expect(run.result.stderr.contains("no whole answer within 8 s") && run.result.stderr.contains("after 2 attempts"), "\(run.result.stderr)")
        #expect(run.seconds < 30, "\(run.seconds) s")
    }

    static let oversized: [[String]] = [
        ["--fault", "huge@1+,api=/api/v3/klines,bytes=2147483648"],
        ["--fault", "huge@1+,api=/api/v3/klines,bytes=3221225472,length=false"],
        ["--fault", "gzip_bomb@1+,api=/api/v3/klines,bytes=1073741824"],
    ]

    @Test("a 2 GiB answer, a 3 GiB one without a length and a 1 MB gzip bomb are refused at 16 MiB, in 1 GiB of address space",
          arguments: oversized)
    func oversizedAnswer(_ faults: [String]) throws {
        let mock = try MockExchange(faults)
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db, seconds: 90, addressSpace: 1 << 30)
        #expect(run.result.status == 1, "\(faults): exit \(run.result.status) after \(run.seconds) s: \(run.result.stderr)")
        #expect(run.result.stderr.contains("the answer is larger than 16 MiB, the most bt reads of one request"), "\(run.result.stderr)")
        #expect(run.result.stderr.contains("page 1") && !run.result.stderr.contains("attempts"), "refused, not retried: \(run.result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("a server claiming a far-future clock is paged only up to the local clock")
    func farFutureClock() throws {
        let wallMinute = Int64(Date().timeIntervalSince1970) / 60 * 60
        let mock = try MockExchange(["--now", "2100-01-01T00:00:00Z", "--binance-start", String((wallMinute - 2499 * 60) * 1000)])
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db, seconds: 60)
        #expect(run.result.status == 0 && !run.killed, "exit \(run.result.status) after \(run.seconds) s: \(run.result.stderr)")
        let times = try Self.storedTimes("BTCUSDT", db)
        let now = Int64(Date().timeIntervalSince1970)
        #expect(times.first == wallMinute - 2499 * 60, "\(times.first ?? -1)")
        #expect((times.last ?? .max) + 60 <= now, "a bar not yet complete on the local clock was stored: \(times.last ?? -1)")
        #expect(times.count >= 2497 && times.count <= 2501, "\(times.count) bars")
        let pages = try mock.klinesQueries().count
        #expect(pages <= 4, "\(pages) pages")
    }

    @Test("bars outside --from/--to that the server sends anyway are not stored")
    func outsideRange() throws {
        let m = Self.nowMinute
        let mock = try MockExchange(try Self.klines((0..<5).map { Self.row(m - 300 + 60 * Int64($0)) }))
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m", "--from", UTCTime.iso(m - 240), "--to", UTCTime.iso(m - 180)],
                                 mock, db: db, seconds: 30)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(try Self.storedTimes("BTCUSDT", db) == [m - 240, m - 180])
    }

    @Test("a server that answers every page with the same bars before --from is asked once, and nothing is stored")
    func pageAddingNothing() throws {
        let m = Self.nowMinute
        let mock = try MockExchange(try Self.klines((0..<1000).map { Self.row(m - 200_000 * 60 + 60 * Int64($0)) }))
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m", "--from", UTCTime.iso(m - 3600)], mock, db: db, seconds: 30)
        #expect(run.result.status == 0 && run.result.stdout.contains("no new bars"), "\(run.result.stdout)\(run.result.stderr)")
        #expect(try mock.klinesQueries().count == 1)
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("a page newest first, starting with the forming bar, keeps the complete bars after it")
    func descendingPage() throws {
        let m = Self.nowMinute
        let mock = try MockExchange(try Self.klines((0...4).map { Self.row(m - 60 * Int64($0)) }))
        let db = BT.scratchStore()
        let run = try Self.fetch(["binance", "BTCUSDT", "--interval", "1m", "--from", UTCTime.iso(m - 240)], mock, db: db, seconds: 30)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(try Self.storedTimes("BTCUSDT", db) == [m - 240, m - 180, m - 120, m - 60])
    }

    @Test("an API key echoed back in an answer is masked", arguments: [
        ["--fault", "av_error@1+,message=Invalid API key K3YS3CR3T12345 for this call"],
        ["--fault", #"{"kind": "raw", "api": "alphavantage", "times": -1, "status": 401, "body": "key K3YS3CR3T12345 is not valid"}"#],
        ["--fault", #"{"kind": "raw", "api": "alphavantage", "times": -1, "body": "{\"Time Series (Daily)\": {\"K3YS3CR3T12345\": {}}}"}"#],
    ])
    func echoedKey(_ faults: [String]) throws {
        let mock = try MockExchange(faults)
        let db = BT.scratchStore()
        let run = try Self.fetch(["alphavantage", "IBM", "--api-key", "K3YS3CR3T12345"], mock, db: db, seconds: 30)
        #expect(run.result.status != 0 && !run.killed, "\(run.result.stderr)")
        #expect(!(run.result.stdout + run.result.stderr).contains("K3YS3CR3T12345"), "\(run.result.stderr)")
        #expect(run.result.stderr.contains("***"), "\(run.result.stderr)")
    }
}
