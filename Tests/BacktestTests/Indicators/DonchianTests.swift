import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("Donchian channels (pandas rolling max/min)")
struct DonchianTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 19, first: 115.8, middle: 540.06, last: 808.97),
        ReferenceRow(output: 1, lookback: 19, first: 105.88, middle: 500.97999999999996, last: 783.5350000000001),
        ReferenceRow(output: 2, lookback: 19, first: 95.96, middle: 461.9, last: 758.1),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "donchian:20", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.donchian(period: 20) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "donchian:20").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.donchian(high: s.high, low: s.low, period: period) }
    }
}
