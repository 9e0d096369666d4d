import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("ROC (TA-Lib ROC)")
struct ROCTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 10, first: 1.1660354793701533, middle: 0.6158786942558558, last: 2.33175090756772),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "roc:10", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.roc(period: 10) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "roc:10").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.roc(s.close, period: period) }
    }
}
