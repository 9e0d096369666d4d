import Testing
import TestSupport
@testable import BacktestCore

/// The rule language's series functions in quote expressions: each step's value equals the batch
/// indicators on the series of values sampled so far (warm-up and gaps included), reads nothing
/// after its step, and in a replay decides the quotes sent; what a quote cannot read is refused.
@Suite("Quote series functions")
struct QuoteSeriesTests {
    /// Book states whose touch wanders on a seeded walk; every 37th has an empty ask side (mid NaN).
    static func states(count: Int, seed: UInt64 = 11) -> [BookState] {
        var rng = SplitMix64(seed: seed)
        var bid = 100.0
        return (0..<count).map { i in
            bid += Double(rng.int(-3...3)) * 0.25
            let ask = bid + Double(rng.int(1...4)) * 0.25
            var book = OrderBook()
            book.apply(BookEvent(timeMs: Int64(i), kind: .snapshot, bids: [BookLevel(price: bid, quantity: Double(rng.int(1...9)))],
                                 asks: i % 37 == 36 ? [] : [BookLevel(price: ask, quantity: Double(rng.int(1...9)))]))
            return BookState(book: book, lastTrade: bid, position: 0)
        }
    }

    static func values(_ text: String, _ states: [BookState]) throws -> [Double] {
        var q = try QuoteExpression(text, setting: .quoteBid)
        return states.map { q.next($0) }
    }

