import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis

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

    @Test("the running spread window reading a column of pairs equals it computing them, at every fill spacing")
    func columnWindow() {
        let s = OrdersTest.candles(bars: 4_000, seed: 21)
        var pairs = [Double](repeating: 0, count: s.count)
        var scratch = [Double](repeating: 0, count: 2 * s.count + 2)
        s.high.withUnsafeBufferPointer { h in
            s.low.withUnsafeBufferPointer { l in
                s.close.withUnsafeBufferPointer { c in
                    pairs.withUnsafeMutableBufferPointer { p in
                        scratch.withUnsafeMutableBufferPointer { x in
                            CandleEstimators.pairs(h.baseAddress!, l.baseAddress!, c.baseAddress!, from: 1, count: s.count - 1,
                                                   into: p.baseAddress! + 1, own: x.baseAddress!, flags: x.baseAddress! + s.count + 1)
                        }
                    }
                    for window in [2, 7, 250, 1_000] {
                        var ring = SpreadWindow(window: window), column = SpreadWindow(window: window)
                        var rng = SplitMix64(seed: UInt64(window))
                        var t = 0
                        while t < s.count {
                            let a = ring.sample(h, l, c, before: t)
                            let b = pairs.withUnsafeBufferPointer { column.sample(pairs: $0.baseAddress!, before: t) }
                            #expect(a?.mean.bitPattern == b?.mean.bitPattern && a?.standardError.bitPattern == b?.standardError.bitPattern
                                    && a?.pairs == b?.pairs, "t \(t) window \(window)")
                            t += 1 + Int(rng.next() % (rng.next() % 10 == 0 ? 900 : 40))
                        }
                    }
                }
            }
        }
    }

    @Test("runs reading a cache's shared spread pairs equal runs computing their own, whole and over the end of a prefix")
    func sharedPairs() throws {
        let series = OrdersTest.candles(bars: 6_000, seed: 31)
        let signals = OrdersTest.signals(bars: series.count, seed: 31)
        let shared = IndicatorCache(keepsSpreadPairs: true)
        for (spread, fill) in [(250, ExecutionConfig.FillTiming.nextOpen), (3, .close), (20_000, .nextOpen)] {
            var config = ExecutionConfig()
            config.depth = .synthetic
            config.synthetic.spreadWindow = spread
            config.fill = fill
            let own = try Engine.run(series, signals: signals, config: config)
            Self.expectSame(try Engine.run(series, signals: signals, config: config, cache: shared), own, "whole, spread \(spread)")
            // A fold: the last 2,500 bars of a 5,000-bar prefix, its cache the prefix's.
            let prefix = series.slice(0..<5_000), range = 2_500..<5_000
            let foldCache = IndicatorCache(keepsSpreadPairs: true)
            let fold = try Engine.run(prefix.slice(range), signals: signals.slice(range), config: config, endOf: prefix, cache: foldCache)
            let foldOwn = try Engine.run(prefix.slice(range), signals: signals.slice(range), config: config, endOf: prefix,
                                         cache: IndicatorCache())
            Self.expectSame(fold, foldOwn, "fold, spread \(spread)")
        }
    }
}
