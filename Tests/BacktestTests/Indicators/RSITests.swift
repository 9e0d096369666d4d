import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("RSI (TA-Lib RSI, Wilder)")
struct RSITests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 14, first: 53.27569005653475, middle: 48.61273064540899, last: 67.49798280234823),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "rsi:14", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.rsi(period: 14) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "rsi:14").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.rsi(s.close, period: period) }
    }
}
