import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("ATR (TA-Lib ATR, Wilder)")
struct ATRTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 14, first: 3.8500000000000005, middle: 16.73551337176427, last: 12.22759325990152),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "atr:14", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.atr(period: 14) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "atr:14").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.atr(high: s.high, low: s.low, close: s.close, period: period) }
    }

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
