/// A trading strategy: named parameters with defaults, and a whole-array function from candles
/// to signal vectors. No per-bar callbacks: every signal comes from vectorized indicator passes.
///
/// The built-ins and the registry (`Strategy.all`, `StrategyLibrary`) are in the Strategies
/// target: adding one there is one file (`extension Strategy { static let foo = Strategy(...) }`)
/// and one line in `Strategy.all`. Give it an `incremental:` form too (its signals one bar at a
/// time from `IndicatorStream`s, for `bt live`): `IncrementalStrategyTests` requires one of every
/// built-in and checks it against the whole-series signals bit for bit.
public struct Strategy: Sendable {
    public let name: String
    /// One line for `bt strategies`.
    public let summary: String
    public let parameters: [StrategyParameter]
    /// The rules as written, for strategies made of expressions (`entry`, `exit`, ...,
    /// `require`), in order; empty for strategies written in Swift.
    public let expressions: [(role: String, text: String)]
    /// The strategy file it was read from, if any.
    public let file: String?
    /// Entry orders and exits the strategy asks for (a strategy file's `[orders]` and `[exits]`);
    /// the command line's own settings override them.
    public let orders: OrderSettings
    /// The account and cost settings the strategy asks for (a strategy file's `[account]`); the
    /// command line's own settings override them.
    public let account: [OrderSettings.Item]
    private let compute: @Sendable (CandleSeries, StrategyParameters, IndicatorCache) throws -> Signals
    private let declaredIndicators: @Sendable (StrategyParameters) -> [IndicatorSpec]
    private let makeIncremental: (@Sendable (StrategyParameters) throws -> any IncrementalSignals)?
    /// The rules, for strategies made of expressions (`reading(_:)` gives them other series).
    var rules: SignalRules?

    /// - Parameters:
    ///   - indicators: the indicators the signals read for given parameters, in the order to
    ///     draw them (reports draw them over the candles).
    ///   - incremental: the same signals one bar at a time (`IncrementalSignals`), for a live
    ///     session; nil when the strategy has none (a live session then recomputes `signals`
    ///     over every bar at each close).
    public init(name: String, summary: String, parameters: [StrategyParameter],
                expressions: [(role: String, text: String)] = [], file: String? = nil, orders: OrderSettings = OrderSettings(),
                account: [OrderSettings.Item] = [],
                indicators: @escaping @Sendable (StrategyParameters) -> [IndicatorSpec] = { _ in [] },
                incremental: (@Sendable (StrategyParameters) throws -> any IncrementalSignals)? = nil,
                signals: @escaping @Sendable (CandleSeries, StrategyParameters, IndicatorCache) throws -> Signals) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.expressions = expressions
        self.file = file
        self.orders = orders
        self.account = account
        self.declaredIndicators = indicators
        self.makeIncremental = incremental
        self.compute = signals
    }

    /// Whether the strategy computes its signals one bar at a time too (`incremental(_:)`).
    public var isIncremental: Bool { makeIncremental != nil }

    /// The strategy's signals with `parameters`, one bar at a time from the first bar; nil when
    /// it has no incremental form. `SignalStream` keeps them.
    /// - Throws: `InputError` for parameters the strategy refuses.
    public func incremental(_ parameters: StrategyParameters) throws -> (any IncrementalSignals)? {
        try makeIncremental?(parameters)
    }

    /// The strategy's signals with `parameters` one bar at a time over `run`'s bars and those
    /// after them: as `incremental(_:)`, but rules that read other series with `@` (`reading(_:)`)
    /// are bound to `run` and follow its symbol's higher timeframes bar by bar (a live session).
    /// - Throws: `InputError` for parameters the strategy refuses, or a series read with `@` that
    ///   cannot be followed bar by bar.
    public func incremental(_ parameters: StrategyParameters, run: CandleSeries) throws -> (any IncrementalSignals)? {
        guard let rules, rules.otherSeries != nil else { return try incremental(parameters) }
        return try rules.incremental(values: parameters.expressionValues, run: run)
    }

    /// The indicators the strategy reads with `parameters` (`sma:10`, `sma:30` for ma-cross
    /// 10/30), for charts and reports.
    public func indicators(_ parameters: StrategyParameters) -> [IndicatorSpec] {
        declaredIndicators(parameters)
    }

    /// Parameters from `name=value` assignments over the defaults; throws `InputError` naming the
    /// valid parameters for an unknown name, or the expected form for a bad value.
    public func parameters(_ assignments: [String]) throws -> StrategyParameters {
        try StrategyParameters(parsing: assignments, for: self)
    }

    /// The strategy's signals on `candles`, one element per bar, each using data up to that bar.
    /// Indicators come from `cache` when it already holds them (a sweep shares one cache per
    /// candle series across combinations); a cache must only ever see one candle series.
    /// - Throws: `InputError` for parameters the indicators reject (a period longer than the data).
    public func signals(_ candles: CandleSeries, _ parameters: StrategyParameters,
                        cache: IndicatorCache = IndicatorCache()) throws -> Signals {
        try compute(candles, parameters, cache)
    }

    /// The strategy's signals with its default parameters.
    public func signals(_ candles: CandleSeries) throws -> Signals {
        try compute(candles, try self.parameters([]), IndicatorCache())
    }
}

extension Strategy {
    /// The rules as report manifests record them.
    public var ruleParameters: [RunParameter] {
        expressions.map { RunParameter($0.role, .string($0.text)) }
    }
}
