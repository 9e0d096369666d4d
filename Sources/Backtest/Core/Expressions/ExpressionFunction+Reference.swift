extension ExpressionFunction {
    /// bt's function for a name other tools use (Pine Script, backtesting.py, TA-Lib's upper
    /// case): `crossover` is `cross_above`, `SMA` is `sma`; nil for other names.
    static func foreignName(_ name: String) -> ExpressionFunction? {
        switch name.lowercased() {
        case "crossover", "cross_over", "crosses_above", "crossed_above": .crossAbove
        case "crossunder", "cross_under", "crosses_below", "crossed_below": .crossBelow
        case "stdev", "std": .stddev
        case "barssince": .barsSince
        case "bbands", "bollinger": .bb
        case "williams_r", "wpr": .willr
        default: named(name.lowercased()).flatMap { $0.rawValue == name ? nil : $0 }
        }
    }

    /// One line on what the function gives (the guide's table has the full definitions).
    var summary: String {
        switch self {
        case .sma: "simple moving average of x over n bars (TA-Lib SMA)"
        case .ema: "exponential moving average, seeded with the SMA of the first n (TA-Lib EMA)"
        case .wma: "linearly weighted moving average (TA-Lib WMA)"
        case .rsi: "Wilder's relative strength index, 0 to 100 (TA-Lib RSI)"
        case .stddev: "population standard deviation over n bars (TA-Lib STDDEV)"
        case .roc: "rate of change in percent, (x / x[n] - 1) * 100 (TA-Lib ROC)"
        case .macd: "the MACD line; .signal and .hist (and .macd) pick the outputs (TA-Lib MACD)"
        case .bb: "Bollinger bands, SMA +- k population sd: pick .upper, .middle or .lower (TA-Lib BBANDS)"
        case .atr: "average true range of the candles (TA-Lib ATR)"
        case .cci: "commodity channel index of the candles (TA-Lib CCI)"
        case .willr: "Williams %R of the candles, -100 to 0 (TA-Lib WILLR)"
        case .adx: "average directional index of the candles, 0 to 100 (TA-Lib ADX)"
        case .obv: "on-balance volume (TA-Lib OBV)"
        case .vwap: "rolling volume-weighted average price, sum(hlc3 * volume) / sum(volume) over n bars"
        case .stoch: "stochastic oscillator with SMA slowing: pick .k or .d (TA-Lib STOCH)"
        case .donchian: "highest high, lowest low of the last n bars and their mean: pick .upper, .middle or .lower"
        case .crossAbove: "a > b on this bar and a <= b on the previous one"
        case .crossBelow: "a < b on this bar and a >= b on the previous one"
        case .highest: "largest of the last n values, this bar included"
        case .lowest: "smallest of the last n values, this bar included"
        case .sum: "sum of the last n values, this bar included"
        case .change: "x - x[n]"
        case .rising: "x above each of its previous n values, x > highest(x, n)[1]"
        case .falling: "x below each of its previous n values, x < lowest(x, n)[1]"
        case .zscore: "(x - sma(x, n)) / stddev(x, n); NaN when the window is flat"
        case .barsSince: "bars since cond was last true (0 on a bar where it is; NaN before it first is)"
        case .abs: "absolute value"
        case .min: "smallest argument, bar by bar (NaN if any is NaN)"
        case .max: "largest argument, bar by bar (NaN if any is NaN)"
        case .log: "natural logarithm (NaN for x <= 0)"
        case .exp: "e to the x"
        case .sqrt: "square root (NaN for x < 0)"
        case .floor: "largest whole number <= x"
        case .ceil: "smallest whole number >= x"
        }
    }

    /// A rule that uses the function, as an entry or exit would (checked by the tests to parse,
    /// to be a condition and to warm up as `bt help expressions` says).
    var example: String {
        switch self {
        case .sma: "close > sma(close, 50)"
        case .ema: "cross_above(ema(close, 12), ema(close, 26))"
        case .wma: "wma(close, 10) > wma(close, 30)"
        case .rsi: "rsi(close, 14) < 30"
        case .stddev: "stddev(close, 20) < 0.02 * close"
        case .roc: "roc(close, 10) > 5"
        case .macd: "cross_above(macd(close), macd(close).signal)"
        case .bb: "close < bb(close, 20, 2).lower"
        case .atr: "high - low > 2 * atr(14)"
        case .cci: "cci(20) < -100"
        case .willr: "willr(14) < -80"
        case .adx: "adx(14) > 25"
        case .obv: "obv() > sma(obv(), 20)"
        case .vwap: "close > vwap(20)"
        case .stoch: "cross_above(stoch().k, stoch().d)"
        case .donchian: "close > donchian(20).upper[1]"
        case .crossAbove: "cross_above(close, sma(close, 20))"
        case .crossBelow: "cross_below(close, sma(close, 20))"
        case .highest: "close >= highest(close, 20)"
        case .lowest: "close <= lowest(close, 20)"
        case .sum: "sum(volume, 5) > 5 * sma(volume, 50)"
        case .change: "change(close, 5) > 0"
        case .rising: "rising(close, 3)"
        case .falling: "falling(close, 3)"
        case .zscore: "zscore(close, 20) < -2"
        case .barsSince: "bars_since(cross_above(close, sma(close, 20))) == 3"
        case .abs: "abs(change(close)) > 2 * atr(14)"
        case .min: "close < min(open[1], close[1])"
        case .max: "close > max(open[1], close[1])"
        case .log: "log(close / close[1]) > 0.02"
        case .exp: "exp(log(close)) > open"
        case .sqrt: "sqrt(volume) > 1000"
        case .floor: "floor(close) == close"
        case .ceil: "ceil(close) > open"
        }
    }
}
