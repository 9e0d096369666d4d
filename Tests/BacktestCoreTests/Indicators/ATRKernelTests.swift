import Testing
@testable import BacktestCore

/// ATR's blocked kernel against TA-Lib's one-bar loop (the reference row is in
/// `IndicatorReferenceTests`).
@Suite("ATR kernel (blocks of 128 bars, eight-bar steps)")
struct ATRKernelTests {
    /// TA-Lib's loop, in its operation order: `prev = (prev * (p - 1) + TR) / p`.
    static func talibOrder(high h: [Double], low l: [Double], close c: [Double], period p: Int) -> [Double] {
        var out = [Double](repeating: .nan, count: c.count)
        guard c.count > p else { return out }
        var tr = [Double](repeating: 0, count: c.count)
        for i in 1..<c.count {
            var t = h[i] - l[i]
            let up = abs(h[i] - c[i - 1]), down = abs(l[i] - c[i - 1])
            if up > t { t = up }
            if down > t { t = down }
            tr[i] = t
        }
        var prev = tr[1...p].reduce(0, +) / Double(p)
        out[p] = prev
        for i in (p + 1)..<c.count {
            prev = (prev * Double(p - 1) + tr[i]) / Double(p)
            out[i] = prev
        }
        return out
    }

    /// The kernel works in 128-bar blocks with an eight-bar step; lengths around those boundaries
    /// and gaps (previous close outside the bar) must agree with TA-Lib's one-bar loop. Rounding
    /// differs by a few ulps (decaying geometrically), hence 1e-12 relative.
    @Test("block and step boundaries agree with TA-Lib's loop", arguments: [1, 2, 3, 14, 30])
    func blockBoundaries(period: Int) throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) * 0x1p-53
        }
        var high = [Double](), low = [Double](), close = [Double]()
        var price = 50.0
        for _ in 0..<700 {
            price *= 1 + (unit() - 0.5) * 0.08  // wide moves: frequent gaps past high or low
            close.append(price)
            high.append(price * (1 + unit() * 0.02))
            low.append(price * (1 - unit() * 0.02))
        }
        let lengths = Array((period + 1)...(period + 20)) + [127, 128, 129, 130, 143, 144, 145, 256, 257, 263, 700]
        for n in lengths where n > period {
            let h = Array(high.prefix(n)), l = Array(low.prefix(n)), c = Array(close.prefix(n))
            let got = try Indicators.atr(high: h, low: l, close: c, period: period)
            let want = Self.talibOrder(high: h, low: l, close: c, period: period)
            #expect(got.prefix(period).allSatisfy { $0.isNaN })
            var worst = 0.0
            for i in period..<n { worst = max(worst, abs(got[i] - want[i]) / abs(want[i])) }
            #expect(worst < 1e-12, "n = \(n): worst relative difference \(worst)")
        }
    }
}
