import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// The candle-only spread: the bars' Corwin-Schultz mean bounded by the volume relation and
/// shrunk toward it by its standard error (`SpreadEstimate`), and what a run says about it.
@Suite("Spread estimate: bars, volume relation, tick")
struct SpreadEstimateTests {
    func close(_ a: Double, _ b: Double, _ tol: Double = 1e-12) -> Bool { abs(a - b) <= tol * max(1e-300, abs(b)) }

    typealias Sample = CandleEstimators.SpreadSample

    @Test("the rule: bounded by the relation, shrunk toward it by the bars' error, the bars alone, the tick")
    func rule() {
        // Bars above the relation: the relation, whatever their precision.
        var e = SpreadEstimate(bars: Sample(mean: 18e-4, standardError: 1e-4, pairs: 249), relation: 4e-4, floor: 0)
        #expect(e.spread == 4e-4 && e.source == .relation && e.barsWeight == 0 && e.standardError == 4e-4)
        // Below it: w = r² / (r² + se²) of the bars, the rest the relation.
        e = SpreadEstimate(bars: Sample(mean: 2e-4, standardError: 4e-4, pairs: 249), relation: 4e-4, floor: 0)
        #expect(close(e.barsWeight, 0.5) && close(e.spread, 3e-4) && e.source == .bars)
        #expect(close(e.standardError, (16e-8 * 16e-8 / 32e-8).squareRoot()))
        e = SpreadEstimate(bars: Sample(mean: 2e-4, standardError: 12e-4, pairs: 249), relation: 4e-4, floor: 0)
        #expect(close(e.barsWeight, 0.1) && close(e.spread, 0.1 * 2e-4 + 0.9 * 4e-4) && e.source == .relation)
        // A negative mean counts as a spread of 0.
        e = SpreadEstimate(bars: Sample(mean: -30e-4, standardError: 4e-4, pairs: 249), relation: 4e-4, floor: 0)
        #expect(close(e.spread, 2e-4))
        // A precise mean far below the relation stays (crypto venues, FX tick volume).
        e = SpreadEstimate(bars: Sample(mean: -0.3e-4, standardError: 0.25e-4, pairs: 27), relation: 8e-4, floor: 0.128e-4)
        #expect(e.spread == 0.128e-4 && e.source == .tick && e.barsWeight > 0.999)
        // One pair has no error estimate: the relation alone.
        e = SpreadEstimate(bars: Sample(mean: 1e-4, standardError: .infinity, pairs: 1), relation: 4e-4, floor: 0)
        #expect(e.spread == 4e-4 && e.barsWeight == 0)
        // Flat bars: every pair 0, an exact sample.
        e = SpreadEstimate(bars: Sample(mean: 0, standardError: 0, pairs: 249), relation: 4e-4, floor: 0)
        #expect(e.spread == 0 && e.barsWeight == 1 && e.standardError == 0)
        // Without a relation (no volume): the bars' mean clipped at 0, as before the relation.
        e = SpreadEstimate(bars: Sample(mean: 18e-4, standardError: 1e-4, pairs: 249), relation: nil, floor: 0)
        #expect(e.spread == 18e-4 && e.source == .bars && e.standardError == 1e-4)
        e = SpreadEstimate(bars: nil, relation: nil, floor: 1e-4)
        #expect(e.spread == 1e-4 && e.source == .tick)
    }

    @Test("the volume relation: 8 (σ² / D)^{1/3}, the same for any bar length")
    func relation() {
        // The benchmark stock of Kyle and Obizhaeva (2016): σ 2% a day, $40M a day: 17.2 bps.
        let r = CandleEstimators.volumeRelationSpread(sigma: 0.02, dollarVolume: 40e6)!
        #expect(close(r, 8 * cbrt(0.0004 / 40e6)) && abs(r * 10_000 - 17.235) < 1e-3)
        // Hourly bars of the same stock (6.5 a day): σ² and D both a 6.5th.
        #expect(close(CandleEstimators.volumeRelationSpread(sigma: 0.02 / 6.5.squareRoot(), dollarVolume: 40e6 / 6.5)!, r, 1e-12))
        #expect(CandleEstimators.volumeRelationSpread(sigma: 0.02, dollarVolume: 0) == nil)
        #expect(CandleEstimators.volumeRelationSpread(sigma: .nan, dollarVolume: 1e6) == nil)
    }

