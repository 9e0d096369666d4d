import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

/// The Binance klines client against the local mock exchange (never the internet).
@Suite("Binance fetch against the mock exchange")
struct BinanceFetchTests {
    func fetch(_ mock: MockExchange, _ waits: WaitLog, policy: FetchPolicy? = nil, from: Int64? = nil, to: Int64? = nil,
               store: CandleStore? = nil) throws -> FetchResult {
        try BinanceFetch.fetch(symbol: "BTCUSDT", interval: .minute1, from: from, to: to, store: store,
                               baseURL: FetchFixture.url(mock), policy: policy ?? waits.policy())
    }

    @Test("pages of 1000 from the listing to the last complete bar, equal to the served series")
    func paging() throws {
        let mock = try MockExchange(FetchFixture.listing2500)
        let waits = WaitLog()
        let result = try fetch(mock, waits)
        let series = try #require(FetchFixture.series(result))
        #expect(series.count == 2499)
        #expect(series.timeframe == .minute1)
        #expect(series.time.last == FetchFixture.nowMinute - 60, "the forming bar is not kept")
        #expect(series.csvText() == (try FetchFixture.expected(mock, "binance?symbol=BTCUSDT&interval=1m")))
        #expect(result.pages == 3 && result.retries == 0 && waits.waits.isEmpty)
        let queries = try mock.klinesQueries()
        #expect(queries.map { $0["limit"] } == ["1000", "1000", "1000"])
        #expect(queries[0]["startTime"] == "0")
        // Each page starts just after the previous page's last open time.
        let first = (FetchFixture.nowMinute - 2499 * 60) * 1000
        #expect(queries[1]["startTime"] == String(first + 999 * 60_000 + 1))
        #expect(queries[2]["startTime"] == String(first + 1999 * 60_000 + 1))
    }

    @Test("--from and --to bound the open times, both inclusive")
    func range() throws {
        let mock = try MockExchange(FetchFixture.listing2500)
        let from = FetchFixture.nowMinute - 100 * 60, to = FetchFixture.nowMinute - 51 * 60
        let series = try #require(FetchFixture.series(try fetch(mock, WaitLog(), from: from, to: to)))
        #expect(series.count == 50 && series.time.first == from && series.time.last == to)
    }

    @Test("429 with Retry-After: waits what the server asked, then goes on")
    func rateLimited() throws {
        let mock = try MockExchange(FetchFixture.listing2500 + ["--fault", "rate_limit@3,retry_after=7"])
        let waits = WaitLog()
        let result = try fetch(mock, waits)
        #expect(waits.waits == [7])
        #expect(result.retries == 1 && result.waitedSeconds == 7 && FetchFixture.series(result)?.count == 2499)
    }

    @Test("418 ban: waits a ban within --max-wait; fails at once on a longer one")
    func banned() throws {
        let short = try MockExchange(FetchFixture.listing2500 + ["--fault", "ban@2,retry_after=3"])
        let waits = WaitLog()
        #expect(FetchFixture.series(try fetch(short, waits))?.count == 2499)
        #expect(waits.waits == [3])

        let long = try MockExchange(FetchFixture.listing2500 + ["--fault", "ban@2+,retry_after=7200"])
        let none = WaitLog()
        let error = try #require(throws: FetchError.self) { try fetch(long, none, policy: none.policy(maxWait: 600)) }
        #expect(error.kind == .banned && error.attempts == 1 && none.waits.isEmpty)
        #expect(error.description.contains("7200 s") && error.description.contains("600 s"), "\(error)")
        #expect(try long.klinesQueries().count == 1)
    }

    @Test("5xx answers are retried with a doubling backoff; too many end the fetch with the attempts counted")
    func serverErrors() throws {
        let flaky = try MockExchange(FetchFixture.listing2500 + ["--fault", "server_error@2x2,status=502"])
        let waits = WaitLog()
        let result = try fetch(flaky, waits)
        #expect(waits.waits == [0.5, 1.0] && result.retries == 2 && FetchFixture.series(result)?.count == 2499)

        let down = try MockExchange(FetchFixture.listing2500 + ["--fault", "server_error@3+"])
        let log = WaitLog()
        let error = try #require(throws: FetchError.self) { try fetch(down, log, policy: log.policy(attempts: 3)) }
        #expect(error.kind == .server && error.attempts == 3 && error.page == 2)
        #expect(log.waits == [0.5, 1.0])
        #expect("\(error)".contains("HTTP 503") && "\(error)".contains("after 3 attempts"), "\(error)")
    }

    @Test("a timeout and a reset connection are retried")
    func transientFailures() throws {
        let slow = try MockExchange(FetchFixture.listing2500 + ["--fault", "slow@2,seconds=2.5"])
        let waits = WaitLog()
        let start = Date()
        let result = try fetch(slow, waits, policy: waits.policy(timeout: 1))
        #expect(result.retries == 1 && FetchFixture.series(result)?.count == 2499)
        #expect(Date().timeIntervalSince(start) < 2.4, "the client gave up on the slow answer after its 1 s timeout")

        let reset = try MockExchange(FetchFixture.listing2500 + ["--fault", "reset@3"])
        let again = try fetch(reset, WaitLog())
        #expect(again.retries == 1 && FetchFixture.series(again)?.count == 2499)

        let dead = try MockExchange(FetchFixture.listing2500 + ["--fault", "slow@2+,seconds=3"])
        let log = WaitLog()
        let error = try #require(throws: FetchError.self) { try fetch(dead, log, policy: log.policy(attempts: 2, timeout: 1)) }
        #expect(error.kind == .network && error.attempts == 2 && "\(error)".contains("no answer within 1 s"), "\(error)")
    }

