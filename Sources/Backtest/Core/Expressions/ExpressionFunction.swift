/// The series names of the expression language: the candle columns and the usual price averages.
enum ExpressionSeries: String, CaseIterable, Sendable {
    case open, high, low, close, volume, hl2, hlc3, ohlc4
}

/// Every function of the expression language, with its arguments and result: the one table the
/// checker, the binder and the documentation read.
enum ExpressionFunction: String, CaseIterable, Sendable {
    // Indicators of one series (the first argument), with `bt indicators`' names and defaults.
    case sma, ema, wma, rsi, stddev, roc, macd, bb
    // Indicators that read the candles' own columns.
    case atr, cci, willr, adx, obv, vwap, stoch, donchian
    // Helpers.
    case crossAbove = "cross_above", crossBelow = "cross_below"
    case highest, lowest, sum, change, rising, falling, zscore
    case barsSince = "bars_since"
    case abs, min, max, log, exp, sqrt, floor, ceil

    /// What an argument must be.
    enum Argument: Sendable, Equatable {
        /// A number series (a constant is a series that never changes).
        case series
        /// A condition series.
        case condition
        /// A fixed whole number >= 1 (literal, `$name` or arithmetic of those): a period.
        case period
        /// A fixed number >= 0: Bollinger's width.
        case width
    }

    struct Parameter: Sendable {
        var name: String
        var kind: Argument
        /// The value when the argument is left out; nil when it is required.
        var defaultValue: Double?
    }

    /// What a call gives.
    enum Result: Sendable, Equatable {
        case number
        case condition
        /// Several series picked with `.name`; `defaultOutput` is the one a plain call means.
        case outputs([String], defaultOutput: Int?)
    }

    /// The indicator this function computes, if it is one.
    var indicator: IndicatorSpec.Kind? {
        switch self {
        case .sma: .sma
        case .ema: .ema
        case .wma: .wma
        case .rsi: .rsi
        case .stddev: .stddev
        case .roc: .roc
        case .macd: .macd
        case .bb: .bb
        case .atr: .atr
        case .cci: .cci
        case .willr: .willr
        case .adx: .adx
        case .obv: .obv
        case .vwap: .vwap
        case .stoch: .stoch
        case .donchian: .donchian
        default: nil
        }
    }

    /// The arguments in order. Indicators take their `bt indicators` parameters, with the same
    /// defaults, after the series they read (if they read one).
    var parameters: [Parameter] { Self.table[self]!.parameters }

    /// How many arguments a call may have.
    var arity: ClosedRange<Int> { Self.table[self]!.arity }

    /// The function called `name`, if any (a hash lookup: binding runs once per sweep combination).
    static func named(_ name: String) -> ExpressionFunction? { byName[name] }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// Parameters and arity of every function, computed once.
    private static let table: [ExpressionFunction: (parameters: [Parameter], arity: ClosedRange<Int>)] =
        Dictionary(uniqueKeysWithValues: allCases.map { f in
            let parameters = f.declaredParameters
            let required = parameters.filter { $0.defaultValue == nil }.count
            return (f, (parameters, required...(f.isVariadic ? Int.max : parameters.count)))
        })

    private var declaredParameters: [Parameter] {
        if let kind = indicator {
            let names: [String]
            switch kind {
            case .macd: names = ["fast", "slow", "signal"]
            case .bb: names = ["n", "k"]
            case .stoch: names = ["k", "slow_k", "slow_d"]
            default: names = kind.defaults.isEmpty ? [] : ["n"]
            }
            let series = kind.readsOneSeries ? [Parameter(name: "x", kind: .series)] : []
            return series + zip(names, kind.defaults).map { name, value in
                Parameter(name: name, kind: kind == .bb && name == "k" ? .width : .period, defaultValue: value)
            }
        }
        switch self {
        case .crossAbove, .crossBelow, .min, .max:
            return [Parameter(name: "a", kind: .series), Parameter(name: "b", kind: .series)]
        case .highest, .lowest, .sum, .rising, .falling, .zscore:
            return [Parameter(name: "x", kind: .series), Parameter(name: "n", kind: .period)]
        case .change:
            return [Parameter(name: "x", kind: .series), Parameter(name: "n", kind: .period, defaultValue: 1)]
        case .barsSince:
            return [Parameter(name: "cond", kind: .condition)]
        default:
            return [Parameter(name: "x", kind: .series)]
        }
    }

    /// `min` and `max` take two or more series.
    var isVariadic: Bool { self == .min || self == .max }

    var result: Result {
        switch self {
        case .macd: .outputs(["macd", "signal", "hist"], defaultOutput: 0)
        case .bb, .donchian: .outputs(["upper", "middle", "lower"], defaultOutput: nil)
        case .stoch: .outputs(["k", "d"], defaultOutput: nil)
        case .crossAbove, .crossBelow, .rising, .falling: .condition
        default: .number
        }
    }

    /// `sma(x, n = 20)`, `min(a, b, ...)`, `obv()`: how a call is written, for messages.
    var signature: String {
        let list = parameters.map { p in p.defaultValue.map { "\(p.name) = \(NumberText.shortest($0))" } ?? p.name }
        return "\(rawValue)(\((list + (isVariadic ? ["..."] : [])).joined(separator: ", ")))"
    }
}
