import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData

/// The event-level replay against hftbacktest 2.4.4's fills (Tests/Fixtures/replay/make_goldens.py):
/// the committed synthetic market, and the ob-analytics Bitstamp sample when `BT_L2_DATA` is set
/// (`make test-l2`). Every fill (exchange time, side, price, quantity, order number) equal, the
/// final position and PnL within 1e-9, and the counts of orders, cancels, refusals and steps.
@Suite("Replay goldens (hftbacktest)")
struct ReplayGoldenTests {
    struct Golden {
        var lot: Double
        var cases: [[String: Any]]
        /// The cases with a recorded latency file (`latency_file`, beside the goldens) instead of
        /// a constant latency.
        var latencyFileCases: [[String: Any]]
    }

    static func golden(_ name: String) throws -> Golden {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoFile("Tests/Fixtures/replay/" + name)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return Golden(lot: try #require(object["lot"] as? Double), cases: try #require(object["cases"] as? [[String: Any]]),
                      latencyFileCases: try #require(object["latency_file_cases"] as? [[String: Any]]))
    }

    /// A store holding `book` and `trades` (bt's import formats) as `symbol`.
    static func store(book: String, trades: String, symbol: String) throws -> CandleStore {
        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("replay.sqlite").path)
        try TestSupport.importFiles([book], into: store, options: ImportOptions(symbol: symbol, format: .book))
        try TestSupport.importFiles([trades], into: store, options: ImportOptions(symbol: symbol, timeframe: .minute1, format: .trades))
        return store
    }

