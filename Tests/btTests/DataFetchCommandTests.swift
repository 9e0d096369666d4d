import Foundation
import Testing
import TestSupport

/// `bt data fetch` end to end: the built bt against the local mock exchange (never the internet).
@Suite("bt data fetch")
struct DataFetchCommandTests {
    /// The mock's current minute (its default now is 2024-03-15T12:34:56.789Z).
    static let nowMinute: Int64 = 1_710_506_040
    /// 2,500 1m bars from the listing, the last still forming.
    static let listing2500 = ["--binance-start", String((nowMinute - 2499 * 60) * 1000)]
    /// Direct to loopback even behind a proxy; backoff of 10 ms instead of 1 s.
    static let environment = ["no_proxy": "127.0.0.1,localhost", "BT_FETCH_BACKOFF": "0.01"]

    func bt(_ args: [String], _ mock: MockExchange, db: String, environment: [String: String] = [:]) throws -> BT.Result {
        try BT.run(["data", "fetch"] + args + ["--base-url", mock.baseURL, "--db", db],
                   environment: Self.environment.merging(environment) { _, new in new }, directory: BT.root)
    }

    func export(_ symbol: String, _ db: String) throws -> String {
        try BT.run(["data", "export", symbol, "--db", db]).stdout
    }

    func expected(_ mock: MockExchange, _ query: String) throws -> String {
        String(decoding: try mock.get("/_expected/\(query)&format=csv"), as: UTF8.self)
    }

