import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("Williams %R (TA-Lib WILLR)")
struct WilliamsRTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 13, first: -63.81278538812786, middle: -6.2836116614775674, last: -7.893242475865901),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "willr:14", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.williamsR(period: 14) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "willr:14").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.williamsR(high: s.high, low: s.low, close: s.close, period: period) }
    }
}
