import Testing
@testable import BacktestCore

@Suite("Gaps (NaN input) and bad parameters")
struct GapAndParameterTests {
    /// Every spec with its defaults, on GOOG with NaN/infinite values punched in.
    @Test("NaN and infinite inputs never crash; the warm-up restarts after a gap", arguments: IndicatorSpec.Kind.allCases)
    func gaps(_ kind: IndicatorSpec.Kind) throws {
        let clean = try Reference.goog()
        var s = clean
        let gap = 700
        s.close[gap] = .nan
        s.high[gap] = .nan
        s.low[gap] = .nan
        s.volume[gap] = .nan
        s.close[1500] = .infinity
        s.high[1500] = .infinity
        let spec = IndicatorSpec(kind: kind)
        let outputs = try spec.compute(on: s)
        // The run after the gap equals the indicator computed on that run alone.
        let after = try spec.compute(on: clean.slice((gap + 1)..<1500))
        for (out, alone) in zip(outputs, after) {
            #expect(out.count == s.count)
            #expect(out[gap].isNaN && out[1500].isNaN)
            for (k, v) in alone.enumerated() {
                let w = out[gap + 1 + k]
                #expect(v.isNaN ? w.isNaN : w == v)
            }
            // Before the gap nothing changed.
            let before = try spec.compute(on: clean.slice(0..<gap))
            for (k, v) in before[0].enumerated() where k < gap && spec.columns.count == 1 {
                #expect(v.isNaN ? out[k].isNaN : out[k] == v)
            }
        }
    }

    @Test("an all-NaN or tiny series gives NaN, not a crash")
    func degenerate() throws {
        let x = [Double](repeating: .nan, count: 30)
        #expect(try Indicators.sma(x, period: 5).allSatisfy(\.isNaN))
        #expect(try Indicators.macd(x, fast: 2, slow: 3, signal: 2).macd.allSatisfy(\.isNaN))
        let y = [1.0, 2, 3]
        #expect(try Indicators.rsi(y, period: 3).allSatisfy(\.isNaN))  // lookback 3 = all bars
        #expect(try Indicators.sma(y, period: 3)[2] == 2)
    }

    @Test("MACD needs fast < slow")
    func macdOrder() {
        let x = (0..<100).map(Double.init)
        #expect(throws: InputError("macd: fast period (26) must be shorter than slow period (12)")) {
            try Indicators.macd(x, fast: 26, slow: 12, signal: 9)
        }
        #expect(throws: InputError.self) { try Indicators.macd(x, fast: 12, slow: 12, signal: 9) }
        #expect(throws: InputError.self) { try IndicatorSpec(parsing: "macd:26,12,9") }
    }

    @Test("messages name the indicator, the parameter and the reason")
    func messages() {
        let x = (0..<10).map(Double.init)
        #expect(throws: InputError("sma: period must be at least 1 (got 0)")) { try Indicators.sma(x, period: 0) }
        #expect(throws: InputError("ema: period 11 is longer than the series (10 bars)")) { try Indicators.ema(x, period: 11) }
        #expect(throws: InputError.self) { try Indicators.bollinger(x, period: 5, k: -1) }
        #expect(throws: InputError.self) { try Indicators.atr(high: x, low: x, close: [1, 2], period: 2) }
    }
}

@Suite("Indicator specs")
struct IndicatorSpecTests {
    @Test("parse, defaults, column names", arguments: [
        ("sma:20", ["sma_20"], 19), ("rsi", ["rsi_14"], 14),
        ("macd:12,26,9", ["macd_12_26_9", "macd_signal_12_26_9", "macd_hist_12_26_9"], 33),
        ("macd:8", ["macd_8_26_9", "macd_signal_8_26_9", "macd_hist_8_26_9"], 33),
        ("bb:20,2", ["bb_upper_20_2", "bb_middle_20_2", "bb_lower_20_2"], 19),
        ("bb:20,2.5", ["bb_upper_20_2.5", "bb_middle_20_2.5", "bb_lower_20_2.5"], 19),
        ("stoch:14,3,3", ["stoch_k_14_3_3", "stoch_d_14_3_3"], 17), ("obv", ["obv"], 0),
        ("adx:14", ["adx_14"], 27), ("donchian:20", ["donchian_upper_20", "donchian_middle_20", "donchian_lower_20"], 19),
        ("vwap:20", ["vwap_20"], 19), ("ATR:10", ["atr_10"], 10),
    ])
    func parse(_ text: String, _ columns: [String], _ lookback: Int) throws {
        let spec = try IndicatorSpec(parsing: text)
        #expect(spec.columns == columns)
        #expect(spec.lookback == lookback)
    }

    @Test("bad specs throw InputError", arguments: ["smaa:20", "sma:0", "sma:-5", "sma:2.5", "sma:x", "sma:20,3", "obv:3", "bb:20,-1", "macd:26,12", ""])
    func bad(_ text: String) {
        #expect(throws: InputError.self) { try IndicatorSpec(parsing: text) }
    }

    @Test("unknown names suggest the closest")
    func suggestion() {
        #expect(throws: InputError("unknown indicator 'rsx' in 'rsx:14'; did you mean 'rsi'? (one of: sma, ema, wma, rsi, macd, bb, atr, stoch, roc, obv, willr, cci, adx, stddev, donchian, vwap)")) {
            try IndicatorSpec(parsing: "rsx:14")
        }
    }
}