    @Test("a Binance fetch pages through the history and stores exactly the served complete bars")
    func binance() throws {
        let mock = try MockExchange(Self.listing2500)
        let db = BT.scratchStore()
        let r = try bt(["binance", "btcusdt", "--interval", "1m"], mock, db: db)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "BTCUSDT 1m: 2499 bars added, 0 updated, 0 unchanged (binance, 3 pages, 4 requests, 0 retries)\n")
        #expect(r.stderr.isEmpty, "no progress bar when stderr is not a terminal: \(r.stderr)")
        #expect(try export("BTCUSDT", db) == (try expected(mock, "binance?symbol=BTCUSDT&interval=1m")))
    }

    @Test("a second fetch asks only for bars after the last stored one")
    func resume() throws {
        let mock = try MockExchange(Self.listing2500)
        let db = BT.scratchStore()
        #expect(try bt(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db).status == 0)
        let asked = try mock.klinesQueries().count
        let same = try bt(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db)
        #expect(same.status == 0 && same.stdout.contains("no new bars after 2024-03-15T12:33:00Z"), "\(same.stdout)\(same.stderr)")
        try mock.control(#"{"now": "2024-03-15T12:45:56Z"}"#)
        let later = try bt(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db)
        #expect(later.stdout.contains("11 bars added") && later.stdout.contains("resumed after 2024-03-15T12:33:00Z"), "\(later.stdout)")
        let resumed = try mock.klinesQueries().dropFirst(asked)
        #expect(resumed.count == 2)
        #expect(resumed.allSatisfy { $0["startTime"] == String((Self.nowMinute - 60) * 1000 + 1) })
        #expect(try export("BTCUSDT", db) == (try expected(mock, "binance?symbol=BTCUSDT&interval=1m")))
    }

    @Test("429 and 5xx are retried and counted in the summary; notes on stderr say what is waited for")
    func retried() throws {
        let mock = try MockExchange(Self.listing2500 + ["--fault", "rate_limit@2,retry_after=1", "--fault", "server_error@4"])
        let db = BT.scratchStore()
        let r = try bt(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 pages, 6 requests, 2 retries, waited 1.01 s"), "\(r.stdout)")
        #expect(r.stderr.contains("note: rate limited (HTTP 429), asked to wait 1 s; waiting 1 s"), "\(r.stderr)")
    }

    @Test("failures store nothing: truncated JSON, 5xx past the attempts, a long ban (exit 1, the store byte for byte as before)",
          arguments: [
              (["--fault", "truncate@3"], [String](), "page 2 ("),
              (["--fault", "server_error@3+"], ["--attempts", "2"], "after 2 attempts"),
              (["--fault", "ban@3,retry_after=900"], [String](), "raise --max-wait"),
          ])
    func failures(faults: [String], options: [String], words: String) throws {
        let mock = try MockExchange(Self.listing2500 + faults)
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let r = try bt(["binance", "BTCUSDT", "--interval", "1m"] + options, mock, db: db)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: ") && r.stderr.contains(words) && r.stderr.contains("nothing was stored"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(try BT.run(["data", "list", "--db", db]).stdout.contains("BTCUSDT") == false)
    }

    @Test("a failed first fetch creates no store")
    func noStoreOnFailure() throws {
        let mock = try MockExchange(Self.listing2500 + ["--fault", "truncate@2"])
        let db = BT.scratchStore()
        #expect(try bt(["binance", "BTCUSDT", "--interval", "1m"], mock, db: db).status == 1)
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("killed with SIGKILL in the middle of a fetch: the store is exactly as before")
    func killed() throws {
        let mock = try MockExchange(Self.listing2500 + ["--latency", "0.4"])
        let db = BT.scratchStore()
        #expect(try bt(["binance", "BTCUSDT", "--interval", "1m", "--to", "2024-03-14T00:00:00Z"], mock, db: db).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let exported = try export("BTCUSDT", db)
        let p = Process()
        p.executableURL = BT.binary
        p.arguments = ["data", "fetch", "binance", "BTCUSDT", "--interval", "1m", "--base-url", mock.baseURL, "--db", db]
        p.environment = ProcessInfo.processInfo.environment.merging(Self.environment) { _, new in new }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let asked = try mock.klinesQueries().count
        try p.run()
        let deadline = Date().addingTimeInterval(20)
        while try mock.klinesQueries().count < asked + 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(p.isRunning, "still fetching when killed")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(try export("BTCUSDT", db) == exported)
    }

    @Test("Alpha Vantage: the key from the environment, a resumed fetch, and its notes")
    func alphaVantage() throws {
        let mock = try MockExchange()
        let db = BT.scratchStore()
        let missing = try bt(["alphavantage", "IBM"], mock, db: db, environment: ["ALPHAVANTAGE_API_KEY": ""])
        #expect(missing.status == 2 && missing.stderr.contains("ALPHAVANTAGE_API_KEY") && missing.stderr.contains("--api-key"),
                "\(missing.stderr)")
        let r = try bt(["alphavantage", "IBM"], mock, db: db, environment: ["ALPHAVANTAGE_API_KEY": "k1"])
        #expect(r.status == 0 && r.stdout.hasPrefix("IBM 1d: "), "\(r.stderr)")
        #expect(try export("IBM", db) == (try expected(mock, "alphavantage?symbol=IBM")))
        try mock.control(#"{"now": "2024-03-20T22:00:00Z"}"#)
        let again = try bt(["alphavantage", "IBM", "--api-key", "k2"], mock, db: db)
        #expect(again.stdout.contains("4 bars added") && again.stdout.contains("resumed after 2024-03-14"), "\(again.stdout)")
        #expect(try mock.requests().last.flatMap { ($0["query"] as? [String: String])?["outputsize"] } == "compact")
        #expect(try export("IBM", db) == (try expected(mock, "alphavantage?symbol=IBM")))

        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        try mock.control(#"{"faults": ["av_note@1+"]}"#)
        let note = try bt(["alphavantage", "IBM", "--api-key", "SECRET"], mock, db: db)
        #expect(note.status == 1 && note.stderr.contains("rate limit") && !note.stderr.contains("SECRET"), "\(note.stderr)")
        try mock.control(#"{"faults": ["av_error@1+"]}"#)
        let wrong = try bt(["alphavantage", "IBM", "--api-key", "SECRET"], mock, db: db)
        #expect(wrong.status == 2 && wrong.stderr.contains("check the symbol"), "\(wrong.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test("usage: an unknown source, a missing or foreign interval, options of the other source")
    func usage() throws {
        let mock = try MockExchange(["--unknown-symbol", "NOPE"])
        let db = BT.scratchStore()
        let source = try bt(["kraken", "BTCUSD"], mock, db: db)
        #expect(source.status == 2 && source.stderr.contains("one of: binance, alphavantage"))
        let none = try bt(["binance", "BTCUSDT"], mock, db: db)
        #expect(none.status == 2 && none.stderr.contains("--interval"), "\(none.stderr)")
        let odd = try bt(["binance", "BTCUSDT", "--interval", "3m"], mock, db: db)
        #expect(odd.status == 2 && odd.stderr.contains("--interval '3m'"), "\(odd.stderr)")
        let unknown = try bt(["binance", "NOPE", "--interval", "1m"], mock, db: db)
        #expect(unknown.status == 2 && unknown.stderr.contains("Invalid symbol"), "\(unknown.stderr)")
        let help = try BT.run(["help", "data", "fetch"])
        #expect(help.stdout.contains("--base-url") && help.stdout.contains("--max-wait"))
    }
}
