import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("bt calibrate: depth profiles")
struct CalibrationTests {
    static let profile = DepthProfile(
        symbol: "BTCUSD", tick: 1, spreadBps: 0.1275843811200633, spreadP90Bps: 0.12767723195761116,
        bid: .init(a: 3.4057126280269707, b: 0.7558576808253245), ask: .init(a: 1.6717243027301751, b: 1.0073635964525511),
        volumeRankCorrelation: -0.5032967032967033, refillHalfLifeSeconds: 0.08885497640895748,
        holdout: .init(sizes: [0.01, 0.1, 10], medianAbsErrorBps: [1e-5, 2e-5, 0.6081], p90AbsErrorBps: [4e-5, 0.097, 1.3226]))

    @Test("a profile round-trips through JSON, with and without its optional values")
    func roundTrip() throws {
        let json = Self.profile.json()
        #expect(json.hasPrefix("{\"symbol\":\"BTCUSD\",\"tick\":1,\"spread_bps\":0.1275843811200633,"))
        #expect(try DepthProfileJSON.parse(Array(json.utf8), file: "p.json") == Self.profile)
        var bare = Self.profile
        bare.tick = nil; bare.volumeRankCorrelation = nil; bare.refillHalfLifeSeconds = nil; bare.holdout = nil
        let text = bare.json()
        #expect(text.contains("\"tick\":null") && text.contains("\"holdout\":null"))
        #expect(try DepthProfileJSON.parse(Array(text.utf8), file: "p.json") == bare)
        // Exactly the documented keys (docs/guide/execution.md), in their order.
        let keys = ["symbol", "tick", "spread_bps", "spread_p90_bps", "bid", "ask", "volume_rank_correlation",
                    "refill_half_life_seconds", "holdout"]
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        #expect(Set(object.keys) == Set(keys))
        #expect(Set((object["holdout"] as! [String: Any]).keys) == ["sizes", "median_abs_error_bps", "p90_abs_error_bps"])
        #expect(Set((object["bid"] as! [String: Any]).keys) == ["a", "b"])
    }

