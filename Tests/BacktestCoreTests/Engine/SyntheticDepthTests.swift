import Foundation
import Testing
import TestSupport
@testable import BacktestCore

@Suite("Synthetic depth: candle-only default and calibrated books")
struct SyntheticDepthTests {
    func close(_ a: Double, _ b: Double, _ tol: Double = 1e-9) -> Bool { abs(a - b) <= tol * max(1, abs(b)) }

    // MARK: Spread

    /// Reference values from Tests/Fixtures/l2/candle_model_prototype.py (`cs_pair_adjusted`).
    static let high = [101.0, 101.5, 103.0, 102.0, 106.0], low = [99.0, 99.5, 98.0, 100.0, 104.0]
    static let closes = [100.0, 101.0, 99.0, 101.5, 105.5]

    static var series: CandleSeries {
        EngineTest.candles((0..<5).map { (closes[$0], high[$0], low[$0], closes[$0], 1000.0) })
    }

    @Test("Corwin-Schultz pairs with the overnight adjustment (prototype values)",
          arguments: [(1, 0.007908892526591878), (2, 0.009251189351591077), (3, 0.009340590685474794),
                      (4, -0.015934573480650572)])
    func pairs(k: Int, expected: Double) {
        let h = Self.high, l = Self.low, c = Self.closes
        let s = CandleEstimators.corwinSchultz(high0: h[k - 1], low0: l[k - 1], close0: c[k - 1], high1: h[k], low1: l[k])
        #expect(abs(s - expected) <= 1e-14)
    }

    @Test("spread: signed mean of the pairs before the fill bar, clipped once; nil with fewer than two bars")
    func spread() {
        let s = Self.series
        #expect(abs(CandleEstimators.spread(s, before: 5, window: 250)! - 0.002641524770751795) <= 1e-15)
        #expect(abs(CandleEstimators.spread(s, before: 4, window: 2)! - 0.009340590685474794) <= 1e-15)
        // The pair (3, 4) alone is negative: clipped to 0, not dropped.
        #expect(CandleEstimators.spread(s, before: 5, window: 2) == 0)
        #expect(CandleEstimators.spread(s, before: 1, window: 250) == nil)
        #expect(CandleEstimators.spread(s, before: 0, window: 250) == nil)
    }