    @Test("the sample's standard error: direct, and kept by the engine's running window to rounding")
    func sample() {
        let s = EngineTest.random(bars: 3000, seed: 11)
        let direct = CandleEstimators.spreadSample(s, before: 300, window: 250)!
        var pairs: [Double] = []
        for k in 51..<300 {
            pairs.append(CandleEstimators.corwinSchultz(high0: s.high[k - 1], low0: s.low[k - 1], close0: s.close[k - 1],
                                                        high1: s.high[k], low1: s.low[k]))
        }
        let mean = pairs.reduce(0, +) / Double(pairs.count)
        let sd = (pairs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(pairs.count - 1)).squareRoot()
        #expect(direct.pairs == 249 && close(direct.mean, mean, 1e-13) && close(direct.standardError, sd / 249.0.squareRoot(), 1e-12))
        #expect(CandleEstimators.spreadSample(s, before: 2, window: 250)!.standardError == .infinity)
        for window in [2, 20, 250] {
            var running = SpreadWindow(window: window, pairs: SpreadPairs(s), bars: s.count)
            var t = 0
            let rng = GSL.Random(seed: UInt(window) + 5)
            while t < s.count {
                let direct = CandleEstimators.spreadSample(s, before: t, window: window)
                let fast = running.sample(before: t)
                #expect((direct == nil) == (fast == nil))
                if let direct, let fast {
                    #expect(direct.mean == fast.mean || abs(direct.mean - fast.mean) <= 1e-15, "t \(t) window \(window)")
                    #expect(direct.pairs == fast.pairs)
                    if direct.pairs >= 2 {
                        #expect(abs(direct.standardError - fast.standardError) <= 1e-9 * direct.standardError + 1e-15,
                                "t \(t) window \(window): \(direct.standardError) \(fast.standardError)")
                    }
                }
                t += 1 + Int(rng.uniform() * Double(rng.uniform() < 0.1 ? 600 : 30))
            }
        }
    }

    /// Daily bars of a stock whose trades print at a bid and an ask `spread` apart around a
    /// random-walk mid (σ a day), `trades` prints a day of `volume` shares; each print also strays
    /// from the mid by a transient lognormal `noise` that does not last (intraday volatility that
    /// widens the day's range but not the close-to-close returns).
    static func quoted(bars n: Int, price: Double, sigma: Double, spread: Double, volume: Double,
                       trades: Int = 40, noise: Double = 0, seed: UInt) -> CandleSeries {
        let rng = GSL.Random(seed: seed)
        var s = CandleSeries(symbol: "Q", timeframe: .day1)
        var mid = price
        for i in 0..<n {
            var o = 0.0, h = 0.0, l = Double.infinity, c = 0.0
            for k in 0..<trades {
                mid *= exp(rng.gaussian(sigma: sigma / Double(trades).squareRoot()))
                let stray = noise > 0 ? exp(rng.gaussian(sigma: noise)) : 1
                let p = mid * stray * (rng.uniform() < 0.5 ? 1 - spread / 2 : 1 + spread / 2)
                if k == 0 { o = p }
                h = max(h, p); l = min(l, p); c = p
            }
            s.append(time: 1_600_000_000 + Int64(i) * 86_400, open: o, high: h, low: l, close: c, volume: volume)
        }
        return s
    }

    @Test("an illiquid series (small dollar volume, wide bars) still gets a wide spread through the engine")
    func illiquid() throws {
        // A $4 share trading 2,500 shares ($10,000) a day, 200 bps between bid and ask.
        let s = Self.quoted(bars: 600, price: 4, sigma: 0.03, spread: 0.02, volume: 2_500, seed: 7)
        var c = ExecutionConfig()
        c.sizing = .cash(500)
        c.initialCash = 100_000
        c.feeBps = 0
        c.maxParticipation = nil
        c.synthetic.tick = s.inferredTick
        let n = s.count
        let signals = Signals(entries: (0..<n).map { $0 >= 260 && $0 % 4 == 0 }, exits: (0..<n).map { $0 >= 260 && $0 % 4 == 2 })
        let r = try EngineTest.run(s, signals, c)
        #expect(r.fills.count > 100 && r.rejected.isEmpty)
        let summary = try #require(r.spreadEstimate)
        #expect(summary.method == .estimated && summary.fills == r.fills.count)
        // The bars see most of the 200 bps (40 prints a day do not always reach the bid and the
        // ask) and the relation, wider still, does not cut it.
        let spread = try #require(summary.spreadBps)
        #expect(spread > 80 && spread < 260, "median spread \(spread) bps")
        #expect(try #require(summary.relationBps) > 2 * spread)
        #expect(summary.mainSource == .bars && summary.barsWeight! > 0.99)
        let mean = r.fills.reduce(0) { $0 + $1.slippageBps } / Double(r.fills.count)
        #expect(mean > 40, "mean slippage \(mean) bps")
    }

    @Test("a liquid series whose bars overstate the spread is bounded by the relation")
    func liquid() throws {
        // A $30 share trading 40M shares a day ($1.2B), 3 bps between bid and ask, 1.5% a day, with
        // 10 bps of transient intraday noise on each of 100 prints: the bars read the noise as
        // spread (15-25 bps, as on MSFT's real bars), the relation does not.
        let s = Self.quoted(bars: 600, price: 30, sigma: 0.015, spread: 0.0003, volume: 40e6, trades: 100, noise: 0.001, seed: 3)
        var model = SyntheticDepth()
        model.tick = 0.01
        var bounded = 0, bars: [Double] = [], spreads: [Double] = [], costs: [Double] = []
        for t in 260..<s.count {
            let e = model.estimates(s, at: t)
            let estimate = model.spreadEstimate(e, reference: s.open[t])!
            if e.bars!.mean >= estimate.relation! {
                bounded += 1
                #expect(estimate.spread == max(estimate.relation!, 0.01 / s.open[t]))
            }
            bars.append(e.bars!.mean * 10_000)
            spreads.append(estimate.spread * 10_000)
            costs.append(model.curve(.buy, estimates: e, reference: s.open[t], barSeconds: 86_400).cost(10_000 / s.open[t]) * 10_000)
        }
        #expect(bounded > spreads.count / 2)
        #expect(GSL.quantile(bars, 0.5) > 10)
        let median = GSL.quantile(spreads, 0.5)
        #expect(median > 2 && median < 8, "median \(median) bps")
        #expect(costs.reduce(0, +) / Double(costs.count) <= 5)
    }

    @Test("a run says where its spread came from: estimated, given, fixed, none")
    func summaries() throws {
        let goog = try ShippedData.goog()
        var c = ExecutionConfig()
        c.synthetic.tick = goog.inferredTick
        let n = goog.count
        let signals = Signals(entries: (0..<n).map { $0 % 40 == 0 }, exits: (0..<n).map { $0 % 40 == 20 })
        let r = try EngineTest.run(goog, signals, c)
        let s = try #require(r.spreadEstimate)
        #expect(s.method == .estimated && s.fills == r.fills.count && s.mainSource == .relation)
        #expect(s.bySource.values.reduce(0, +) == r.fills.count)
        // Each fill's estimate is the reference one at its bar.
        var model = c.synthetic
        let medians = r.fills.map { f in model.spreadEstimate(model.estimates(goog, at: f.index), reference: f.referencePrice)!.spread * 10_000 }
            .sorted()
        #expect(abs(s.spreadBps! - (medians.count % 2 == 1 ? medians[medians.count / 2]
                                     : (medians[medians.count / 2 - 1] + medians[medians.count / 2]) / 2)) <= 1e-9)
        #expect(s.standardErrorBps! > 0 && s.barsWeight! < 0.5 && s.relationBps! > 1 && s.relationBps! < 10)

        model.spreadBps = 5
        c.synthetic = model
        var g = try EngineTest.run(goog, signals, c).spreadEstimate!
        #expect(g.method == .given && g.spreadBps == 5 && g.bySource.isEmpty && g.mainSource == nil)
        c.depth = .fixedSlippage(bps: 3)
        g = try EngineTest.run(goog, signals, c).spreadEstimate!
        #expect(g.method == .fixed && abs(g.spreadBps! - 6) < 1e-12)
        c.depth = .none
        g = try EngineTest.run(goog, signals, c).spreadEstimate!
        #expect(g.method == .none && g.spreadBps == nil)
    }
}
