import BacktestCore

/// The symbols of a portfolio with their liquidity, ready to run under any parameters: what
/// `bt portfolio`, its cost table and sweeps share. Signals and ranks come from a closure per
/// symbol (a strategy and a rank expression, bound to one combination's parameters).
public struct PortfolioUniverse: Sendable {
    /// A symbol's signals (nil under rotation) and rank (nil without one), computed from its
    /// candles with indicators from `cache` (the symbol's own cache).
    public typealias Inputs = @Sendable (_ candles: CandleSeries, _ cache: IndicatorCache) throws -> (signals: Signals?, rank: [Double]?)

    /// Candles of each symbol, sorted by symbol.
    public let candles: [CandleSeries]
    /// Each symbol's liquidity configuration (`PortfolioSymbol.liquidity`).
    public let liquidity: [ExecutionConfig?]
    /// The portfolio's clock as a close-only series (for sweeps: one row per portfolio bar): the
    /// union of the symbols' bar times, from the window's start when there is one.
    public let clock: CandleSeries
    /// Whether bars before the clock's first row are warm-up (`init(windows:liquidity:)`): runs
    /// then compute signals, ranks and exit expressions from each symbol's first bar and trade
    /// only the clock's rows.
    public var hasWarmUp: Bool { warmUp != nil }
    /// The clock's rows before its first (the union of the symbols' bar times before the
    /// window) and the first of them; nil without warm-up.
    public let warmUp: (bars: Int, first: Int64)?

    /// - Parameter liquidity: one per symbol, in the order of `candles` (nil: the portfolio's).
    public init(candles: [CandleSeries], liquidity: [ExecutionConfig?]? = nil) {
        self.init(candles, liquidity: liquidity, from: nil)
    }

    /// The portfolio of the symbols' windows (`--from`/`--to`): it trades from the earliest
    /// window's first bar, every bar before that being warm-up.
    /// - Parameter liquidity: one per symbol, in the order of `windows` (nil: the portfolio's).
    public init(windows: [CandleWindow], liquidity: [ExecutionConfig?]? = nil) {
        let from = windows.contains { $0.start > 0 } ? windows.compactMap { $0.candles.time.first }.min() : nil
        self.init(windows.map(\.series), liquidity: liquidity, from: from)
    }

    private init(_ candles: [CandleSeries], liquidity: [ExecutionConfig?]?, from: Int64?) {
        precondition(liquidity.map { $0.count == candles.count } ?? true, "one liquidity configuration per symbol")
        let order = candles.indices.sorted { candles[$0].symbol < candles[$1].symbol }
        self.candles = order.map { candles[$0] }
        self.liquidity = order.map { liquidity?[$0] ?? nil }
        var times = self.candles.first?.time ?? []
        for c in self.candles.dropFirst() where c.time != times { times = Self.union(times, c.time) }
        let first = from.map { t in times.firstIndex { $0 >= t } ?? times.count } ?? 0
        warmUp = first > 0 ? (first, times[0]) : nil
        if first > 0 { times = Array(times[first...]) }
        let zeros = [Double](repeating: 0, count: times.count)
        clock = CandleSeries(symbol: "portfolio", timeframe: Timeframe.infer(from: times), time: times,
                             open: zeros, high: zeros, low: zeros, close: zeros, volume: zeros)
    }

    static func union(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        var out: [Int64] = [], i = 0, j = 0
        out.reserveCapacity(max(a.count, b.count))
        while i < a.count && j < b.count {
            if a[i] < b[j] { out.append(a[i]); i += 1 } else if b[j] < a[i] { out.append(b[j]); j += 1 } else {
                out.append(a[i]); i += 1; j += 1
            }
        }
        return out + a[i...] + b[j...]
    }

    /// The portfolio's symbols with `inputs` computed on each (on all cores when `parallel`).
    /// - Parameter through: read only bars at or before this time (a walk-forward prefix).
    /// - Throws: the first symbol's error, as `InputError` naming the symbol when it is one.
    public func symbols(_ inputs: Inputs, cache: IndicatorCache, through: Int64? = nil, parallel: Bool) throws -> [PortfolioSymbol] {
        func make(_ j: Int) throws -> PortfolioSymbol? {
            var c = candles[j]
            if let through {
                let end = c.lowerBound(of: through &+ 1)
                guard end > 0 else { return nil }
                if end < c.count { c = c.slice(0..<end) }
            }
            do {
                let (signals, rank) = try inputs(c, cache.child(c.symbol))
                return PortfolioSymbol(candles: c, signals: signals, rank: rank, liquidity: liquidity[j])
            } catch var e as InputError {
                e.reason = "\(c.symbol): " + e.reason
                throw e
            }
        }
        if parallel {
            return try Parallel.map(count: candles.count) { try make($0) }.compactMap { try $0.get() }
        }
        return try candles.indices.compactMap(make)
    }