    @Test("the engine's running window equals the direct estimate at every fill spacing")
    func runningWindow() {
        let s = EngineTest.random(bars: 3000, seed: 11)
        for window in [2, 20, 250] {
            var running = SpreadWindow(window: window, filling: s)
            var t = 0
            let rng = GSL.Random(seed: UInt(window))
            while t < s.count {
                let direct = CandleEstimators.spread(s, before: t, window: window)
                let fast = running.sample(before: t).map { max(0, $0.mean) }
                #expect((direct == nil) == (fast == nil))
                if let direct, let fast { #expect(abs(direct - fast) <= 1e-15 + 1e-12 * direct, "t \(t) window \(window)") }
                t += 1 + Int(rng.uniform() * Double(rng.uniform() < 0.1 ? 600 : 30))
            }
        }
    }

    @Test("one pass over the impact window gives the direct functions' sigma and volumes to the bit")
    func impactWindowOnePass() {
        // Awkward values among ordinary bars: gaps past the series' range, prices that are 0,
        // negative, NaN or infinite, volumes NaN, infinite or 0, and products that overflow.
        let s = EngineTest.random(bars: 1500, seed: 5)
        var close = s.close, volume = s.volume
        let rng = GSL.Random(seed: 9)
        for k in 0..<close.count where rng.uniform() < 0.03 {
            close[k] = [0, -3, .nan, .infinity, close[k] * 1.5, close[k] * 0.6, 1e300][Int(rng.uniform() * 7)]
        }
        for k in 0..<volume.count where rng.uniform() < 0.03 {
            volume[k] = [.nan, .infinity, 0, -.infinity, 1e300][Int(rng.uniform() * 5)]
        }
        func bits(_ x: Double?) -> UInt64? { x.map(\.bitPattern) }
        for window in [2, 3, 20, 21, 250] {
            for t in 0...close.count {
                close.withUnsafeBufferPointer { c in
                    volume.withUnsafeBufferPointer { v in
                        guard let one = CandleEstimators.impactWindow(c, v, before: t, window: window) else {
                            #expect(t <= window, "t \(t) window \(window)")
                            return
                        }
                        let sigma = CandleEstimators.volatility(c, before: t, window: window)
                        let means = CandleEstimators.meanVolumes(c, v, before: t, window: window)
                        #expect(bits(one.sigma) == bits(sigma), "sigma at t \(t) window \(window)")
                        #expect(bits(one.volume) == bits(means.volume), "volume at t \(t) window \(window)")
                        #expect(bits(one.volume) == bits(CandleEstimators.meanVolume(v, before: t, window: window)))
                        #expect(bits(one.dollars) == bits(means.dollars), "dollars at t \(t) window \(window)")
                    }
                }
            }
        }
    }

    @Test("the pairs kernel gives corwinSchultz's pairs to the bit for every run length and start")
    func pairsKernel() {
        // Ordinary bars with overnight gaps, prices that are 0 or NaN, and wide ranges among them.
        let s = EngineTest.random(bars: 400, seed: 3)
        var h = s.high, l = s.low, c = s.close
        let rng = GSL.Random(seed: 17)
        for k in 1..<h.count where rng.uniform() < 0.04 {
            switch Int(rng.uniform() * 5) {
            case 0: l[k] = c[k - 1] * 1.01; h[k] = max(h[k], l[k] * 1.002)       // gap up
            case 1: h[k] = c[k - 1] * 0.99; l[k] = min(l[k], h[k] * 0.998)       // gap down
            case 2: l[k] = 0
            case 3: h[k] = .nan
            default: h[k] = l[k] * 1.2                                           // past the series' range
            }
        }
        var out = [Double](repeating: 0, count: 64), own = [Double](repeating: 0, count: 65)
        var flags = [Double](repeating: 0, count: 64)
        for from in [1, 2, 7, 50, 101, 333] {
            for count in 1...min(64, h.count - from) {
                CandleEstimators.pairs(h, l, c, from: from, count: count, into: &out, own: &own, flags: &flags)
                for i in 0..<count {
                    let k = from + i
                    let direct = CandleEstimators.corwinSchultz(high0: h[k - 1], low0: l[k - 1], close0: c[k - 1],
                                                                high1: h[k], low1: l[k])
                    #expect(out[i].bitPattern == direct.bitPattern || (out[i].isNaN && direct.isNaN),
                            "from \(from) count \(count) pair \(i)")
                }
            }
        }
    }

    @Test("the running window's sums are four scalar accumulators' to the bit")
    func windowTotals() {
        let rng = GSL.Random(seed: 23)
        let values = (0..<67).map { _ in (rng.uniform() - 0.3) * 1e-3 }
        for count in 0...values.count {
            var s = [0.0, 0.0, 0.0, 0.0], q = [0.0, 0.0, 0.0, 0.0]
            for i in 0..<count {
                let j = count - count % 4 <= i ? 0 : i % 4
                s[j] += values[i]; q[j] += values[i] * values[i]
            }
            let t = values.withUnsafeBufferPointer { SpreadWindow.totals($0.baseAddress!, count) }
            #expect(t.sum.bitPattern == ((s[0] + s[1]) + (s[2] + s[3])).bitPattern, "count \(count)")
            #expect(t.squares.bitPattern == ((q[0] + q[1]) + (q[2] + q[3])).bitPattern, "count \(count)")
        }
    }

