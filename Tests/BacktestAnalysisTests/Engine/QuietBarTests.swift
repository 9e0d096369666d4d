import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

/// The engine writes runs of bars without a signal in flat loops (`Engine.nextSignal`); bars with
/// a signal take the per-bar path. These tests make the per-bar path run where the fast path ran
/// and check that nothing changes.
@Suite("Engine: quiet bars")
struct QuietBarTests {
    @Test("entries repeated while long change nothing, bit for bit", arguments: [1, 2, 3, 4, 5] as [UInt])
    func redundantEntries(seed: UInt) throws {
        let n = 3001  // not a multiple of 8: the scan's tail runs too
        let candles = EngineTest.random(bars: n, seed: seed)
        let signals = EngineTest.randomSignals(bars: n, seed: seed, p: 0.02)
        for depth in [ExecutionConfig.Depth.none, .synthetic] {
            var config = EngineTest.plain()
            config.depth = depth
            let quiet = try EngineTest.run(candles, signals, config)
            var entries = signals.entries
            for t in 0..<n where quiet.position[t] > 0 && !signals.exits[t] { entries[t] = true }
            #expect(entries != signals.entries)
            let busy = try EngineTest.run(candles, Signals(entries: entries, exits: signals.exits), config)
            #expect(quiet.cash == busy.cash && quiet.position == busy.position && quiet.equity == busy.equity)
            #expect(quiet.fills.count == busy.fills.count && quiet.trades.count == busy.trades.count)
        }
    }

    @Test("nextSignal finds the first true bar of any vector, at every offset")
    func nextSignal() {
        let n = 37
        for hit in 0...n {
            for vector in 0..<4 {
                var v = Array(repeating: [Bool](repeating: false, count: n), count: 4)
                if hit < n { v[vector][hit] = true }
                for start in 0...min(hit, n) {
                    let found = v[0].withUnsafeBufferPointer { a in v[1].withUnsafeBufferPointer { b in
                        v[2].withUnsafeBufferPointer { c in v[3].withUnsafeBufferPointer { d in
                            Engine.nextSignal(from: start, to: n, a.baseAddress!, b.baseAddress!, c.baseAddress!, d.baseAddress!)
                        } } } }
                    #expect(found == hit, "hit \(hit) in vector \(vector) from \(start)")
                }
            }
        }
    }
}

@Suite("Return statistics: one division per peak")
struct ReturnStatsDrawdownTests {
    /// The per-period definition: the minimum over t of (value_t - peak_t) / peak_t.
    static func naiveMaxDrawdown(_ r: [Double]) -> Double {
        var value = 1.0, peak = 1.0, worst = Double.infinity
        for x in r {
            value *= 1 + x
            peak = Swift.max(peak, value)
            worst = Swift.min(worst, (value - peak) / peak)
        }
        return worst
    }

    @Test("equals the per-period minimum bit for bit, flat runs, new highs and NaN included")
    func matchesPerPeriod() {
        let rng = GSL.Random(seed: 7)
        for trial in 0..<200 {
            let n = 1 + trial * 7
            var r = (0..<n).map { _ -> Double in
                let u = rng.uniform()
                return u < 0.3 ? 0 : (rng.uniform() - 0.48) * 0.05
            }
            if trial % 10 == 3 { r[n / 2] = .nan }
            if trial % 10 == 5 { r = r.map { abs($0) } }  // only new highs and flat periods
            let returnStats = ReturnStats(r)
            let expected = Self.naiveMaxDrawdown(r)
            #expect(returnStats.maxDrawdown.bitPattern == expected.bitPattern, "trial \(trial): \(returnStats.maxDrawdown) vs \(expected)")
        }
    }

    @Test("allFinite sees a NaN or an infinity at any position of any input")
    func allFinite() {
        for n in 0..<20 {  // two eight-value steps and every tail
            let clean = (0..<n).map { Double($0) - 3.5 }
            #expect(clean.withUnsafeBufferPointer { Indicators.allFinite([$0, $0]) })
            for i in 0..<n {
                for bad in [Double.nan, .infinity, -.infinity] {
                    var x = clean
                    x[i] = bad
                    #expect(!clean.withUnsafeBufferPointer { c in x.withUnsafeBufferPointer { Indicators.allFinite([c, $0]) } })
                }
            }
        }
    }
}
