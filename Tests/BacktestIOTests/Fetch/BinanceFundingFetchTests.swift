import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

/// The Binance USD-M funding-rate client against the local funding server (never the internet).
@Suite("Binance futures funding fetch against a local server")
struct BinanceFundingFetchTests {
    func fetch(_ server: FundingServer, from: Int64? = nil, to: Int64? = nil, store: CandleStore? = nil,
               maximumPages: Int = BinanceFundingFetch.maximumPages) throws -> FetchResult {
        try BinanceFundingFetch.fetch(symbol: "BTCUSDT", from: from, to: to, store: store, baseURL: URL(string: server.baseURL)!,
                                      policy: WaitLog().policy(attempts: 1), maximumPages: maximumPages)
    }

    func rows(_ result: FetchResult) -> [FundingRate] {
        guard case .funding(let rows)? = result.file?.content else { return [] }
        return rows
    }

    func expected(_ range: Range<Int>) -> [FundingRate] {
        range.map { i in
            let s = FundingServer.settlement(i)
            return FundingRate(timeMs: s.timeMs, rate: s.rate, markPrice: s.markPrice)
        }
    }

    @Test("the history is paged by time, 1000 a page, and kept exactly, empty mark prices as none")
    func paged() throws {
        let server = try FundingServer(["--rows", "2500"])
        let result = try fetch(server)
        #expect(rows(result) == expected(0..<2500))
        #expect(rows(result)[3].markPrice == nil)
        // Three pages, then exchangeInfo for the instrument settings.
        #expect(result.pages == 3 && result.requests == 4 && result.file?.format == .funding)
        #expect(result.instrument == [.instrument: .text("perp"), .tick: .number(0.1), .lot: .number(0.001)])
        let starts = try server.queries().map { $0["startTime"] }
        #expect(starts == ["0", String(FundingServer.settlement(999).timeMs + 1), String(FundingServer.settlement(1999).timeMs + 1)])
        #expect(try server.queries().allSatisfy { $0["limit"] == "1000" && $0["symbol"] == "BTCUSDT" && $0["endTime"] != nil })
    }