    @Test("elementary functions near 1 agree with the library ones")
    func elementary() {
        for x in [1.0000001, 1.001, 1.0199, 1.03, 0.97, 0.99999] {
            #expect(abs(CandleEstimators.lnRatio(x * 100, 100) - log(x)) <= 1e-15 * max(1, abs(log(x))) + 2e-17)
        }
        for a in [-0.02, -1e-4, 0, 3e-6, 0.009, 0.011, 0.5] {
            let e = exp(a)
            #expect(abs(CandleEstimators.twoTanhHalf(a) - 2 * (e - 1) / (1 + e)) <= 1e-16 + 1e-14 * abs(a))
        }
    }

    // MARK: Candle-only model on GOOG

    /// (t, bars' spread bps (Corwin-Schultz clipped at 0), σ, V), from
    /// Tests/Fixtures/l2/candle_model_prototype.py on data/GOOG.csv.
    static let anchors: [(Int, Double, Double, Double)] = [
        (3, 0, 0.046965793864859606, 14_305_900),
        (20, 0, 0.027079420621958124, 5_637_200),
        (250, 0.30797017885688954, 0.017736339844845787, 9_028_275),
        (1000, 0, 0.03162790541495138, 4_502_915),
        (2147, 0.9104755545802681, 0.011166683061845319, 2_398_725),
    ]

    /// (t, bars' signed mean bps, its standard error bps, volume relation bps, spread bps, $10k
    /// and $1M with tick 0.01, mean dollar volume), from
    /// Tests/Fixtures/costs/spread_relation_prototype.py on data/GOOG.csv: the relation decides
    /// every one (the bars' weight is 0.004-0.26).
    static let relationAnchors: [(Int, Double, Double, Double, Double, Double, Double, Double)] = [
        (3, -423.39158174759314, 149.1259724920948, 9.110692350972116, 9.076813428084154, 4.538406714042077, 4.538406714042077,
         1493410330.6666667),
        (20, -16.49080005997493, 49.12384127656087, 8.587378552238507, 8.332739856688782, 4.166369928344391, 5.478503301265143,
         592880099.45),
        (250, 0.3079701788568882, 12.5449763663626, 3.9091162416764624, 3.5903941611239976, 1.7951970805619988, 1.7951970805619988,
         2696262737.9),
        (1000, -1.5848922426590188, 10.406287931481272, 6.125546206364417, 4.549250168856431, 2.2746250844282154, 2.2746250844282154,
         2228313867.75),
        (2147, 0.9104755545802661, 6.310098518521006, 3.236771205817361, 2.7521834167612345, 1.3760917083806172, 1.3760917083806172,
         1882705255.65),
    ]

    @Test("GOOG anchors: the bars' spread, sigma and volume match the prototype", arguments: 0..<5)
    func googAnchors(row: Int) throws {
        let (t, spreadBps, sigma, volume) = Self.anchors[row]
        let goog = try ShippedData.goog()
        let e = SyntheticDepth().estimates(goog, at: t)
        #expect(abs((e.spread ?? 0) * 10_000 - spreadBps) <= 1e-9)
        #expect(close(e.sigma!, sigma, 1e-12) && close(e.volume!, volume, 1e-12))
    }

    @Test("GOOG anchors: the volume relation, the shrunk spread and the costs match the prototype", arguments: 0..<5)
    func googRelationAnchors(row: Int) throws {
        let (t, barsBps, errorBps, relationBps, spreadBps, tenK, oneM, dollars) = Self.relationAnchors[row]
        let goog = try ShippedData.goog()
        var model = SyntheticDepth()
        model.tick = 0.01
        let e = model.estimates(goog, at: t)
        let p = goog.open[t]
        #expect(close(e.bars!.mean * 10_000, barsBps, 1e-9) && close(e.bars!.standardError * 10_000, errorBps, 1e-9))
        #expect(close(e.dollarVolume!, dollars, 1e-12))
        let estimate = try #require(model.spreadEstimate(e, reference: p))
        #expect(close(estimate.relation! * 10_000, relationBps, 1e-9))
        #expect(close(estimate.spread * 10_000, spreadBps, 1e-9) && estimate.source == .relation)
        func cost(_ notional: Double) -> Double {
            model.curve(.buy, estimates: e, reference: p, barSeconds: 86_400).cost(notional / p) * 10_000
        }
        #expect(close(cost(10_000), tenK, 1e-9) && close(cost(1_000_000), oneM, 1e-9))
        // Sells walk the same model book on the other side.
        #expect(model.curve(.sell, estimates: e, reference: p, barSeconds: 86_400).cost(1_000_000 / p) * 10_000 == cost(1_000_000))
        // Without the relation the spread is the bars' alone, floored at the tick (bt before it).
        model.volumeRelation = false
        #expect(model.spreadEstimate(e, reference: p)!.spread == max(e.spread!, 0.01 / p))
    }

