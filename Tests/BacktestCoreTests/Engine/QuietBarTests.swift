import Testing
@testable import BacktestCore

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