    static func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
    }

    static func indicator(_ spec: IndicatorSpec, _ x: [Double], output: Int = 0) throws -> [Double] {
        try spec.compute(series: x)[output]
    }

    @Test("indicators of a sampled value equal the indicator kernels on the sampled series, warm-up and gaps included")
    func indicatorsEqualKernels() throws {
        let s = Self.states(count: 300)
        let mid = s.map(\.mid), bid = s.map(\.bestBid), micro = s.map(\.microprice)
        #expect(mid.contains { $0.isNaN })
        let rows: [(String, [Double])] = [
            ("ema(mid, 5)", try Self.indicator(IndicatorSpec(.ema, 5), mid)),
            ("sma(best_bid, 4)", try Self.indicator(IndicatorSpec(.sma, 4), bid)),
            ("wma(mid, 6)", try Self.indicator(IndicatorSpec(.wma, 6), mid)),
            ("rsi(microprice, 3)", try Self.indicator(IndicatorSpec(.rsi, 3), micro)),
            ("stddev(mid, 4)", try Self.indicator(IndicatorSpec(.stddev, 4), mid)),
            ("roc(mid, 2)", try Self.indicator(IndicatorSpec(.roc, 2), mid)),
            ("bb(mid, 5, 2).upper", try Self.indicator(IndicatorSpec(.bb, 5, 2), mid)),
            ("macd(best_bid, 3, 6, 2).signal", try Self.indicator(IndicatorSpec(.macd, 3, 6, 2), bid, output: 1)),
            ("ema(ema(mid, 3), 4)", try Self.indicator(IndicatorSpec(.ema, 4), try Self.indicator(IndicatorSpec(.ema, 3), mid))),
        ]
        for (text, want) in rows {
            let got = try Self.values(text, s)
            #expect(Self.same(got, want), "\(text)")
            #expect(got.prefix(2).allSatisfy { $0.isNaN }, "\(text): NaN in its warm-up")
            #expect(got.filter { $0.isFinite }.count > 150, "\(text)")
        }
    }

    @Test("helpers and offsets over the steps: highest, sum, change, zscore, x[k], in arithmetic with book values")
    func helpers() throws {
        let s = Self.states(count: 120)
        let mid = s.map(\.mid), bid = s.map(\.bestBid)
        func window(_ x: [Double], _ n: Int, _ f: ([Double]) -> Double) -> [Double] {
            x.indices.map { i in
                guard i >= n - 1 else { return .nan }
                let w = Array(x[(i - n + 1)...i])
                return w.contains { $0.isNaN } ? .nan : f(w)
            }
        }
        let highest = window(bid, 3) { $0.max()! }
        let lagged = bid.indices.map { $0 >= 2 ? bid[$0 - 2] : .nan }
        #expect(Self.same(try Self.values("highest(best_bid, 3)", s), highest))
        #expect(Self.same(try Self.values("best_bid[2]", s), lagged))
        #expect(Self.same(try Self.values("change(best_bid, 2)", s), zip(bid, lagged).map { $0 - $1 }))
        #expect(Self.same(try Self.values("min(best_ask, highest(best_bid, 3) + 0.25)", s),
                          zip(s.map(\.bestAsk), highest).map { $0.isNaN || $1.isNaN ? .nan : min($0, $1 + 0.25) }))
        let mean = try Self.indicator(IndicatorSpec(.sma, 4), mid), sd = try Self.indicator(IndicatorSpec(.stddev, 4), mid)
        #expect(Self.same(try Self.values("zscore(mid, 4)", s), mid.indices.map { (mid[$0] - mean[$0]) / sd[$0] }))
    }

    @Test("no look-ahead: changing the states after a step leaves the values at and before it unchanged")
    func noLookAhead() throws {
        let s = Self.states(count: 200), other = Self.states(count: 200, seed: 99)
        for text in ["ema(mid, 20) - 0.5", "bb(mid, 10, 2).lower", "highest(best_bid, 7) - spread", "mid[3]"] {
            let full = try Self.values(text, s)
            for cut in [50, 120] {
                let changed = try Self.values(text, Array(s.prefix(cut + 1)) + other.dropFirst(cut + 1))
                #expect(Self.same(Array(changed.prefix(cut + 1)), Array(full.prefix(cut + 1))), "\(text) at \(cut)")
                #expect(!Self.same(changed, full), "\(text): the later states matter")
            }
        }
    }

    @Test("what a quote cannot read is refused at its setting, the mistake named", arguments: [
        ("atr(14)", "reads candles"),
        ("ema(close, 5)", "unknown book value 'close'"),
        ("cross_above(mid, 100)", "a quote is a price"),
        ("ema(mid, 2.5)", "whole"),
        ("ema(mid, best_bid)", "fixed number"),
        ("bb(mid, 20, 2).top", "no output '.top'"),
        ("bb(mid, 20, 2)", "several outputs"),
        ("emaa(mid, 5)", "did you mean 'ema'"),
    ])
    func refused(text: String, message: String) {
        do {
            _ = try QuoteExpression(text, setting: .quoteBid)
            Issue.record("\(text) accepted")
        } catch let e as InputError {
            #expect(e.setting == .quoteBid && e.reason.contains(message), "\(text): \(e.reason)")
        } catch {
            Issue.record("\(text): \(error)")
        }
    }

    @Test("in a replay, each quote is the sampled series' EMA at the step that sent it, and nothing is sent in its warm-up")
    func replayQuotesFollowTheKernel() throws {
        let events = EventReplayTests.market(seed: 21)
        let everyMs: Int64 = 25, period = 8
        let r = try EventReplayTests.run(events, bid: "ema(mid, \(period)) - 0.5", ask: "ema(mid, \(period)) + 0.5",
                                         everyMs: everyMs, latencyMs: (0, 0))
        // The mid at each step, restated: the book after every event at or before the step.
        let t0 = events[0].timeMs, last = events.last!.timeMs
        var book = OrderBook(), next = 0, mids: [Double] = []
        var step = t0
        while step < last {
            while next < events.count, events[next].timeMs <= step {
                if case .book(let b) = events[next] { book.apply(b) }
                next += 1
            }
            mids.append(BookState(book: book).mid)
            step += everyMs
        }
        #expect(r.steps == mids.count)
        let ema = try Self.indicator(IndicatorSpec(.ema, Double(period)), mids)
        #expect(r.fills.count > 10)
        for f in r.fills {
            let k = Int((f.arrivalNs / 1_000_000 - t0) / everyMs)
            #expect(k >= period - 1, "a quote sent in the warm-up")
            #expect(f.price == ema[k] + (f.side == .buy ? -0.5 : 0.5), "fill \(f.orderID) sent at step \(k)")
        }
        // Cut the market just before step `period - 1`: nothing is sent.
        let warm = try EventReplayTests.run(Array(events.prefix { $0.timeMs <= t0 + everyMs * Int64(period - 1) }),
                                            bid: "ema(mid, \(period)) - 0.5", ask: "ema(mid, \(period)) + 0.5", everyMs: everyMs)
        #expect(warm.steps > 0 && warm.steps <= period - 1 && warm.ordersSent == 0 && warm.notPlacedCrossing == 0)
    }

    @Test("no look-ahead in a replay: cutting the events after T changes no fill at or before T", arguments: [UInt64(1), 2])
    func replayNoLookAhead(seed: UInt64) throws {
        let events = EventReplayTests.market(seed: seed)
        let bid = "min(best_bid, ema(mid, 20) - 1)", ask = "max(best_ask, highest(best_ask, 10))"
        let full = try EventReplayTests.run(events, bid: bid, ask: ask, everyMs: 7, latencyMs: (3, 5))
        #expect(full.fills.count > 10)
        for cut in [events.count / 3, events.count * 2 / 3] {
            let tNs = events[cut].timeMs * 1_000_000
            let part = try EventReplayTests.run(Array(events.prefix { $0.timeMs <= events[cut].timeMs }), bid: bid, ask: ask,
                                                everyMs: 7, latencyMs: (3, 5))
            #expect(part.fills.filter { $0.exchangeNs <= tNs } == full.fills.filter { $0.exchangeNs <= tNs })
        }
    }
}
