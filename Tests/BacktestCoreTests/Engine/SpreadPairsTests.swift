import Testing
import TestSupport
@testable import BacktestCore

/// A series' Corwin-Schultz pairs computed once (`SpreadPairs`) give the spread window the
/// samples, and the run the results, of computing them for itself, bit for bit.
@Suite("Spread pairs: a series' pairs computed once equal the spread window's own")
struct SpreadPairsTests {
    /// Compared field by field as booleans (a failure names the part, not every fill).
    static func expectSame(_ a: BacktestResult, _ b: BacktestResult, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let ledger = a.cash == b.cash && a.position == b.position && a.equity == b.equity
        let fills = a.fills == b.fills && a.trades == b.trades && a.rejected == b.rejected
        let spread = a.spreadEstimate == b.spreadEstimate, warnings = a.warnings == b.warnings
        #expect(ledger, "\(what): ledger", sourceLocation: sourceLocation)
        #expect(fills, "\(what): fills", sourceLocation: sourceLocation)
        #expect(spread, "\(what): spread estimates", sourceLocation: sourceLocation)
        #expect(warnings, "\(what): warnings", sourceLocation: sourceLocation)
    }

    /// Bars with what sends pairs off the two-lane path: overnight gaps both ways, prices that
    /// are 0, negative, NaN or infinite, and a range past the series' reach.
    static func awkward(bars: Int, seed: UInt64) -> CandleSeries {
        var s = OrdersTest.candles(bars: bars, seed: seed)
        var rng = SplitMix64(seed: seed)
        for k in 1..<bars where rng.next() % 50 == 0 {
            switch rng.next() % 6 {
            case 0: s.low[k] = s.close[k - 1] * 1.02; s.high[k] = max(s.high[k], s.low[k] * 1.01)
            case 1: s.high[k] = s.close[k - 1] * 0.98; s.low[k] = min(s.low[k], s.high[k] * 0.99)
            case 2: s.low[k] = 0
            case 3: s.low[k] = -1
            case 4: s.high[k] = .nan
            default: s.high[k] = s.low[k] * 1.6
            }
        }
        return s
    }

    @Test("a series' column holds each pair as corwinSchultz computes it, to the bit, across chunks and awkward bars")
    func column() {
        let s = Self.awkward(bars: 2 * SpreadPairs.chunk + 500, seed: 5)
        let column = SpreadPairs(s)
        var differ = 0
        for k in 1..<s.count {
            let pair = CandleEstimators.corwinSchultz(high0: s.high[k - 1], low0: s.low[k - 1], close0: s.close[k - 1],
                                                      high1: s.high[k], low1: s.low[k])
            if pair.bitPattern != column.values[k].bitPattern { differ += 1 }
        }
        #expect(differ == 0)
        #expect(SpreadPairs(s.slice(0..<1)).count == 1)
    }

    @Test("a window filling its own column as it goes equals one reading the series' column, at every fill spacing",
          arguments: [2, 7, 250, 1_000, 9_000])
    func fillingWindow(window: Int) {
        let s = Self.awkward(bars: 12_000, seed: 21)
        let whole = SpreadPairs(s)
        var filling = SpreadWindow(window: window, filling: s), reading = SpreadWindow(window: window, pairs: whole, bars: s.count)
        var rng = SplitMix64(seed: UInt64(window))
        var t = 0, samples = 0
        while t < s.count {
            let a = filling.sample(before: t), b = reading.sample(before: t)
            #expect(a?.mean.bitPattern == b?.mean.bitPattern && a?.standardError.bitPattern == b?.standardError.bitPattern
                    && a?.pairs == b?.pairs, "t \(t) window \(window)")
            if a != nil { samples += 1 }
            t += 1 + Int(rng.next() % (rng.next() % 10 == 0 ? 2_000 : 40))
        }
        #expect(samples > 50)
        // A run over the end of the series reads the column from its own first bar.
        let end = s.slice(3_000..<s.count)
        var own = SpreadWindow(window: window, filling: end), shared = SpreadWindow(window: window, pairs: whole, bars: end.count)
        for t in stride(from: 0, to: end.count, by: 97) {
            let a = own.sample(before: t), b = shared.sample(before: t)
            #expect(a?.mean.bitPattern == b?.mean.bitPattern && a?.pairs == b?.pairs, "end, t \(t) window \(window)")
        }
    }

    @Test("runs sharing one cache's spread pairs equal runs with a cache each, whole and over the end of a prefix")
    func sharedPairs() throws {
        let series = OrdersTest.candles(bars: 6_000, seed: 31)
        let signals = OrdersTest.signals(bars: series.count, seed: 31)
        // One cache for the series and one for a prefix, each shared by every run below.
        let shared = IndicatorCache(), foldCache = IndicatorCache()
        let prefix = series.slice(0..<5_000), range = 2_500..<5_000
        for (spread, fill) in [(250, ExecutionConfig.FillTiming.nextOpen), (3, .close), (20_000, .nextOpen)] {
            var config = ExecutionConfig()
            config.depth = .synthetic
            config.synthetic.spreadWindow = spread
            config.fill = fill
            let own = try Engine.run(Engine.Request(series, signals: signals, config: config))
            Self.expectSame(try Engine.run(Engine.Request(series, signals: signals, config: config, cache: shared)), own, "whole, spread \(spread)")
            // A fold, the last 2,500 bars of the prefix, reads the prefix's pairs from its 2,500th
            // on: the same as the fold's bars run alone (no expressions, so nothing else reads
            // the bars before).
            let fold = try Engine.run(Engine.Request(CandleWindow(prefix, start: range.lowerBound), signals: signals.slice(0..<prefix.count),
                                                     config: config, cache: foldCache))
            let alone = try Engine.run(Engine.Request(prefix.slice(range), signals: signals.slice(range), config: config))
            Self.expectSame(fold, alone, "fold, spread \(spread)")
        }
    }
}