    @Test("bad profiles name the key", arguments: [
        ("{\"symbol\":\"X\",\"spread_bps\":1,\"ask\":{\"a\":1,\"b\":1}}", "\"bid\""),
        ("{\"symbol\":\"X\",\"spread_bps\":1,\"bid\":{\"a\":0,\"b\":1},\"ask\":{\"a\":1,\"b\":1}}", "\"bid.a\""),
        ("{\"symbol\":\"X\",\"spread_bps\":-1,\"bid\":{\"a\":1,\"b\":1},\"ask\":{\"a\":1,\"b\":1}}", "\"spread_bps\""),
        ("{\"spread_bps\":1,\"bid\":{\"a\":1,\"b\":1},\"ask\":{\"a\":1,\"b\":1}}", "\"symbol\""),
        ("[1]", "JSON object"),
        ("{\"symbol\":", "invalid JSON"),
    ])
    func badProfiles(text: String, mentions: String) {
        do {
            _ = try DepthProfileJSON.parse(Array(text.utf8), file: "p.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(mentions), "\(error)")
            #expect("\(error)".hasPrefix("p.json"))
        }
    }

    // MARK: A generated stream with a known power law

    /// One-second book states around a drifting mid on a 0.5 tick: each side rests Q(x) = A x^b
    /// units within x bps of the mid, a one-tick spread; every 10 s a taker buy takes the best
    /// ask, which comes back 150 ms later.
    /// With `onGrid`, the levels sit just inside the fit grid's distances (and the spread is 2 bps)
    /// instead of on the tick, so the median curve is A x^b exactly where it is fitted.
    static func stream(seconds: Int = 1200, onGrid: Bool = false) -> (events: [BookEvent], trades: [TradePrint], candles: CandleSeries) {
        let tick = 0.5, t0: Int64 = 1_700_000_000_000
        let bid = DepthProfile.PowerLaw(a: 20, b: 0.9), ask = DepthProfile.PowerLaw(a: 12, b: 1.1)
        let rng = GSL.Random(seed: 17)
        var events: [BookEvent] = [], trades: [TradePrint] = []
        var candles = CandleSeries(symbol: "GEN", timeframe: .minute1)
        var previous: (bids: [BookLevel], asks: [BookLevel])?
        var mid = 2000.25
        func ladder(_ mid: Double) -> (bids: [BookLevel], asks: [BookLevel]) {
            func side(_ law: DepthProfile.PowerLaw, _ sign: Double) -> [BookLevel] {
                var out: [BookLevel] = [], before = 0.0
                if onGrid {
                    for x in DepthCalibration.fitGrid + [60, 80, 100] {
                        let q = law.a * pow(x, law.b)
                        out.append(BookLevel(price: mid * (1 + sign * (x - 1e-9) / 10_000), quantity: q - before))
                        before = q
                    }
                    return out
                }
                for j in 0..<400 {
                    let price = mid + sign * (tick / 2 + Double(j) * tick)
                    let x = abs(price / mid - 1) * 10_000
                    let q = law.a * pow(x, law.b)
                    out.append(BookLevel(price: price, quantity: q - before))
                    before = q
                }
                return out
            }
            return (side(bid, -1), side(ask, 1))
        }
        for k in 0..<seconds {
            let t = t0 + Int64(k) * 1000
            if k > 0 && rng.uniform() < 0.3 { mid += rng.uniform() < 0.5 ? tick : -tick }
            let next = ladder(mid)
            if let previous {
                func diff(_ old: [BookLevel], _ new: [BookLevel]) -> [BookLevel] {
                    let before = Dictionary(uniqueKeysWithValues: old.map { ($0.price, $0.quantity) })
                    let keep = Set(new.map(\.price))
                    return new.filter { before[$0.price] != $0.quantity }
                        + old.filter { !keep.contains($0.price) }.map { BookLevel(price: $0.price, quantity: 0) }
                }
                events.append(BookEvent(timeMs: t, kind: .update, bids: diff(previous.bids, next.bids), asks: diff(previous.asks, next.asks)))
            } else {
                events.append(BookEvent(timeMs: t, kind: .snapshot, bids: next.bids, asks: next.asks))
            }
            previous = next
            if k % 10 == 5 {
                let best = next.asks[0]
                trades.append(TradePrint(timeMs: t + 300, price: best.price, quantity: best.quantity, side: .buy))
                events.append(BookEvent(timeMs: t + 300, kind: .update, bids: [], asks: [BookLevel(price: best.price, quantity: 0)]))
                events.append(BookEvent(timeMs: t + 450, kind: .update, bids: [], asks: [best]))
            }
            if k % 60 == 0 {
                candles.append(time: t / 1000, open: mid, high: mid + 2, low: mid - 2, close: mid, volume: 1 + rng.uniform() * 10)
            }
        }
        return (events, trades, candles)
    }

    @Test("a generated power-law stream: tick, spread, both sides, refill and small held-out errors")
    func generated() throws {
        let (events, trades, candles) = Self.stream()
        let r = try DepthCalibration.calibrate(symbol: "GEN", events: events, candles: candles, trades: trades)
        let p = r.profile
        #expect(p.tick == 0.5)
        #expect(abs(p.spreadBps - 0.5 / 2000 * 10_000) < 0.05)
        // Levels 2.5 bps apart: the fitted law is the steps' (b above the generator's), and it
        // prices the steps well (the held-out errors below).
        #expect(p.bid.b < p.ask.b && p.bid.a > p.ask.a, "\(p.bid) \(p.ask)")
        // The best ask is gone for 150 ms after each sweep: half-life 150 ms.
        #expect(abs(p.refillHalfLifeSeconds! - 0.15) < 1e-9, "\(p.refillHalfLifeSeconds!)")
        #expect(r.sweeps == 60 && r.sweepsUsed >= 50)
        #expect(r.samples == 600 && r.holdoutBars == 10)
        let h = try #require(p.holdout)
        #expect(h.sizes == DepthCalibration.defaultSizes(depth: min(p.bid.a, p.ask.a)))
        #expect(h.medianAbsErrorBps.allSatisfy { $0 < 0.3 } && h.p90AbsErrorBps.allSatisfy { $0 < 0.6 }, "\(h)")
        // No trades: no refill half-life, the rest unchanged.
        let quiet = try DepthCalibration.calibrate(symbol: "GEN", events: events, candles: candles, trades: [])
        #expect(quiet.profile.refillHalfLifeSeconds == nil && quiet.profile.bid == p.bid)
        // A later window and no holdout.
        let late = try DepthCalibration.calibrate(symbol: "GEN", events: events, candles: candles, trades: trades,
                                                  fromMs: events[0].timeMs + 600_000, holdout: 0)
        #expect(late.profile.holdout == nil && late.samples == 600)
    }

    @Test("levels on the fit grid: the power law comes back exactly, and so do the costs")
    func exactFit() throws {
        let (events, trades, candles) = Self.stream(seconds: 300, onGrid: true)
        let r = try DepthCalibration.calibrate(symbol: "GEN", events: events, candles: candles, trades: trades)
        let p = r.profile
        #expect(abs(p.bid.a - 20) < 1e-6 && abs(p.bid.b - 0.9) < 1e-9, "\(p.bid)")
        #expect(abs(p.ask.a - 12) < 1e-6 && abs(p.ask.b - 1.1) < 1e-9, "\(p.ask)")
        #expect(abs(p.spreadBps - 2) < 1e-6)
        #expect(r.profile.holdout!.sizes == [0.1, 0.3, 1, 3, 10, 30, 100])
    }

    @Test("the default held-out sizes run 1-3-10 from A/100 to 10 A")
    func ladder() {
        #expect(DepthCalibration.defaultSizes(depth: 1.6717) == [0.01, 0.03, 0.1, 0.3, 1, 3, 10])
        #expect(DepthCalibration.defaultSizes(depth: 250) == [1, 3, 10, 30, 100, 300, 1000])
    }

    @Test("quantiles as numpy computes them")
    func quantiles() {
        #expect(Quantiles.type7([3, 1, 2, 4], 0.5) == 2.5)
        #expect(abs(Quantiles.type7([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9) - 9.1) < 1e-12)
        #expect(Quantiles.weighted([(1, 1), (2, 8), (3, 1)], 0.5) == 2)
        #expect(Quantiles.weighted([(1, 1), (2, 8), (3, 1)], 0.95) == 3)
        #expect(abs(Quantiles.spearman([1, 2, 3, 4], [10, 20, 20, 40])! - 0.9486832980505138) < 1e-12)
        #expect(Quantiles.spearman([1, 1, 1], [1, 2, 3]) == nil)
    }
}

@Suite("Store: books in milliseconds, trades, profiles")
struct StoreBookTests {
    func store() throws -> (CandleStore, String) {
        let path = TestSupport.scratchDirectory().appendingPathComponent("s.sqlite").path
        return (try CandleStore(path: path), path)
    }

