import BacktestCore

/// Which symbols meet a condition now: a condition expression evaluated on each symbol's last
/// bar (the candles are cut where the screen looks), with values to show beside each symbol.
///
/// The whole loaded history is evaluated, so indicators are warmed up by earlier bars; nothing
/// after the last loaded bar is read. A symbol with fewer bars than the condition's warm-up is
/// an error row ("too short"), never silently dropped; one that cannot be loaded or computed is
/// an error row too and never stops the others.
public struct ConditionScreen: Sendable {
    public struct Row: Sendable {
        public enum Status: String, Sendable {
            /// The condition is true on the last bar.
            case match
            /// False or unknown (an undefined input, such as a division by zero) on the last bar.
            case noMatch = "no_match"
            case error
        }

        public var symbol: String
        public var status: Status
        public var timeframe: String?
        /// The bar looked at.
        public var time: Int64?
        /// Each shown expression's value on that bar (conditions as 1, 0 or NaN for unknown).
        public var values: [Double] = []
        public var error: String?

        package init(symbol: String, status: Status, timeframe: String? = nil, time: Int64? = nil,
                     values: [Double] = [], error: String? = nil) {
            self.symbol = symbol; self.status = status; self.timeframe = timeframe; self.time = time
            self.values = values; self.error = error
        }
    }

    public let condition: LocatedExpression
    public let shows: [LocatedExpression]
    /// Whether each shown expression is a number or a condition.
    public let showTypes: [ExpressionType]
    /// The condition and the shown expressions bound to the parameters, the condition first
    /// (what `@` reads left out when `other` is given: they are bound again per symbol).
    private let nodes: [ExpressionNode]
    private let values: [String: ExpressionValue]
    /// Where `@` reads other series: one reader for every symbol, so a market filter's series
    /// is loaded once and its indicators computed once (its cache); nil refuses `@`.
    public let other: OtherSeriesReader?

    /// Checks the condition (it must be one) and the shown expressions against `parameters`,
    /// and binds them, so what the rules refuse (an expression too large once written out, a
    /// period a function cannot take, a position series such as `trade_return`: a screen has no
    /// run, so no position) is refused here, once, as `--entry` refuses it, rather than as every
    /// symbol's error.
    /// A symbol after `@` that `other` does not hold is refused here too.
    /// - Throws: `InputError` with a caret at the expression's setting.
    public init(condition: LocatedExpression, shows: [LocatedExpression] = [],
                parameters: [(name: String, value: ExpressionValue)] = [], reading other: OtherSeriesReader? = nil) throws {
        let declared = parameters.map { p -> ExpressionParameter in
            switch p.value {
            case .number: return ExpressionParameter(p.name, .number)
            case .word(let w): return ExpressionParameter(p.name, .word([w]))
            }
        }
        try condition.check(.condition, parameters: declared, for: "a screen condition")
        try condition.requireNoPositionSeries(for: "a screen condition")
        self.condition = condition
        self.shows = shows
        showTypes = try shows.map { try $0.check(parameters: declared) }
        for show in shows { try show.requireNoPositionSeries(for: "a shown value") }
        let values = Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        self.values = values
        self.other = other
        try other?.checkSymbols(in: [condition] + shows)
        nodes = try ([condition] + shows).map { try other == nil ? $0.bind(values) : $0.bindLeavingOtherSeriesOut(values) }
    }

    /// The expressions bound for `candles`: with `@` read aligned to its bars. A key that cannot
    /// be read there (a timeframe below the symbol's, no bar of the other series closed within
    /// its bars) or a last bar that no bar of the other series has closed by (within its
    /// staleness) is the symbol's error, its reason without the caret (the same for every row).
    private func bound(for candles: CandleSeries) throws -> [ExpressionNode] {
        guard let other else { return nodes }
        let nodes: [ExpressionNode]
        do {
            nodes = try ([condition] + shows).map { try $0.bind(values, reading: other, on: candles) }
        } catch let e as InputError {
            throw InputError(String(e.reason.prefix { $0 != "\n" }))
        }
        if let last = candles.time.last,
           let missing = UnalignedBars.of(nodes, on: candles).first(where: { $0.bars.last == candles.count - 1 }) {
            throw InputError("\(missing.noClosedBar) at the bar looked at (\(UTCTime.iso(last)))")
        }
        return nodes
    }

    /// The row of one symbol, whose candles end at the bar to look at.
    /// - Throws: `InputError` when the candles are shorter than the condition's warm-up, or an
    ///   indicator cannot be computed on them.
    public func evaluate(_ candles: CandleSeries) throws -> Row {
        let needed = nodes[0].warmUp + 1
        guard candles.count >= needed else {
            throw InputError("too short: the condition needs at least \(needed) bars, \(candles.symbol) has \(candles.count)")
        }
        let plan = ExpressionPlan(try bound(for: candles))
        let last = candles.count - 1
        let atLast = try plan.evaluate(on: candles, cache: IndicatorCache(), workspace: ExpressionWorkspace()) { roots in
            roots.map { $0[last] }
        }
        return Row(symbol: candles.symbol, status: atLast[0] == 1 ? .match : .noMatch,
                   timeframe: candles.timeframe?.rawValue, time: candles.time[last], values: Array(atLast.dropFirst()))
    }

    /// Every symbol's row, in the order given, computed on all cores. `load` returns a symbol's
    /// candles ending at the bar to look at; what it or the evaluation throws becomes the
    /// symbol's error row.
    public func run(symbols: [String], progress: ((Int) -> Void)? = nil,
                    load: (String) throws -> CandleSeries) -> [Row] {
        let results = Parallel.map(count: symbols.count, progress: progress) { i in try evaluate(try load(symbols[i])) }
        return zip(symbols, results).map { symbol, result in
            switch result {
            case .success(var row):
                row.symbol = SeriesName.split(symbol)?.0 ?? symbol
                return row
            case .failure(let error):
                return Row(symbol: SeriesName.split(symbol)?.0 ?? symbol, status: .error, error: "\(error)")
            }
        }
    }
}
