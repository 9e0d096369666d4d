import Testing
@testable import Backtest

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
}