    @Test("GOOG: a $10,000 order pays 1.98 bps on average (prototype: mean 1.982, median 1.784; 2.04 before the relation)")
    func googAverage() throws {
        let goog = try ShippedData.goog()
        var model = SyntheticDepth()
        model.tick = goog.inferredTick
        #expect(model.tick == 0.01)
        func costs() -> [Double] {
            (1..<goog.count).map { t in
                model.curve(.buy, candles: goog, at: t, reference: goog.open[t]).cost(10_000 / goog.open[t]) * 10_000
            }
        }
        let after = costs()
        #expect(abs(after.reduce(0, +) / Double(after.count) - 1.981658593362686) <= 1e-9)
        #expect(abs(GSL.quantile(after, 0.5) - 1.7839226671396402) <= 1e-9)
        #expect(abs(GSL.quantile(after, 0.9) - 2.8961163428365704) <= 1e-9)
        // The Corwin-Schultz estimate alone (the default before the relation).
        model.volumeRelation = false
        let before = costs()
        #expect(abs(before.reduce(0, +) / Double(before.count) - 2.03800556438458) <= 1e-9)
        #expect(abs(GSL.quantile(before, 0.5) - 1.1332752898624041) <= 1e-9)
        #expect(abs(GSL.quantile(before, 0.9) - 5.451398717104596) <= 1e-9)
    }

    @Test("GOOG through the engine: the default slippage of a $10,000 order is at most 5 bps each way, as the model says")
    func googEngine() throws {
        let goog = try ShippedData.goog()
        var c = ExecutionConfig()
        c.sizing = .cash(10_000)
        c.initialCash = 1_000_000
        c.feeBps = 0
        c.synthetic.tick = goog.inferredTick
        // In the market every other bar: a buy and a sell at every other open.
        let n = goog.count
        let signals = Signals(entries: (0..<n).map { $0 % 4 == 0 }, exits: (0..<n).map { $0 % 4 == 2 })
        let r = try EngineTest.run(goog, signals, c)
        #expect(r.fills.count > 1000 && r.partialFills == 0 && r.rejected.isEmpty)
        for side in [OrderSide.buy, .sell] {
            let fills = r.fills.filter { $0.side == side }
            let mean = fills.reduce(0) { $0 + $1.slippageBps } / Double(fills.count)
            #expect(mean > 0.5 && mean <= 5, "\(side) mean slippage \(mean) bps")
        }
        // Each fill's cost is the model's: the half spread plus impact, never below the half tick,
        // and what the reference estimates at its bar give (the engine's running sums and lazy σ
        // agree with them).
        #expect(r.fills.allSatisfy { $0.slippageBps >= 0.01 / $0.referencePrice / 2 * 10_000 * (1 - 1e-9) })
        for f in r.fills {
            let curve = c.synthetic.curve(f.side, candles: goog, at: f.index, reference: f.referencePrice)
            #expect(abs(f.slippageBps - curve.cost(f.quantityFilled) * 10_000) <= 1e-9, "fill at \(f.index)")
        }
        #expect(r.spreadEstimate?.fills == r.fills.count && r.spreadEstimate?.mainSource == .relation)
    }