    @Test("book times keep milliseconds through import and store")
    func milliseconds() throws {
        let text = """
            {"time": "2026-05-02T02:36:20.521Z", "type": "snapshot", "bids": [[78000, 1]], "asks": [[78001, 2]]}
            {"time": 1777689380522, "type": "update", "bids": [[78000, 0.5]]}
            {"time": "1777689380523", "type": "update", "asks": [[78002, 1]]}
            {"time": 1777689380.524, "type": "update", "asks": [[78003, 1]]}
            {"time": 1777689380525123, "type": "update", "asks": [[78004, 1]]}
            """
        let file = try Importer.read(bytes: Array(text.utf8), name: "b.jsonl", options: ImportOptions(symbol: "BTC"))
        let (store, _) = try store()
        try store.write([file])
        let events = try store.bookEvents(symbol: "BTC")
        #expect(events.map(\.timeMs) == [1_777_689_380_521, 1_777_689_380_522, 1_777_689_380_523, 1_777_689_380_524,
                                         1_777_689_380_525])
        #expect(UTCTime.isoMs(events[0].timeMs) == "2026-05-02T02:36:20.521Z")
        #expect(UTCTime.isoMs(1_777_689_380_000) == "2026-05-02T02:36:20Z")
        #expect(try store.bookList()[0].firstMs == 1_777_689_380_521)
    }

    @Test("a store with the old seconds table is read as it is, and converted to milliseconds by its next write")
    func legacy() throws {
        let (store, path) = try store()
        let events = [BookEvent(timeMs: 1_600_000_000_000, kind: .snapshot, bids: [BookLevel(price: 9, quantity: 1)],
                                asks: [BookLevel(price: 11, quantity: 1)]),
                      BookEvent(timeMs: 1_600_000_030_000, kind: .update, bids: [BookLevel(price: 10, quantity: 2)], asks: [])]
        try store.transaction { try store.replaceBook(symbol: "OLD", events: events) }
        try store.db.execute("""
            CREATE TABLE book_events(symbol TEXT NOT NULL, seq INTEGER NOT NULL, time INTEGER NOT NULL,
              kind TEXT NOT NULL, bids BLOB NOT NULL, asks BLOB NOT NULL, PRIMARY KEY(symbol, seq)) WITHOUT ROWID;
            INSERT INTO book_events SELECT symbol, seq, time_ms / 1000, kind, bids, asks FROM books;
            DELETE FROM books;
            """)
        try store.checkpoint()
        let before = TestSupport.storeBytes(path)
        // Readers read the old table and change nothing: no migration from a read.
        let reopened = try CandleStore(existingAt: path)
        #expect(try reopened.bookEvents(symbol: "OLD") == events)
        #expect(try reopened.bookList().map(\.firstMs) == [1_600_000_000_000])
        #expect(TestSupport.storeBytes(path) == before)
        // The next write converts it, once.
        let writer = try CandleStore(writableAt: path)
        try writer.write([.generated(book: events, symbol: "NEW", source: "b")])
        #expect(!writer.tables.contains("book_events"))
        let again = try CandleStore(existingAt: path)
        #expect(try again.bookEvents(symbol: "OLD") == events && again.bookEvents(symbol: "NEW") == events)
    }

    @Test("books have their own table: candles and books of one symbol in one import; a U+0001 symbol is refused")
    func hostileSymbol() throws {
        let (store, _) = try store()
        let odd = "GOOG.X"
        var candles = CandleSeries(symbol: odd, timeframe: .day1)
        candles.append(time: 1_600_000_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10)
        candles.append(time: 1_600_086_400, open: 1.5, high: 2, low: 1, close: 1.8, volume: 10)
        let book = [BookEvent(timeMs: 1_600_000_000_000, kind: .snapshot, bids: [BookLevel(price: 1, quantity: 1)],
                              asks: [BookLevel(price: 2, quantity: 1)])]
        try store.write([.generated(candles, source: "c"), .generated(book: book, symbol: "GOOG", source: "b"),
                         .generated(book: book, symbol: odd, source: "b2")])
        #expect(try store.load(symbol: odd).count == 2)
        #expect(try store.bookEvents(symbol: "GOOG") == book && store.bookEvents(symbol: odd) == book)
        // The symbol alphabet keeps control characters out of every key.
        #expect(throws: InputError.self) { try store.write([.generated(book: book, symbol: "\u{1}GOOG", source: "b3")]) }
    }

    @Test("trade prints are stored beside the candles, merged by span and removed with the symbol")
    func trades() throws {
        let text = """
            {"time": "2026-05-02T02:36:23.817Z", "price": 78319, "qty": 0.121, "side": "buy"}
            {"time": "2026-05-02T02:36:23.817Z", "price": 78320, "qty": 0.2, "side": "buy"}
            {"T": 1777689440001, "p": "78300", "q": "0.5", "m": true}
            {"time": 1777689500000, "price": 78310, "qty": 1}
            """
        let file = try Importer.read(bytes: Array(text.utf8), name: "t.jsonl", options: ImportOptions(symbol: "BTC"))
        #expect(file.prints.map(\.side) == [.buy, .buy, .sell, nil])
        let (store, _) = try store()
        let reports = try store.write([file])
        #expect(reports[0].prints == 4 && reports[0].added == 3)
        let stored = try store.trades(symbol: "BTC")
        #expect(stored == file.prints && stored[0].timeMs == 1_777_689_383_817)
        // A re-import changes nothing; an overlapping file replaces its span.
        #expect(try store.write([file])[0].added == 0)
        let later = try Importer.read(bytes: Array("{\"time\": 1777689500000, \"price\": 78315, \"qty\": 2}\n".utf8),
                                      name: "u.jsonl", options: ImportOptions(symbol: "BTC", format: .trades))
        try store.write([later])
        #expect(try store.trades(symbol: "BTC").map(\.price) == [78319, 78320, 78300, 78315])
        #expect(throws: InputError.self) {
            try Importer.read(bytes: Array("{\"time\": 1, \"price\": 1, \"qty\": 1, \"side\": \"up\"}\n".utf8), name: "x.jsonl",
                              options: ImportOptions(format: .trades))
        }
        try store.saveDepthProfile(CalibrationTests.profile, at: 0)
        try store.remove(symbol: "BTC")
        #expect(try store.trades(symbol: "BTC").isEmpty)
    }

    @Test("a depth profile is stored with its symbol and read back; removing the symbol removes it")
    func profiles() throws {
        let (store, _) = try store()
        #expect(try store.depthProfile(symbol: "BTCUSD") == nil)
        try store.saveDepthProfile(CalibrationTests.profile, at: 1)
        #expect(try store.depthProfile(symbol: "BTCUSD") == CalibrationTests.profile)
        var newer = CalibrationTests.profile
        newer.spreadBps = 0.2
        try store.saveDepthProfile(newer, at: 2)
        #expect(try store.depthProfile(symbol: "BTCUSD")?.spreadBps == 0.2 && store.depthProfileSymbols() == ["BTCUSD"])
        let book = [BookEvent(timeMs: 0, kind: .snapshot, bids: [], asks: [BookLevel(price: 1, quantity: 1)])]
        try store.write([.generated(book: book, symbol: "BTCUSD", source: "b")])
        try store.remove(symbol: "BTCUSD")
        #expect(try store.depthProfile(symbol: "BTCUSD") == nil)
    }

    @Test("import counts book updates that leave the book crossed or locked")
    func crossedImport() throws {
        let text = """
            {"time": 1000, "type": "snapshot", "bids": [[99, 1]], "asks": [[100, 1], [101, 1]]}
            {"time": 1001, "type": "update", "bids": [[100.5, 1]]}
            {"time": 1002, "type": "update", "bids": [[99.5, 1]]}
            {"time": 1003, "type": "update", "bids": [[100.5, 0]]}
            """
        let file = try Importer.read(bytes: Array(text.utf8), name: "x.jsonl", options: ImportOptions(symbol: "X"))
        let (store, _) = try store()
        let check = try #require(try store.write([file])[0].bookCheck)
        // Raw replay: crossed after the first two updates (bid 100.5 over the ask at 100).
        #expect(check.crossedUpdates == 2 && check.updates == 3 && check.staleLevels == 1)
    }
}
