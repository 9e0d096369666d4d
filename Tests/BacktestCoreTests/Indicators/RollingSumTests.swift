import Testing
import TestSupport
@testable import BacktestCore

@Suite("Rolling sums do not drift")
struct RollingSumTests {
    /// 10,000,000 bars of a random walk near 1e5 (fixed seed): SMA times the period must match
    /// a direct window sum within 1e-9 relative at every sampled bar, including the very last.
    @Test("10,000,000 bars near 1e5 match direct window sums within 1e-9 relative")
    func longSeries() {
        let n = 10_000_000, p = 20
        var rng = SplitMix64(seed: 42)
        var x = [Double](repeating: 0, count: n)
        var price = 100_000.0
        for i in 0..<n {
            price += (rng.unit() - 0.5) * 10 + 0.000_123_456_789
            x[i] = price
        }
        var out = [Double](repeating: 0, count: n)
        x.withUnsafeBufferPointer { xp in
            out.withUnsafeMutableBufferPointer { op in _ = RollingSum.sums(xp, period: p, scale: 1, into: op) }
        }
        var worst = 0.0
        var i = p - 1
        while i < n {
            var direct = 0.0
            for j in (i - p + 1)...i { direct += x[j] }
            worst = max(worst, abs(out[i] - direct) / abs(direct))
            i += i < n - 5_000 ? 997 : 1
        }
        #expect(worst < 1e-9, "worst relative error \(worst)")
    }

    @Test("SMA kernel equals the array API and a naive mean", arguments: [1, 2, 3, 7, 20, 200])
    func kernelMatches(_ period: Int) throws {
        var rng = SplitMix64(seed: UInt64(period))
        let x = (0..<5_000).map { _ in 50 + rng.unit() * 10 }
        let api = try Indicators.sma(x, period: period)
        var out = [Double](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { xp in out.withUnsafeMutableBufferPointer { Indicators.Kernel.sma(xp, period: period, into: $0) } }
        for i in 0..<x.count {
            if i < period - 1 { #expect(api[i].isNaN && out[i].isNaN); continue }
            let naive = x[(i - period + 1)...i].reduce(0, +) / Double(period)
            #expect(abs(api[i] - naive) <= 1e-12 * naive && api[i] == out[i])
        }
    }
}