    /// The symbols as a run of the whole clock under `rules` trades them: with warm-up, cut to
    /// the clock's rows (`symbols(_:rules:cache:rows:parallel:)`).
    public func tradedSymbols(_ inputs: Inputs, rules: PortfolioRules, cache: IndicatorCache, parallel: Bool) throws -> [PortfolioSymbol] {
        hasWarmUp ? try symbols(inputs, rules: rules, cache: cache, rows: 0..<clock.count, parallel: parallel)
            : try symbols(inputs, cache: cache, parallel: parallel)
    }

    /// Runs the portfolio: every symbol's inputs, then `Portfolio.run` over the whole clock.
    public func run(rules: PortfolioRules, config: ExecutionConfig, inputs: Inputs, cache: IndicatorCache = IndicatorCache(),
                    parallel: Bool = true) throws -> PortfolioResult {
        try Portfolio.run(try tradedSymbols(inputs, rules: rules, cache: cache, parallel: parallel), rules: rules, config: config)
    }

    /// Runs the portfolio over the clock's rows `range`: inputs computed on each symbol's bars up
    /// to the range's last time (nothing later is read), then only the bars inside the range
    /// traded, starting flat with `initialCash`. Inverse-volatility weights read the volatility
    /// over the same prefix.
    public func run(rules: PortfolioRules, config: ExecutionConfig, inputs: Inputs, rows range: Range<Int>,
                    cache: IndicatorCache, initialCash: Double? = nil, parallel: Bool = false) throws -> PortfolioResult {
        var config = config
        if let initialCash { config.initialCash = initialCash }
        return try Portfolio.run(try symbols(inputs, rules: rules, cache: cache, rows: range, parallel: parallel), rules: rules,
                                 config: config)
    }

    /// The symbols that trade the clock's rows `range`: inputs computed on each symbol's bars up
    /// to the range's last time (nothing later is read), then cut to the range, each keeping its
    /// bars before as the history its exit expressions and inverse-volatility weights read. A
    /// symbol without a bar in the range is left out.
    public func symbols(_ inputs: Inputs, rules: PortfolioRules, cache: IndicatorCache, rows range: Range<Int>,
                        parallel: Bool) throws -> [PortfolioSymbol] {
        precondition(!range.isEmpty && range.upperBound <= clock.count, "rows must be a non-empty range of the clock")
        let first = clock.time[range.lowerBound], last = clock.time[range.upperBound - 1]
        let full = try symbols(inputs, cache: cache, through: last, parallel: parallel)
        return full.compactMap { s -> PortfolioSymbol? in
            let start = s.candles.lowerBound(of: first)
            guard start < s.candles.count else { return nil }
            let part = start..<s.candles.count
            var out = PortfolioSymbol(candles: start == 0 ? s.candles : s.candles.slice(part), liquidity: s.liquidity,
                                      history: start == 0 ? nil : s.candles)
            if let signals = s.signals {
                out.signals = start == 0 ? signals : Signals(entries: Array(signals.entries[part]), exits: Array(signals.exits[part]),
                                                             positionRules: signals.positionRules?.slice(part))
            }
            if let rank = s.rank { out.rank = start == 0 ? rank : Array(rank[part]) }
            if rules.weighting == .inverseVolatility {
                let sigma = PortfolioRules.volatility(s.candles.close)
                out.volatility = start == 0 ? sigma : Array(sigma[part])
            }
            return out
        }
    }

    /// A sweep evaluator over the portfolio's clock (`clock`): combination `combo` runs with
    /// the rules and inputs `combination(combo)` gives.
    public func evaluator(config: ExecutionConfig, periodsPerYear: Double,
                          combination: @escaping @Sendable (Int) throws -> (rules: PortfolioRules, inputs: Inputs, config: ExecutionConfig))
    -> SweepEvaluator {
        let universe = self
        return SweepEvaluator(config: config, periodsPerYear: periodsPerYear) { combo, prefix, range, cache, initialCash in
            let (rules, inputs, config) = try combination(combo)
            if range == 0..<universe.clock.count && initialCash == nil {  // with warm-up, the rows path below
                return try universe.run(rules: rules, config: config, inputs: inputs, cache: cache, parallel: false).account
            }
            precondition(prefix.time.last == universe.clock.time[range.upperBound - 1], "the prefix must be a prefix of the clock")
            return try universe.run(rules: rules, config: config, inputs: inputs, rows: range, cache: cache,
                                    initialCash: initialCash).account
        }
    }
}
