import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("MACD (TA-Lib MACD)")
struct MACDTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 33, first: 8.737891142265553, middle: -13.309470293603283, last: 15.154184421962896),
        ReferenceRow(output: 1, lookback: 33, first: 7.027451141146195, middle: -16.126540639275376, last: 15.817943057836114),
        ReferenceRow(output: 2, lookback: 33, first: 1.7104400011193581, middle: 2.817070345672093, last: -0.6637586358732186),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "macd:12,26,9", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.macd(fast: 12, slow: 26, signal: 9) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "macd:12,26,9").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.macd(s.close, fast: period, slow: 26, signal: 9) }
    }
}