    static func settings(_ c: [String: Any], lot: Double) throws -> (ReplaySettings, QuoteExpression, QuoteExpression) {
        let settings = try ReplaySettings(
            everyNs: Int64(try #require(c["every_ms"] as? Int)) * 1_000_000,
            quoteSize: try #require(c["quote_size"] as? Double), maxPosition: try #require(c["max_position"] as? Double),
            latency: try latency(c),
            queue: try QueueModel(parsing: try #require(c["queue"] as? String)), makerBps: try #require(c["maker_bps"] as? Double), lot: lot)
        return (settings, try QuoteExpression(try #require(c["quote_bid"] as? String), setting: .quoteBid),
                try QuoteExpression(try #require(c["quote_ask"] as? String), setting: .quoteAsk))
    }

    /// A case's `latency` (constant) or `latency_file` (read as `bt replay --latency-file` reads it).
    static func latency(_ c: [String: Any]) throws -> ReplayLatency {
        if let file = c["latency_file"] as? String {
            return ReplayLatency(table: try LatencyFile.read(path: TestSupport.repoFile("Tests/Fixtures/replay/" + file)))
        }
        return try ReplayLatency(parsing: try #require(c["latency"] as? String))
    }

    static func check(_ golden: Golden, store: CandleStore, symbol: String, inferredLot: Bool = true) throws {
        if inferredLot {
            var source = try store.replayEvents(symbol: symbol, fromMs: nil, toMs: nil)
            #expect(try LotInference.lot(of: &source) == golden.lot)
        }
        // Six cases with the riskaverse queue, four with the probability models.
        #expect(golden.cases.count == 10 && golden.cases.filter { $0["queue"] as? String != "riskaverse" }.count == 4)
        try checkCases(golden.cases, lot: golden.lot, store: store, symbol: symbol)
        // The latency file: at the touch and a tick behind, with each queue model.
        #expect(Set(golden.latencyFileCases.compactMap { $0["queue"] as? String }) == ["riskaverse", "prob:2", "logprob"]
                && Set(golden.latencyFileCases.compactMap { $0["quote_bid"] as? String }) == ["best_bid", "best_bid - 1"])
        try checkCases(golden.latencyFileCases, lot: golden.lot, store: store, symbol: symbol)
    }

    static func checkCases(_ cases: [[String: Any]], lot: Double, store: CandleStore, symbol: String) throws {
        for c in cases {
            let name = c["name"] as? String ?? "?"
            let (settings, bid, ask) = try settings(c, lot: lot)
            var source = try store.replayEvents(symbol: symbol, fromMs: nil, toMs: nil)
            let r = try EventReplay(settings: settings, bidQuote: bid, askQuote: ask).run(&source)
            let expected = try #require(c["fills"] as? [[Any]])
            func key(_ f: (Int64, String, Double, Double, Int)) -> [String] { ["\(f.0)", f.1, "\(f.2)", "\(f.3)", "\(f.4)"] }
            let want = try expected.map { row -> (Int64, String, Double, Double, Int) in
                (Int64(try #require(row[0] as? Int)), try #require(row[1] as? String), try #require(row[2] as? Double),
                 try #require(row[3] as? Double), try #require(row[4] as? Int))
            }.sorted { ($0.0, $0.4) < ($1.0, $1.4) }.map(key)
            let got = r.fills.map { ($0.exchangeNs, $0.side.rawValue, $0.price, $0.quantity, $0.orderID) }
                .sorted { ($0.0, $0.4) < ($1.0, $1.4) }.map(key)
            #expect(!want.isEmpty && got == want, "\(name): \(got.count) fills, hftbacktest \(want.count)")
            #expect(abs(r.finalPosition - (try #require(c["final_position"] as? Double))) <= 1e-9, "\(name)")
            #expect(abs(r.pnl - (try #require(c["pnl"] as? Double))) <= 1e-9, "\(name): pnl \(r.pnl)")
            #expect(r.ordersSent == c["orders_sent"] as? Int && r.cancelsSent == c["cancels_sent"] as? Int, "\(name)")
            #expect(r.rejectedPostOnly == c["rejected_post_only"] as? Int && r.notPlacedCrossing == c["not_placed_crossing"] as? Int
                    && r.steps == c["steps"] as? Int, "\(name)")
        }
    }

    @Test("the synthetic market: every fill, position and PnL of hftbacktest's ten cases and four with a latency file")
    func synthetic() throws {
        let store = try Self.store(book: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_book.jsonl"),
                                   trades: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_trades.jsonl"), symbol: "SYN")
        try Self.check(try Self.golden("goldens.json"), store: store, symbol: "SYN")
    }

    @Test("the store read in chunks equals the events whole in memory")
    func streamedEqualsInMemory() throws {
        let store = try Self.store(book: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_book.jsonl"),
                                   trades: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_trades.jsonl"), symbol: "SYN")
        let whole = MarketEvent.merged(trades: try store.trades(symbol: "SYN"), books: try store.bookEvents(symbol: "SYN"))
        var streamed: [MarketEvent] = []
        var source = try store.replayEvents(symbol: "SYN", fromMs: nil, toMs: nil)
        while let e = try source.next() { streamed.append(e) }
        #expect(streamed.count == whole.count && streamed == whole)
        let (settings, bid, ask) = try Self.settings(try Self.golden("goldens.json").cases[1], lot: 0.001)
        var a = ArrayMarketEvents(whole)
        var b = try store.replayEvents(symbol: "SYN", fromMs: nil, toMs: nil)
        let replay = EventReplay(settings: settings, bidQuote: bid, askQuote: ask)
        let x = try replay.run(&a), y = try replay.run(&b)
        #expect(x.fills == y.fills && x.pnl == y.pnl && x.steps == y.steps)
    }

    @Test("a range: events before it build the book from the last snapshot, steps start at its first event; none in it is refused")
    func range() throws {
        let store = try Self.store(book: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_book.jsonl"),
                                   trades: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_trades.jsonl"), symbol: "SYN")
        let all = MarketEvent.merged(trades: try store.trades(symbol: "SYN"), books: try store.bookEvents(symbol: "SYN"))
        let from = all[all.count / 2].timeMs, to = all[all.count * 3 / 4].timeMs
        var source = try store.replayEvents(symbol: "SYN", fromMs: from, toMs: to)
        var events: [MarketEvent] = []
        while let e = try source.next() { events.append(e) }
        // From the last snapshot at or before `from`, through `to`.
        guard case .book(let first) = events[0] else { Issue.record("starts with a print"); return }
        #expect(first.kind == .snapshot && first.timeMs <= from && events.last!.timeMs <= to)
        #expect(!all.contains { e in
            if case .book(let b) = e { return b.kind == .snapshot && b.timeMs > first.timeMs && b.timeMs <= from }
            return false
        })
        // Whole in memory: the same replay from the same start.
        let (base, bid, ask) = try Self.settings(try Self.golden("goldens.json").cases[0], lot: 0.001)
        var settings = base
        settings.startMs = from
        var stored = try store.replayEvents(symbol: "SYN", fromMs: from, toMs: to)
        var memory = ArrayMarketEvents(all.filter { $0.timeMs >= first.timeMs && $0.timeMs <= to })
        let replay = EventReplay(settings: settings, bidQuote: bid, askQuote: ask)
        let r = try replay.run(&stored), m = try replay.run(&memory)
        #expect(r.firstMs == from && r.lastMs <= to && !r.fills.isEmpty && r.fills.allSatisfy { $0.arrivalNs >= from * 1_000_000 })
        #expect(r.fills == m.fills && r.pnl == m.pnl && r.steps == m.steps)
        // No depth in the range.
        #expect(throws: InputError.self) { _ = try store.replayEvents(symbol: "SYN", fromMs: all.last!.timeMs + 1, toMs: nil) }
        #expect(throws: InputError.self) { _ = try store.replayEvents(symbol: "NOPE", fromMs: nil, toMs: nil) }
    }

    @Test("the ob-analytics Bitstamp sample: every fill, position and PnL of hftbacktest's ten cases and four with a latency file",
          .enabled(if: ProcessInfo.processInfo.environment["BT_L2_DATA"].map { !$0.isEmpty } ?? false, "set BT_L2_DATA (make test-l2)"))
    func bitstamp() throws {
        let dir = try #require(ProcessInfo.processInfo.environment["BT_L2_DATA"])
        let store = try Self.store(book: dir + "/book.jsonl", trades: dir + "/trades.jsonl", symbol: "BTCUSD")
        try Self.check(try Self.golden("goldens_l2.json"), store: store, symbol: "BTCUSD")
    }
}
