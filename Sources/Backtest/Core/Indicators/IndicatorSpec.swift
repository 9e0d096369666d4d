/// An indicator and its parameters as users write them: `sma:20`, `macd:12,26,9`, `bb:20,2`, `obv`.
///
/// Parameters left out take the defaults in `Kind.defaults` (`rsi` is `rsi:14`, `macd:8` is
/// `macd:8,26,9`). Output columns are named from the spec: `sma_20`, `macd_12_26_9`,
/// `macd_signal_12_26_9`, `macd_hist_12_26_9`, `bb_upper_20_2`, `stoch_k_14_3_3`, `obv`, ...
public struct IndicatorSpec: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case sma, ema, wma, rsi, macd, bb, atr, stoch, roc, obv, willr, cci, adx, stddev, donchian, vwap

        /// Default parameters, in order.
        public var defaults: [Double] {
            switch self {
            case .sma, .ema, .wma, .cci, .stddev, .donchian, .vwap: return [20]
            case .rsi, .atr, .willr, .adx: return [14]
            case .macd: return [12, 26, 9]
            case .bb: return [20, 2]
            case .stoch: return [14, 3, 3]
            case .roc: return [10]
            case .obv: return []
            }
        }

        /// Output names before the parameter suffix.
        var outputs: [String] {
            switch self {
            case .macd: return ["macd", "macd_signal", "macd_hist"]
            case .bb: return ["bb_upper", "bb_middle", "bb_lower"]
            case .donchian: return ["donchian_upper", "donchian_middle", "donchian_lower"]
            case .stoch: return ["stoch_k", "stoch_d"]
            default: return [rawValue]
            }
        }

        /// Whether the indicator reads one series (the close unless told otherwise) rather than
        /// the columns it names itself (atr: high, low and close; obv: close and volume; ...).
        public var readsOneSeries: Bool {
            switch self {
            case .sma, .ema, .wma, .rsi, .macd, .bb, .roc, .stddev: return true
            case .atr, .stoch, .obv, .willr, .cci, .adx, .donchian, .vwap: return false
            }
        }

        /// Parameter names, for messages.
        var parameterNames: [String] {
            switch self {
            case .macd: return ["fast period", "slow period", "signal period"]
            case .bb: return ["period", "k"]
            case .stoch: return ["fast %K period", "slow %K period", "slow %D period"]
            case .obv: return []
            default: return ["period"]
            }
        }
    }

    /// What an indicator is computed from.
    public enum Input: Hashable, Sendable {
        /// One column of the candles, for indicators that read one series (`Kind.readsOneSeries`).
        case column(CandleSeries.Column)
        /// The columns the indicator names itself, for the others.
        case candles
        /// A series computed by a signal expression (`sma(atr(14), 50)` reads `atr(14)`), for
        /// indicators that read one series; computed with `compute(series:)`.
        case expression(ExpressionNode)
    }

    public var kind: Kind
    /// All parameters, defaults filled in. Every one is a whole number except Bollinger's `k`.
    public var parameters: [Double]

    public init(kind: Kind, parameters: [Double]? = nil) {
        self.kind = kind
        self.parameters = parameters ?? kind.defaults
    }

    /// `kind` with `parameters` in order, those left out at their defaults, as in the text form:
    /// `IndicatorSpec(.macd, 12, 26, 9)`, `IndicatorSpec(.rsi)` (rsi:14).
    public init(_ kind: Kind, _ parameters: Double...) {
        precondition(parameters.count <= kind.defaults.count, "\(kind.rawValue) takes \(kind.defaults.count) parameters")
        var values = kind.defaults
        values.replaceSubrange(0..<parameters.count, with: parameters)
        self.init(kind: kind, parameters: values)
    }

    /// What `compute(on:)` reads: the close for indicators of one series, else their own columns.
    public var defaultInput: Input {
        kind.readsOneSeries ? .column(.close) : .candles
    }

    /// Parses `name[:p1[,p2...]]`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].lowercased()
        guard let kind = Kind(rawValue: name) else {
            let names = Kind.allCases.map(\.rawValue)
            let hint = Suggest.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("unknown indicator '\(parts[0])' in '\(text)'\(hint) (one of: \(names.joined(separator: ", ")))")
        }
        var values = kind.defaults
        if parts.count == 2 {
            let given = parts[1].split(separator: ",", omittingEmptySubsequences: false)
            guard given.count <= values.count else {
                throw InputError("'\(text)': \(kind.rawValue) takes \(values.count) parameter\(values.count == 1 ? "" : "s"), got \(given.count)")
            }
            for (i, raw) in given.enumerated() {
                let word = String(raw).trimmingWhitespace()
                let isK = kind == .bb && i == 1
                guard let v = Double(word), v.isFinite, isK || v == v.rounded() else {
                    throw InputError("'\(text)': \(kind.parameterNames[i]) must be \(isK ? "a number" : "a whole number"), got '\(word)'")
                }
                values[i] = v
            }
        }
        self.init(kind: kind, parameters: values)
        try validate()
    }

    /// Throws for parameters no series could satisfy (periods below their minimum, MACD order,
    /// negative band width). Lengths are checked when computing.
    public func validate() throws {
        let minimum = 1
        for (i, v) in parameters.enumerated() where !(kind == .bb && i == 1) {
            if v < Double(minimum) || v > 1e7 {
                throw InputError("'\(self)': \(kind.parameterNames[i]) must be between \(minimum) and 10000000 (got \(Self.format(v)))")
            }
        }
        if kind == .macd && parameters[0] >= parameters[1] {
            throw InputError("'\(self)': fast period (\(Self.format(parameters[0]))) must be shorter than slow period (\(Self.format(parameters[1])))")
        }
        if kind == .bb && !(parameters[1] >= 0) {
            throw InputError("'\(self)': k must be a non-negative number (got \(Self.format(parameters[1])))")
        }
    }

    /// `sma:20`, `bb:20,2`, `obv`.
    public var description: String {
        parameters.isEmpty ? kind.rawValue : "\(kind.rawValue):" + parameters.map(Self.format).joined(separator: ",")
    }

    /// Column names of the outputs, in `compute` order.
    public var columns: [String] {
        let suffix = parameters.map { "_" + Self.format($0) }.joined()
        return kind.outputs.map { $0 + suffix }
    }

    /// Leading NaN outputs (TA-Lib's lookback).
    public var lookback: Int {
        let p = parameters.map(Self.whole)
        typealias L = Indicators.Lookback
        switch kind {
        case .sma: return L.sma(period: p[0])
        case .ema: return L.ema(period: p[0])
        case .wma: return L.wma(period: p[0])
        case .rsi: return L.rsi(period: p[0])
        case .macd: return L.macd(fast: p[0], slow: p[1], signal: p[2])
        case .bb: return L.bollinger(period: p[0])
        case .atr: return L.atr(period: p[0])
        case .stoch: return L.stochastic(fastK: p[0], slowK: p[1], slowD: p[2])
        case .roc: return L.roc(period: p[0])
        case .obv: return L.obv()
        case .willr: return L.williamsR(period: p[0])
        case .cci: return L.cci(period: p[0])
        case .adx: return L.adx(period: p[0])
        case .stddev: return L.stddev(period: p[0])
        case .donchian: return L.donchian(period: p[0])
        case .vwap: return L.vwap(period: p[0])
        }
    }

    /// The outputs on `candles` (close for single-input indicators), one array per column.
    public func compute(on candles: CandleSeries) throws -> [[Double]] {
        try compute(on: candles, input: defaultInput)
    }

    /// The outputs on `input` of `candles`, one array per column.
    /// - Precondition: `input` is a column exactly when the indicator reads one series.
    public func compute(on candles: CandleSeries, input: Input) throws -> [[Double]] {
        let p = parameters.map(Self.whole)
        let (h, l, v) = (candles.high, candles.low, candles.volume)
        let c: [Double]
        switch input {
        case .column(let column):
            precondition(kind.readsOneSeries, "\(kind.rawValue) reads its own columns, not one series")
            c = candles[column]
        case .candles:
            precondition(!kind.readsOneSeries, "\(kind.rawValue) reads one series: give it a column")
            c = candles.close
        case .expression:
            preconditionFailure("an expression's series is computed by the expression: use compute(series:)")
        }
        if kind.readsOneSeries { return try compute(series: c) }
        try candles.require(range: kind != .obv, volume: kind == .obv || kind == .vwap, for: kind.rawValue)
        switch kind {
        case .atr: return [try Indicators.atr(high: h, low: l, close: c, period: p[0])]
        case .stoch:
            let s = try Indicators.stochastic(high: h, low: l, close: c, fastK: p[0], slowK: p[1], slowD: p[2])
            return [s.k, s.d]
        case .obv: return [try Indicators.obv(close: c, volume: v)]
        case .willr: return [try Indicators.williamsR(high: h, low: l, close: c, period: p[0])]
        case .cci: return [try Indicators.cci(high: h, low: l, close: c, period: p[0])]
        case .adx: return [try Indicators.adx(high: h, low: l, close: c, period: p[0])]
        case .donchian:
            let d = try Indicators.donchian(high: h, low: l, period: p[0])
            return [d.upper, d.middle, d.lower]
        case .vwap: return [try Indicators.vwap(high: h, low: l, close: c, volume: v, period: p[0])]
        case .sma, .ema, .wma, .rsi, .macd, .bb, .roc, .stddev:
            preconditionFailure("one-series indicators are computed above")
        }
    }

    /// The outputs of an indicator that reads one series, on `c` (NaN values split it into runs,
    /// each computed on its own: a derived series' warm-up delays the indicator's).
    /// - Precondition: `kind.readsOneSeries`.
    public func compute(series c: [Double]) throws -> [[Double]] {
        precondition(kind.readsOneSeries, "\(kind.rawValue) reads its own columns, not one series")
        let p = parameters.map(Self.whole)
        switch kind {
        case .sma: return [try Indicators.sma(c, period: p[0])]
        case .ema: return [try Indicators.ema(c, period: p[0])]
        case .wma: return [try Indicators.wma(c, period: p[0])]
        case .rsi: return [try Indicators.rsi(c, period: p[0])]
        case .macd:
            let m = try Indicators.macd(c, fast: p[0], slow: p[1], signal: p[2])
            return [m.macd, m.signal, m.histogram]
        case .bb:
            let b = try Indicators.bollinger(c, period: p[0], k: parameters[1])
            return [b.upper, b.middle, b.lower]
        case .roc: return [try Indicators.roc(c, period: p[0])]
        case .stddev: return [try Indicators.stddev(c, period: p[0])]
        case .atr, .stoch, .obv, .willr, .cci, .adx, .donchian, .vwap:
            preconditionFailure("\(kind.rawValue) reads its own columns")
        }
    }

    /// `v` as a period: its whole part, clamped to `Int`'s range (NaN as 0) so that an absurd
    /// parameter fails the length check instead of trapping; Bollinger's `k` is read as a Double.
    static func whole(_ v: Double) -> Int {
        v.isNaN ? 0 : v >= 0x1p63 ? .max : v <= -0x1p63 ? .min : Int(v)
    }

    /// `20` for whole numbers, `2.5` otherwise.
    static func format(_ v: Double) -> String {
        NumberText.shortest(v)
    }
}
