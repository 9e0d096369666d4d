import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

/// The Alpha Vantage daily client against the local mock exchange (never the internet).
@Suite("Alpha Vantage fetch against the mock exchange")
struct AlphaVantageFetchTests {
    func fetch(_ mock: MockExchange, adjusted: Bool = false, store: CandleStore? = nil) throws -> FetchResult {
        try AlphaVantageFetch.fetch(symbol: "IBM", adjusted: adjusted, apiKey: "demo-key", store: store,
                                    baseURL: FetchFixture.url(mock), policy: WaitLog().policy())
    }

    func outputSizes(_ mock: MockExchange) throws -> [String?] {
        try mock.requests().filter { $0["path"] as? String == "/query" }.map { ($0["query"] as? [String: String])?["outputsize"] }
    }

    @Test("a new series is fetched in full, equal to the served series", arguments: [false, true])
    func full(adjusted: Bool) throws {
        let mock = try MockExchange()
        let series = try #require(FetchFixture.series(try fetch(mock, adjusted: adjusted)))
        #expect(series.timeframe == .day1 && series.count > 2600)
        #expect(series.csvText() == (try FetchFixture.expected(mock, "alphavantage?symbol=IBM" + (adjusted ? "&adjusted=1" : ""))))
        #expect(try outputSizes(mock) == ["full"])
        let key = try mock.requests().first.flatMap { ($0["query"] as? [String: String])?["apikey"] }
        #expect(key == "demo-key")
    }

    @Test("a stored series is resumed with the latest 100 days; an adjusted one is fetched in full when a dividend rescaled it",
          arguments: [false, true])
    func resume(adjusted: Bool) throws {
        let mock = try MockExchange()
        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("s.sqlite").path)
        try store.write([try #require(try fetch(mock, adjusted: adjusted).file)])
        // 100 calendar days later: about 71 new trading days, at least one new dividend.
        try mock.control(#"{"now": "2024-06-23T12:00:00Z"}"#)
        let second = try fetch(mock, adjusted: adjusted, store: store)
        #expect(second.resumedAfter != nil || adjusted)
        try store.write([try #require(second.file)])
        let stored = try store.load(symbol: "IBM", timeframe: .day1)
        let query = "alphavantage?symbol=IBM" + (adjusted ? "&adjusted=1" : "")
        #expect(stored.csvText() == (try FetchFixture.expected(mock, query)))
        #expect(try outputSizes(mock) == (adjusted ? ["full", "compact", "full"] : ["full", "compact"]))
        if !adjusted { #expect(FetchFixture.series(second).map { $0.count } ?? 0 <= 100) }
    }

    @Test("Note, Information and Error Message answers", arguments: [
        ("av_note", "rate limit"), ("av_information", "information instead of data"), ("av_error", "check the symbol"),
    ])
    func messages(fault: String, words: String) throws {
        let mock = try MockExchange(["--fault", "\(fault)@1"])
        do {
            _ = try fetch(mock)
            Issue.record("\(fault) was taken for data")
        } catch let e as FetchError {
            #expect(fault != "av_error")
            #expect(e.kind == (fault == "av_note" ? .rateLimited : .information))
            #expect(e.description.contains(words), "\(e)")
            #expect(!e.description.contains("demo-key") && e.url.contains("apikey=***"), "the key is hidden: \(e)")
        } catch let e as InputError {
            #expect(fault == "av_error")
            #expect(e.description.contains(words) && !e.description.contains("demo-key"), "\(e)")
        }
        #expect(try mock.requests().count == 1, "not retried")
    }

    @Test("the API key comes from the option, else the environment, else an error naming both")
    func apiKey() throws {
        #expect(try AlphaVantageFetch.apiKey("a", environment: ["ALPHAVANTAGE_API_KEY": "b"]) == "a")
        #expect(try AlphaVantageFetch.apiKey(nil, environment: ["ALPHAVANTAGE_API_KEY": "b"]) == "b")
        let error = try #require(throws: InputError.self) { try AlphaVantageFetch.apiKey(nil, environment: [:]) }
        #expect(error.kind == .needsSetting && error.setting == .apiKey && error.reason.contains("ALPHAVANTAGE_API_KEY"))
    }
}

@Suite("Fetch client details")
struct FetchClientDetailTests {
    @Test("Retry-After in seconds; anything else falls back to the backoff")
    func retryAfter() {
        #expect(NetworkNumber.retryAfter("3") == 3)
        #expect(NetworkNumber.retryAfter(" 0.5 ") == 0.5)
        #expect(NetworkNumber.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(NetworkNumber.retryAfter("-1") == nil && NetworkNumber.retryAfter(nil) == nil)
    }

    @Test("the backoff doubles from its base")
    func backoff() {
        let policy = FetchPolicy(backoffSeconds: 0.25)
        #expect((1...4).map(policy.backoff(after:)) == [0.25, 0.5, 1, 2])
    }

    @Test("API keys never appear in shown URLs")
    func redaction() {
        let url = URL(string: "https://x.test/query?function=F&apikey=SECRET&symbol=IBM")!
        #expect(url.shown == "https://x.test/query?function=F&apikey=***&symbol=IBM")
    }

    @Test("base URLs: http or https with a host")
    func baseURLs() throws {
        #expect(try FetchSettings.baseURL("http://127.0.0.1:8080/mirror").path == "/mirror")
        for bad in ["ftp://x", "api.binance.com", "http://", "https://x/?a=1"] {
            let e = try #require(throws: InputError.self) { try FetchSettings.baseURL(bad) }
            #expect(e.setting == .baseURL)
        }
    }
}