    // MARK: Depth curves

    @Test("depth curves: closed forms equal the integral of the marginal distance")
    func curves() {
        let curves = [
            DepthCurve(halfSpread: 2e-4, touchQuantity: 50, shape: .squareRoot(coefficient: 0.009, volume: 1000)),
            DepthCurve.powerLaw(a: 3.4, b: 0.756, halfSpread: 0.064e-4),
            DepthCurve.powerLaw(a: 1.67, b: 1.007, halfSpread: 0.064e-4, scale: 2),
            DepthCurve(halfSpread: 1e-4, touchQuantity: 0, shape: .flat),
        ]
        for curve in curves {
            for q in [0.01, 0.5, 3, 49, 120, 1000] {
                let steps = 200_000
                var sum = 0.0
                for k in 0..<steps { sum += curve.marginal((Double(k) + 0.5) / Double(steps) * q) }
                sum *= q / Double(steps)
                #expect(abs(curve.cumulative(q) - sum) <= 1e-6 * max(sum, 1e-12), "\(curve.shape) q \(q)")
            }
            // Costs grow with size and with depth already taken.
            var last = 0.0
            for q in stride(from: 0.01, through: 500, by: 7.3) {
                let c = curve.cost(q)
                #expect(c >= last * (1 - 1e-15))
                #expect(curve.cost(q, after: 10) >= c * (1 - 1e-15))
                last = c
            }
        }
        // The square-root law beyond the touch: s/2 + Y σ (Q − q_touch)^{3/2} / (Q √V).
        let y = 0.3, sigma = 0.02, v = 1_000_000.0, touch = 1000.0, h = 1e-4
        let curve = DepthCurve(halfSpread: h, touchQuantity: touch, shape: .squareRoot(coefficient: 1.5 * y * sigma, volume: v))
        let q = 50_000.0
        #expect(close(curve.cost(q), h + y * sigma * pow(q - touch, 1.5) / (q * v.squareRoot()), 1e-13))
        #expect(curve.cost(500) == h)
    }

    // MARK: Through the engine

    @Test("depletion refills with a half-life in seconds, not bars")
    func refill() throws {
        // Hourly bars: the second buy comes 3,600 s after the first.
        var s = CandleSeries(symbol: "R", timeframe: .hour1)
        for i in 0..<40 {
            let p = 100 * (1 + 0.001 * sin(Double(i)))
            s.append(time: 1_600_000_000 + Int64(i) * 3600, open: p, high: p * 1.002, low: p * 0.998, close: p, volume: 10_000)
        }
        func fills(refill: Double) throws -> [Fill] {
            var c = ExecutionConfig()
            c.sizing = .units(2_000)
            c.maxParticipation = nil
            c.feeBps = 0
            c.initialCash = 1e7
            c.allowShort = false
            c.synthetic.refillHalfLifeSeconds = refill
            let n = s.count
            // Enter at 30 (fills 31), exit at 31 (fills 32), enter at 32 (fills 33): buys 2 h apart.
            let signals = Signals(entries: (0..<n).map { $0 == 30 || $0 == 32 }, exits: (0..<n).map { $0 == 31 })
            return try EngineTest.run(s, signals, c).fills
        }
        let quick = try fills(refill: 60), slow = try fills(refill: 7200)
        #expect(quick.count == 3 && slow.count == 3)
        let model = SyntheticDepth()
        let curve = model.curve(.buy, candles: s, at: 33, reference: s.open[33])
        // 60 s half-life: 2 h later the book is whole again.
        #expect(close(quick[2].vwap, s.open[33] * (1 + curve.cost(2_000)), 1e-12))
        // 7,200 s: half of the first buy's 2,000 units are still missing.
        #expect(close(slow[2].vwap, s.open[33] * (1 + curve.cost(2_000, after: 1_000)), 1e-12))
        #expect(slow[2].slippageBps > quick[2].slippageBps)
    }

