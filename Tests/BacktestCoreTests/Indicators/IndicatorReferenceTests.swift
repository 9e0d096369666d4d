import Testing
@testable import BacktestCore

/// Every indicator against its reference, one row per output, as TA-Lib's `ta_regtest` tables
/// do: TA-Lib 0.8.2 (or the numpy/pandas reference for Donchian and VWAP) on data/GOOG.csv, the
/// warm-up length, the first defined value, bar 1000 and the last bar (`make_goldens.py` made
/// them; 1e-12 absolute). Each indicator's lookback equals TA-Lib's, and bad periods (0,
/// negative, longer than the series) throw `InputError`.
@Suite("Indicator reference table")
struct IndicatorReferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// What the reference is (the suite names of the old per-indicator files).
        var reference: String
        var spec: String
        /// `Indicators.Lookback` for the spec's parameters.
        var lookback: Int
        var rows: [ReferenceRow]
        /// The kernel called with `period` in place of its (first) period; nil: no period (OBV).
        var withPeriod: (@Sendable (CandleSeries, Int) throws -> Void)?
        var testDescription: String { "\(spec) (\(reference))" }
    }

    static let table: [Case] = [
        Case(reference: "SMA (TA-Lib SMA)", spec: "sma:20", lookback: Indicators.Lookback.sma(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 105.28049999999999, middle: 488.93300000000073, last: 786.9580000000002),
        ], withPeriod: { s, period in _ = try Indicators.sma(s.close, period: period) }),
        Case(reference: "EMA (TA-Lib EMA, SMA seed)", spec: "ema:20", lookback: Indicators.Lookback.ema(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 105.28049999999999, middle: 491.9731316581428, last: 784.9616873358083),
        ], withPeriod: { s, period in _ = try Indicators.ema(s.close, period: period) }),
        Case(reference: "WMA (TA-Lib WMA)", spec: "wma:20", lookback: Indicators.Lookback.wma(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 105.98180952380955, middle: 482.1993333333335, last: 793.1723809523805),
        ], withPeriod: { s, period in _ = try Indicators.wma(s.close, period: period) }),
        Case(reference: "RSI (TA-Lib RSI, Wilder)", spec: "rsi:14", lookback: Indicators.Lookback.rsi(period: 14), rows: [
            ReferenceRow(output: 0, lookback: 14, first: 53.27569005653475, middle: 48.61273064540899, last: 67.49798280234823),
        ], withPeriod: { s, period in _ = try Indicators.rsi(s.close, period: period) }),
        Case(reference: "MACD (TA-Lib MACD)", spec: "macd:12,26,9", lookback: Indicators.Lookback.macd(fast: 12, slow: 26, signal: 9), rows: [
            ReferenceRow(output: 0, lookback: 33, first: 8.737891142265553, middle: -13.309470293603283, last: 15.154184421962896),
            ReferenceRow(output: 1, lookback: 33, first: 7.027451141146195, middle: -16.126540639275376, last: 15.817943057836114),
            ReferenceRow(output: 2, lookback: 33, first: 1.7104400011193581, middle: 2.817070345672093, last: -0.6637586358732186),
        ], withPeriod: { s, period in _ = try Indicators.macd(s.close, fast: period, slow: 26, signal: 9) }),
        Case(reference: "Bollinger Bands (TA-Lib BBANDS, SMA, population sd)", spec: "bb:20,2", lookback: Indicators.Lookback.bollinger(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 113.53795354210362, middle: 530.2517008992304, last: 812.8406000239524),
            ReferenceRow(output: 1, lookback: 19, first: 105.28049999999999, middle: 488.93300000000073, last: 786.9580000000002),
            ReferenceRow(output: 2, lookback: 19, first: 97.02304645789636, middle: 447.6142991007711, last: 761.075399976048),
        ], withPeriod: { s, period in _ = try Indicators.bollinger(s.close, period: period, k: 2) }),
        Case(reference: "Rolling standard deviation (TA-Lib STDDEV)", spec: "stddev:20", lookback: Indicators.Lookback.stddev(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 4.12872677105182, middle: 20.659350449614813, last: 12.94130001197612),
        ], withPeriod: { s, period in _ = try Indicators.stddev(s.close, period: period) }),
        Case(reference: "ATR (TA-Lib ATR, Wilder)", spec: "atr:14", lookback: Indicators.Lookback.atr(period: 14), rows: [
            ReferenceRow(output: 0, lookback: 14, first: 3.8500000000000005, middle: 16.73551337176427, last: 12.22759325990152),
        ], withPeriod: { s, period in _ = try Indicators.atr(high: s.high, low: s.low, close: s.close, period: period) }),
        Case(reference: "ADX (TA-Lib ADX, Wilder)", spec: "adx:14", lookback: Indicators.Lookback.adx(period: 14), rows: [
            ReferenceRow(output: 0, lookback: 27, first: 38.96330617841732, middle: 32.818533562110744, last: 41.2324891357677),
        ], withPeriod: { s, period in _ = try Indicators.adx(high: s.high, low: s.low, close: s.close, period: period) }),
        Case(reference: "CCI (TA-Lib CCI)", spec: "cci:20", lookback: Indicators.Lookback.cci(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 166.92867540029056, middle: 0.5739970910346106, last: 97.53582783076408),
        ], withPeriod: { s, period in _ = try Indicators.cci(high: s.high, low: s.low, close: s.close, period: period) }),
        Case(reference: "ROC (TA-Lib ROC)", spec: "roc:10", lookback: Indicators.Lookback.roc(period: 10), rows: [
            ReferenceRow(output: 0, lookback: 10, first: 1.1660354793701533, middle: 0.6158786942558558, last: 2.33175090756772),
        ], withPeriod: { s, period in _ = try Indicators.roc(s.close, period: period) }),
        Case(reference: "Stochastic (TA-Lib STOCH, SMA slowing)", spec: "stoch:14,3,3", lookback: Indicators.Lookback.stochastic(fastK: 14, slowK: 3, slowD: 3), rows: [
            ReferenceRow(output: 0, lookback: 17, first: 69.21907025512319, middle: 69.45612605369836, last: 82.9681373134945),
            ReferenceRow(output: 1, lookback: 17, first: 49.52325591349347, middle: 48.68519713337332, last: 74.87131226796333),
        ], withPeriod: { s, period in _ = try Indicators.stochastic(high: s.high, low: s.low, close: s.close, fastK: period, slowK: 3, slowD: 3) }),
        Case(reference: "Williams %R (TA-Lib WILLR)", spec: "willr:14", lookback: Indicators.Lookback.williamsR(period: 14), rows: [
            ReferenceRow(output: 0, lookback: 13, first: -63.81278538812786, middle: -6.2836116614775674, last: -7.893242475865901),
        ], withPeriod: { s, period in _ = try Indicators.williamsR(high: s.high, low: s.low, close: s.close, period: period) }),
        Case(reference: "Donchian channels (pandas rolling max/min)", spec: "donchian:20", lookback: Indicators.Lookback.donchian(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 115.8, middle: 540.06, last: 808.97),
            ReferenceRow(output: 1, lookback: 19, first: 105.88, middle: 500.97999999999996, last: 783.5350000000001),
            ReferenceRow(output: 2, lookback: 19, first: 95.96, middle: 461.9, last: 758.1),
        ], withPeriod: { s, period in _ = try Indicators.donchian(high: s.high, low: s.low, period: period) }),
        Case(reference: "Rolling VWAP (numpy rolling sums)", spec: "vwap:20", lookback: Indicators.Lookback.vwap(period: 20), rows: [
            ReferenceRow(output: 0, lookback: 19, first: 104.99995307362992, middle: 492.69646341545797, last: 786.3738051531085),
        ], withPeriod: { s, period in _ = try Indicators.vwap(high: s.high, low: s.low, close: s.close, volume: s.volume, period: period) }),
        Case(reference: "OBV (TA-Lib OBV)", spec: "obv", lookback: Indicators.Lookback.obv(), rows: [
            ReferenceRow(output: 0, lookback: 0, first: 22351900.0, middle: 570779000.0, last: 622611400.0),
        ], withPeriod: nil),
    ]

    @Test("reference rows and warm-up", arguments: table)
    func reference(_ c: Case) throws {
        for row in c.rows { try Reference.check(spec: c.spec, row: row) }
    }

    @Test("lookback equals TA-Lib's", arguments: table)
    func lookback(_ c: Case) throws {
        #expect(c.rows.allSatisfy { $0.lookback == c.lookback })
        #expect(try IndicatorSpec(parsing: c.spec).lookback == c.lookback)
    }

    @Test("bad periods throw InputError: 0, negative, longer than the series", arguments: table.filter { $0.withPeriod != nil })
    func badPeriod(_ c: Case) throws {
        let s = try Reference.goog()
        for period in [0, -3, s.count + 1] {
            #expect(throws: InputError.self, "\(c.spec) with period \(period)") { try c.withPeriod?(s, period) }
        }
    }

    @Test("the table covers every indicator kind")
    func coverage() throws {
        let kinds = try Set(Self.table.map { try IndicatorSpec(parsing: $0.spec).kind })
        #expect(kinds == Set(IndicatorSpec.Kind.allCases))
    }
}
