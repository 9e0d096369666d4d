import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Reference rows from TA-Lib 0.8.2 (or the numpy/pandas reference) on data/GOOG.csv: first
/// defined value, bar 1000 and the last bar, plus the warm-up length.
@Suite("Stochastic (TA-Lib STOCH, SMA slowing)")
struct StochasticTests {
    static let rows: [ReferenceRow] = [
        ReferenceRow(output: 0, lookback: 17, first: 69.21907025512319, middle: 69.45612605369836, last: 82.9681373134945),
        ReferenceRow(output: 1, lookback: 17, first: 49.52325591349347, middle: 48.68519713337332, last: 74.87131226796333),
    ]

    @Test("reference rows and warm-up", arguments: rows)
    func reference(_ row: ReferenceRow) throws {
        try Reference.check(spec: "stoch:14,3,3", row: row)
    }

    @Test("lookback equals TA-Lib's")
    func lookback() throws {
        #expect(Indicators.Lookback.stochastic(fastK: 14, slowK: 3, slowD: 3) == Self.rows[0].lookback)
        #expect(try IndicatorSpec(parsing: "stoch:14,3,3").lookback == Self.rows[0].lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: [0, -3, 2_149])
    func badPeriod(_ period: Int) throws {
        let s = try Reference.goog()
        #expect(throws: InputError.self) { try Indicators.stochastic(high: s.high, low: s.low, close: s.close, fastK: period, slowK: 3, slowD: 3) }
    }
}
