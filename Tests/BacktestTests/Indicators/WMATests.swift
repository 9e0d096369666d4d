import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("WMA (TA-Lib WMA)")
struct WMATests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 19, first: 105.98180952380955, middle: 482.1993333333335, last: 793.1723809523805),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "wma:20", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.wma(period: 20) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "wma:20").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.wma(s.close, period: period) }
    }
}
