import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("OBV (TA-Lib OBV)")
struct OBVTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 0, first: 22351900.0, middle: 570779000.0, last: 622611400.0),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "obv", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.obv() == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "obv").lookback == Self.rows[0].lookback)
    }
}