    @Test("an all-in buy spends its budget through the model book: complete, never above the cash")
    func budget() throws {
        let s = EngineTest.random(bars: 300, seed: 3)
        var c = ExecutionConfig()
        c.maxParticipation = nil
        c.initialCash = 5e6  // large against the volume: deep into the square-root book
        c.synthetic.tick = 0.01
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 300, seed: 4), c)
        let buys = r.fills.filter { $0.side == .buy }
        #expect(!buys.isEmpty)
        for f in buys {
            #expect(!f.isPartial)
            #expect(f.slippageBps > 1, "large orders pay impact")
        }
        #expect(r.cash.allSatisfy { $0 >= -1e-6 })
    }

    @Test("fixed slippage: every fill at the reference moved by the given bps, all of it spread")
    func fixedSlippage() throws {
        let s = EngineTest.random(bars: 200, seed: 8)
        var c = EngineTest.plain()
        c.depth = .fixedSlippage(bps: 5)
        c.feeBps = 0
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 200, seed: 9), c)
        #expect(!r.fills.isEmpty)
        for f in r.fills {
            #expect(close(f.slippageBps, 5, 1e-9))
            #expect(close(f.spreadCost, f.slippageCost, 1e-9) && abs(f.impactCost) <= 1e-9 * f.spreadCost)
        }
        var bad = c
        bad.depth = .fixedSlippage(bps: -1)
        #expect(throws: InputError.self) { try bad.validate() }
    }

    @Test("a calibrated book: buys walk the ask power law, sells the bid one")
    func profileBook() throws {
        let s = EngineTest.flat([78_000, 78_000, 78_100, 78_050], volume: 50)
        var c = ExecutionConfig()
        c.synthetic.use(DepthProfile(symbol: "X", tick: 1, spreadBps: 0.1276, spreadP90Bps: 0.13,
                                     bid: .init(a: 3.4, b: 0.756), ask: .init(a: 1.67, b: 1.007),
                                     refillHalfLifeSeconds: 0.09), source: "test")
        c.sizing = .units(3)
        c.maxParticipation = nil
        c.feeBps = 0
        c.initialCash = 1e6
        let r = try EngineTest.run(s, Signals(entries: [true, false, false, false], exits: [false, true, false, false]), c)
        #expect(r.fills.count == 2)
        let half = 0.1276 / 20_000
        #expect(close(r.fills[0].slippageBps, DepthCurve.powerLaw(a: 1.67, b: 1.007, halfSpread: half).cost(3) * 10_000, 1e-9))
        #expect(close(r.fills[1].slippageBps, DepthCurve.powerLaw(a: 3.4, b: 0.756, halfSpread: half).cost(3) * 10_000, 1e-9))
        #expect(c.costModel == "profile" && c.parameters.contains(RunParameter("profile", .string("test"))))
    }

    // MARK: Volume and warnings

    @Test("no volume at all: no cap, no impact, no rejections, and a warning")
    func noVolume() throws {
        var s = EngineTest.random(bars: 300, seed: 21)
        s.volume = [Double](repeating: 0, count: s.count)
        let c = ExecutionConfig()
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 300, seed: 22), c)
        #expect(r.rejected.isEmpty && r.fills.count > 10 && r.partialFills == 0)
        #expect(r.warnings.map(\.kind) == [.noVolume])
        #expect(r.warnings[0].message.contains("participation cap and market impact are off"))
        // Only the half spread is paid.
        #expect(r.fills.allSatisfy { abs($0.impactCost) <= 1e-9 * max(1, $0.spreadCost) })
    }

    @Test("some bars without volume: the cap is off there, with a warning that counts them")
    func missingVolume() throws {
        var s = EngineTest.random(bars: 300, seed: 23)
        for i in stride(from: 0, to: 300, by: 3) { s.volume[i] = 0 }
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 300, seed: 24), ExecutionConfig())
        #expect(r.warnings.contains { $0.kind == .missingVolume && $0.message.contains("had no volume") })
    }

    @Test("heavy partial fills and rejections are warned about")
    func partialWarnings() throws {
        var s = EngineTest.random(bars: 300, seed: 25)
        s.volume = s.volume.map { $0 * 1e-6 }  // the 10% cap leaves a sliver of each order
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 300, seed: 26), ExecutionConfig())
        let kinds = Set(r.warnings.map(\.kind))
        #expect(kinds.contains(.partialFills) || kinds.contains(.rejections))
        if let w = r.warnings.first(where: { $0.kind == .partialFills }) {
            #expect(w.message.contains("orders filled only partly"))
        }
        // The mean over bars in a position of |position x close| / equity (`avg_position_share`).
        let held = r.position.indices.filter { r.position[$0] != 0 && r.equity[$0] > 0 }
        let share = held.reduce(0.0) { $0 + abs(r.position[$1] * r.candles.close[$1]) / r.equity[$1] } / Double(held.count)
        #expect(!held.isEmpty && share < 0.5, "positions are a small share of equity")
        // A run with room to fill has no warnings.
        let clean = try EngineTest.run(EngineTest.random(bars: 300, seed: 25), EngineTest.randomSignals(bars: 300, seed: 26),
                                       ExecutionConfig())
        #expect(clean.warnings.isEmpty)
    }

    // MARK: Cost split

    @Test("gross PnL minus net PnL is fees plus spread plus impact plus borrow",
          arguments: ["synthetic", "fixed", "book", "none", "profile", "borrow"])
    func costSplitAddsUp(model: String) throws {
        let s = EngineTest.random(bars: 400, seed: 31)
        var c = ExecutionConfig()
        c.allowShort = true
        c.feeMin = 0.5
        switch model {
        case "fixed": c.depth = .fixedSlippage(bps: 7)
        case "none": c.depth = .none
        case "book": c.depth = .book(Synth.book(for: s, seed: 3))
        case "profile": c.synthetic.bidDepth = .init(a: 100, b: 0.8); c.synthetic.askDepth = .init(a: 80, b: 0.9)
        case "borrow": c.borrowBps = 3_000
        default: c.synthetic.tick = 0.01
        }
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 400, seed: 32), c)
        #expect(r.fills.count > 10)
        let split = r.costSplit
        // Gross PnL recomputed from the fills at their reference prices, without fees.
        var cash = r.initialCash, position = 0.0
        for f in r.fills {
            let signed = f.side == .buy ? f.quantityFilled : -f.quantityFilled
            cash -= signed * f.referencePrice
            position += signed
        }
        let gross = cash + position * s.close[s.count - 1] - r.initialCash
        #expect(abs(split.grossPnL - gross) <= 1e-7 * max(1, abs(gross)))
        #expect(abs((split.grossPnL - split.netPnL) - (split.fees + split.spread + split.impact + split.borrow)) <= 1e-9 * max(1, abs(gross)))
        #expect(model == "borrow" ? split.borrow > 0 && split.borrow == r.borrowPaid : split.borrow == 0)
        #expect(abs(split.netPnL - (r.finalEquity - r.initialCash)) <= 1e-9 * r.initialCash)
        #expect(split.spread >= 0 && split.fees > 0)
        if model == "none" { #expect(split.spread == 0 && abs(split.impact) <= 1e-9) }
    }

    // MARK: Ticks

    @Test("tick inference from prices")
    func ticks() throws {
        #expect(try ShippedData.goog().inferredTick == 0.01)
        #expect(try ShippedData.eurusd().inferredTick == 1e-5)
        #expect(EngineTest.candles([(78_000, 78_010, 77_990, 78_001, 1)]).inferredTick == 1)
        #expect(EngineTest.candles([(100.0 / 3, 34, 33, 33.5, 1)]).inferredTick == nil)
        #expect(CandleSeries(symbol: "E").inferredTick == nil)
    }
}