    @Test("a range asks for and keeps only its settlements; a stored history is resumed after its last")
    func rangeAndResume() throws {
        let server = try FundingServer(["--rows", "1200"])
        let day2 = FundingServer.start / 1000 + 86_400
        let ranged = try fetch(server, from: day2, to: day2 + 86_399)
        #expect(rows(ranged) == expected(3..<6))
        #expect(try server.queries().first?["endTime"] == String((day2 + 86_399) * 1000 + 999))

        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("s.sqlite").path)
        try store.write([try #require(try fetch(server).file)])
        let later = try FundingServer(["--rows", "2500"])
        let resumed = try fetch(later, store: store)
        #expect(resumed.resumedAfter == FundingServer.settlement(1199).timeMs / 1000)
        #expect(rows(resumed) == expected(1200..<2500))
        #expect(try later.queries().first?["startTime"] == String(FundingServer.settlement(1199).timeMs + 1))
        let report = try store.write([try #require(resumed.file)])
        #expect(report[0].added == 1300 && report[0].timeframe == "funding")
        #expect(try store.funding(symbol: "BTCUSDT") == expected(0..<2500))
    }

    @Test("a junk value is refused naming the page, the row and the field", arguments: [
        ("1500:fundingRate:\"1e400\"", "row 501: fundingRate '1e400' is not a finite number"),
        ("1500:fundingRate:\"0.07\"", "row 501: rate 0.07 is outside -0.05...0.05"),
        ("1500:fundingRate:0.0001", "row 501: \"fundingRate\" must be a decimal string"),
        ("1500:markPrice:\"-3\"", "row 501: mark_price -3.0 is not a positive finite price"),
        ("1500:markPrice:\"abc\"", "row 501: markPrice 'abc' is not a finite number"),
        ("1500:fundingTime:1e300", "row 501: fundingTime 1e+300 is not a whole number in 0...253402300799999"),
        ("1500:fundingTime:1704067200000.5", "row 501: fundingTime 1704067200000.5 is not a whole number"),
        ("1500:fundingTime:1704067200000", "row 501: fundingTime 2024-01-01T00:00:00Z is not after the previous row's"),
        ("1500:symbol:\"ETHUSDT\"", "row 501: \"symbol\" is missing or not BTCUSDT"),
    ])
    func junk(set: String, words: String) throws {
        let server = try FundingServer(["--rows", "2500", "--set", set])
        let e = try #require(throws: FetchError.self) { try fetch(server) }
        #expect(e.kind == .badAnswer && e.page == 2)
        #expect(e.reason.contains(words), "\(e.reason)")
    }

    @Test("a fetch needing more than the most pages is refused; an unknown symbol is the service's refusal")
    func bounds() throws {
        let server = try FundingServer(["--rows", "2500"])
        let e = try #require(throws: FetchError.self) { try fetch(server, maximumPages: 2) }
        #expect(e.reason.contains("more than 2 pages of funding rates; fetch a shorter range"), "\(e.reason)")
        let refused = try #require(throws: InputError.self) {
            try BinanceFundingFetch.fetch(symbol: "NOPE", baseURL: URL(string: server.baseURL)!, policy: WaitLog().policy(attempts: 1))
        }
        #expect(refused.reason == "Binance refused the request with HTTP 400: \"Invalid symbol.\" (code -1121)")
    }

    @Test("exchangeInfo: PERPETUAL is perp, a dated contract future, tickSize and stepSize are tick and lot; bad ones are refused naming the field")
    func exchangeInfo() throws {
        func info(_ contract: String, tick: String = "\"0.10\"", step: String = "\"0.001\"", symbol: String = "BTCUSDT") -> [UInt8] {
            Array("""
                {"serverTime": 1, "symbols": [{"symbol": "\(symbol)", "contractType": "\(contract)", "filters": [
                  {"filterType": "PRICE_FILTER", "tickSize": \(tick)}, {"filterType": "LOT_SIZE", "stepSize": \(step)}]}]}
                """.utf8)
        }
        #expect(try BinanceFuturesInstrument.settings(info("PERPETUAL"), symbol: "BTCUSDT")
                    == [.instrument: .text("perp"), .tick: .number(0.1), .lot: .number(0.001)])
        #expect(try BinanceFuturesInstrument.settings(info("NEXT_QUARTER"), symbol: "BTCUSDT")[.instrument] == .text("future"))
        #expect(try BinanceFuturesInstrument.settings(info("PERPETUAL_DELIVERING"), symbol: "BTCUSDT")[.instrument] == nil)
        let bad: [([UInt8], String)] = [
            (info("PERPETUAL", tick: "\"0\""), "BTCUSDT PRICE_FILTER tickSize '0' is not a positive decimal string"),
            (info("PERPETUAL", tick: "0.1"), "BTCUSDT PRICE_FILTER tickSize a number is not a positive decimal string"),
            (info("PERPETUAL", step: "\"-1\""), "BTCUSDT LOT_SIZE stepSize '-1' is not a positive decimal string"),
            (info("PERPETUAL", step: "\"1e400\""), "BTCUSDT LOT_SIZE stepSize '1e400' is not a positive decimal string"),
            (info("PERPETUAL", symbol: "ETHUSDT"), "\"symbols\" does not list BTCUSDT"),
            (Array("[]".utf8), "no \"symbols\" array in the answer"),
            (Array("{".utf8), "the answer is not JSON"),
        ]
        for (body, reason) in bad {
            let e = try #require(throws: InputError.self) { try BinanceFuturesInstrument.settings(body, symbol: "BTCUSDT") }
            #expect(e.reason == reason)
        }
    }
}
