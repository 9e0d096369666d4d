import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData

/// The event-level replay against hftbacktest 2.4.4's fills (Tests/Fixtures/replay/make_goldens.py):
/// the committed synthetic market, and the ob-analytics Bitstamp sample when `BT_L2_DATA` is set
/// (`make test-l2`), with `NoPartialFillExchange` (`--fills whole`) and `PartialFillExchange`
/// (`--fills partial`: every piece its own fill). Every fill (exchange time, side, price,
/// quantity, order number) equal, the final position and PnL (from every execution) within 1e-9,
/// and the counts of orders, cancels, refusals and steps.
@Suite("Replay goldens (hftbacktest)")
struct ReplayGoldenTests {
    struct Golden {
        var lot: Double
        var cases: [[String: Any]]
        /// The cases with a recorded latency file (`latency_file`, beside the goldens) instead of
        /// a constant latency (all with the whole-fill exchange).
        var latencyFileCases: [[String: Any]]
        /// Each case's fills by its name (both lists).
        var fills: [String: [ReplayGoldenFill]]
    }

    static func golden(_ name: String) throws -> Golden {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoFile("Tests/Fixtures/replay/" + name)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return Golden(lot: try #require(object["lot"] as? Double), cases: try #require(object["cases"] as? [[String: Any]]),
                      latencyFileCases: object["latency_file_cases"] as? [[String: Any]] ?? [],
                      fills: try ReplayGoldenFill.byCase(data))
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
            queue: try QueueModel(parsing: try #require(c["queue"] as? String)),
            fills: try FillModel(parsing: try #require(c["exchange"] as? String)), makerBps: try #require(c["maker_bps"] as? Double), lot: lot)
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

    /// - Parameter partial: how many cases use the partial-fill exchange (after the ten whole ones).
    static func check(_ golden: Golden, store: CandleStore, symbol: String, partial: Int, inferredLot: Bool = true) throws {
        if inferredLot {
            var source = try store.replayEvents(symbol: symbol, fromMs: nil, toMs: nil)
            #expect(try LotInference.lot(of: &source) == golden.lot)
        }
        // Ten whole-fill cases: six with the riskaverse queue, four with the probability models.
        let whole = golden.cases.filter { $0["exchange"] as? String == "whole" }
        #expect(whole.count == 10 && whole.filter { $0["queue"] as? String != "riskaverse" }.count == 4)
        #expect(golden.cases.filter { $0["exchange"] as? String == "partial" }.count == partial && golden.cases.count == 10 + partial)
        try checkCases(golden.cases, golden: golden, store: store, symbol: symbol)
        // The latency file: at the touch and a tick behind, with each queue model.
        #expect(Set(golden.latencyFileCases.compactMap { $0["queue"] as? String }) == ["riskaverse", "prob:2", "logprob"]
                && Set(golden.latencyFileCases.compactMap { $0["quote_bid"] as? String }) == ["best_bid", "best_bid - 1"])
        try checkCases(golden.latencyFileCases, golden: golden, store: store, symbol: symbol)
    }

    /// - Parameter receivedAfterNs: when given, every event is given a receive time this long
    ///   after its exchange time (a recording's local times).
    static func checkCases(_ cases: [[String: Any]], golden: Golden, store: CandleStore, symbol: String,
                           receivedAfterNs delay: Int64? = nil) throws {
        for c in cases {
            let name = c["name"] as? String ?? "?"
            let (settings, bid, ask) = try settings(c, lot: golden.lot)
            var source = try store.replayEvents(symbol: symbol, fromMs: nil, toMs: nil)
            let replay = EventReplay(settings: settings, bidQuote: bid, askQuote: ask)
            let r: ReplayResult
            if let delay {
                var events: [MarketEvent] = []
                while let e = try source.next() { events.append(e) }
                var received = ArrayMarketEvents(events.map { e in
                    switch e {
                    case .trade(var t): t.localNs = t.timeMs * 1_000_000 + delay; return .trade(t)
                    case .book(var b): b.localNs = b.timeMs * 1_000_000 + delay; return .book(b)
                    }
                })
                r = try replay.run(&received)
            } else {
                r = try replay.run(&source)
            }
            let want = try #require(golden.fills[name]).sorted()
            let got = r.fills.map { ReplayGoldenFill(exchangeNs: $0.exchangeNs, side: $0.side.rawValue, price: $0.price, quantity: $0.quantity, orderID: $0.orderID) }
                .sorted()
            let firstDifference = zip(got, want).first { $0 != $1 }.map { "bt \($0.0), hftbacktest \($0.1)" } ?? ""
            #expect(!want.isEmpty && got == want, "\(name): \(got.count) fills, hftbacktest \(want.count); \(firstDifference)")
            #expect(abs(r.finalPosition - (try #require(c["final_position"] as? Double))) <= 1e-9, "\(name)")
            #expect(abs(r.pnl - (try #require(c["pnl"] as? Double))) <= 1e-9, "\(name): pnl \(r.pnl)")
            #expect(r.ordersSent == c["orders_sent"] as? Int && r.cancelsSent == c["cancels_sent"] as? Int, "\(name)")
            #expect(r.rejectedPostOnly == c["rejected_post_only"] as? Int && r.notPlacedCrossing == c["not_placed_crossing"] as? Int
                    && r.steps == c["steps"] as? Int, "\(name)")
        }
    }

    @Test("the synthetic market: every fill, position and PnL of hftbacktest's ten whole-fill, twelve partial-fill and four latency-file cases")
    func synthetic() throws {
        let store = try Self.store(book: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_book.jsonl"),
                                   trades: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_trades.jsonl"), symbol: "SYN")
        let golden = try Self.golden("goldens.json")
        try Self.check(golden, store: store, symbol: "SYN", partial: 12)
        // The partial cases fill orders in pieces (and so would fail with whole fills): some
        // order has several fills, and a position that is not a whole number of quote sizes.
        for c in golden.cases where c["exchange"] as? String == "partial" {
            let orders = (c["fills"] as? [[Any]] ?? []).compactMap { $0[4] as? Int }
            #expect(Set(orders).count < orders.count, "\(c["name"] ?? "?")")
        }
    }

    @Test("a recording received 3 ms late: every fill, position and PnL of hftbacktest's ten whole-fill cases with local_ts = exch_ts + 3 ms")
    func localTimes() throws {
        let store = try Self.store(book: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_book.jsonl"),
                                   trades: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_trades.jsonl"), symbol: "SYN")
        let golden = try Self.golden("local_time_goldens.json")
        #expect(golden.cases.count == 10)
        try Self.checkCases(golden.cases, golden: golden, store: store, symbol: "SYN", receivedAfterNs: 3_000_000)
        // Received late, the fills differ from the ones of the events seen when made.
        let plain = try Self.golden("goldens.json")
        #expect(golden.cases.filter { c in plain.fills[c["name"] as? String ?? ""] != golden.fills[c["name"] as? String ?? ""] }.count >= 8)
    }

    @Test("the partial cases replayed with whole fills differ from hftbacktest's partial fills")
    func wholeIsNotPartial() throws {
        let store = try Self.store(book: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_book.jsonl"),
                                   trades: TestSupport.repoFile("Tests/Fixtures/replay/synthetic_trades.jsonl"), symbol: "SYN")
        let golden = try Self.golden("goldens.json")
        for c in golden.cases where c["exchange"] as? String == "partial" {
            var (settings, bid, ask) = try Self.settings(c, lot: golden.lot)
            settings.fills = .whole
            var source = try store.replayEvents(symbol: "SYN", fromMs: nil, toMs: nil)
            let r = try EventReplay(settings: settings, bidQuote: bid, askQuote: ask).run(&source)
            let name = try #require(c["name"] as? String)
            let got = r.fills.map { ReplayGoldenFill(exchangeNs: $0.exchangeNs, side: $0.side.rawValue, price: $0.price, quantity: $0.quantity, orderID: $0.orderID) }
            #expect(got.sorted() != golden.fills[name]?.sorted(), "\(name)")
        }
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

    @Test("the ob-analytics Bitstamp sample: every fill, position and PnL of hftbacktest's ten cases, whole and partial, and four with a latency file",
          .enabled(if: ProcessInfo.processInfo.environment["BT_L2_DATA"].map { !$0.isEmpty } ?? false, "set BT_L2_DATA (make test-l2)"))
    func bitstamp() throws {
        let dir = try #require(ProcessInfo.processInfo.environment["BT_L2_DATA"])
        let store = try Self.store(book: dir + "/book.jsonl", trades: dir + "/trades.jsonl", symbol: "BTCUSD")
        try Self.check(try Self.golden("goldens_l2.json"), store: store, symbol: "BTCUSD", partial: 10)
    }
}