    @Test("a deadline ends the fetch: a silent or dribbling answer is given up at it, and no wait that would pass it begins")
    func deadline() throws {
        for fault in ["slow@2+,seconds=30", "dribble@2+,interval=1"] {
            let mock = try MockExchange(FetchFixture.listing2500 + ["--fault", fault])
            let waits = WaitLog()
            var policy = waits.policy(timeout: 20)
            policy.deadline = .now() + 1.5
            let start = Date()
            let error = try #require(throws: FetchError.self) { try fetch(mock, waits, policy: policy) }
            let took = Date().timeIntervalSince(start)
            #expect(took > 1.3 && took < 4, "\(fault): \(took) s")
            #expect(error.kind == .network && error.attempts == 1 && waits.waits.isEmpty, "\(fault): \(error)")
            #expect("\(error)".contains("before the time allowed ran out"), "\(error)")
        }
        let limited = try MockExchange(FetchFixture.listing2500 + ["--fault", "rate_limit@2,retry_after=7"])
        let waits = WaitLog()
        var policy = waits.policy()
        policy.deadline = .now() + 3
        let error = try #require(throws: FetchError.self) { try fetch(limited, waits, policy: policy) }
        #expect(error.kind == .rateLimited && waits.waits.isEmpty, "\(error)")
        #expect("\(error)".contains("the time allowed runs out before the next try"), "\(error)")
    }

    @Test("truncated JSON and a bar that fails validation are errors naming the page and the reason")
    func badPages() throws {
        let cut = try MockExchange(FetchFixture.listing2500 + ["--fault", "truncate@3"])
        let error = try #require(throws: FetchError.self) { try fetch(cut, WaitLog()) }
        #expect(error.kind == .badAnswer && error.page == 2 && error.url.contains("/api/v3/klines"))
        #expect("\(error)".contains("invalid JSON"), "\(error)")

        let row = #"[[1710505980000,"10.0","9.0","11.0","10.5","1.0",1710506039999,"0",1,"0","0","0"]]"#
        let bad = try MockExchange()
        let rule: [String: Any] = ["kind": "raw", "request": 2, "body": row, "content_type": "application/json"]
        try bad.control(String(decoding: try JSONSerialization.data(withJSONObject: ["faults": [rule]]), as: UTF8.self))
        let invalid = try #require(throws: FetchError.self) { try fetch(bad, WaitLog()) }
        #expect(invalid.kind == .badAnswer && invalid.page == 1)
        #expect("\(invalid)".contains("row 1") && "\(invalid)".contains("high 9.0 is below"), "\(invalid)")
    }

    @Test("an unknown symbol is the user's error, with Binance's own words")
    func unknownSymbol() throws {
        let mock = try MockExchange(["--unknown-symbol", "NOPEUSDT"])
        let error = try #require(throws: InputError.self) {
            try BinanceFetch.fetch(symbol: "NOPEUSDT", interval: .minute1, baseURL: FetchFixture.url(mock), policy: WaitLog().policy())
        }
        #expect("\(error)".contains("Invalid symbol") && "\(error)".contains("-1121"), "\(error)")
    }

    @Test("the request weight is watched: one window is waited out before the limit, and no 429 comes")
    func weightPacing() throws {
        // exchangeInfo weighs 20 and klines 2 in the mock: after two pages 24 of 24 are used.
        let mock = try MockExchange(FetchFixture.listing2500 + ["--weight-limit", "24", "--weight-window", "1"])
        let waits = WaitLog()
        let result = try fetch(mock, waits, policy: waits.policy(sleeps: true))
        #expect(waits.waits == [1] && result.retries == 0 && FetchFixture.series(result)?.count == 2499)
        #expect(try mock.requests().allSatisfy { $0["limited"] == nil })
    }

    @Test("a stored series is resumed after its last bar")
    func resume() throws {
        let mock = try MockExchange(FetchFixture.listing2500)
        let dir = TestSupport.scratchDirectory()
        let store = try CandleStore(path: dir.appendingPathComponent("s.sqlite").path)
        let first = try fetch(mock, WaitLog(), to: FetchFixture.nowMinute - 600)
        try store.write([try #require(first.file)])
        let requestsBefore = try mock.klinesQueries().count
        let second = try fetch(mock, WaitLog(), store: store)
        #expect(second.resumedAfter == FetchFixture.nowMinute - 600)
        let asked = try mock.klinesQueries().dropFirst(requestsBefore)
        #expect(asked.first?["startTime"] == String((FetchFixture.nowMinute - 600) * 1000 + 1))
        #expect(FetchFixture.series(second)?.count == 9)
    }

    @Test("intervals bt cannot store are refused by name")
    func intervals() throws {
        #expect(try BinanceFetch.interval("4h") == .hour4)
        let error = try #require(throws: InputError.self) { try BinanceFetch.interval("3m") }
        #expect(error.setting == .interval && error.reason.contains("1m 5m 15m"))
    }
}
