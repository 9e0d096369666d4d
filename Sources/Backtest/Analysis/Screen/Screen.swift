import BacktestCore

/// One strategy run on many symbols in parallel, ranked by a statistic. A symbol that cannot be
/// run (missing, too little or bad data, parameters its data cannot satisfy) becomes an error
/// row; it never stops the others.
public struct Screen {
    /// One symbol's outcome.
    public struct Row: Sendable {
        public enum Status: String, Sendable {
            case ok
            /// Ran, but made fewer trades than `--min-trades`: reported, not ranked.
            case fewTrades = "few_trades"
            case error
        }
        public var symbol: String
        /// The timeframe of the bars the run used (nil for a symbol that could not be loaded
        /// and was not named as `SYMBOL@TF`).
        public var timeframe: Timeframe?
        public var status: Status
        public var error: String?
        public var stats: Stats?
        /// The equity curve reduced to a few points, for sparklines.
        public var equityShape: [Double] = []
        /// 1-based rank among `ok` rows by the rank statistic; nil when not ranked.
        public var rank: Int?
        public var bars: Int = 0
        /// With `Screen.monteCarlo`: the run's Monte Carlo as `MonteCarlo.columns` (nil without,
        /// or for a row that did not run).
        public var monteCarlo: [Double]?

        /// `SYMBOL@TF` (the symbol alone when the timeframe is unknown): loads this row's bars again.
        public var series: String { timeframe.map { "\(symbol)@\($0.rawValue)" } ?? symbol }

        package init(symbol: String, timeframe: Timeframe? = nil, status: Status, error: String? = nil, stats: Stats? = nil,
                     equityShape: [Double] = [], rank: Int? = nil, bars: Int = 0) {
            self.symbol = symbol; self.timeframe = timeframe; self.status = status; self.error = error; self.stats = stats
            self.equityShape = equityShape; self.rank = rank; self.bars = bars
        }
    }

    /// Any statistic; ranks in its direction (`Stat.direction`).
    public var rankStat: Stat
    public var minTrades: Int
    /// `bt screen`'s default: a Sharpe ratio of two or three trades says nothing, so such rows
    /// follow the ranked ones, marked `few_trades`, instead of topping the screen.
    public static let defaultMinTrades = 10
    /// Points kept of each equity curve.
    public var shapePoints = 24
    /// A Monte Carlo of each symbol's run (`bt screen --monte-carlo`), as `bt run --monte-carlo`
    /// makes it for that symbol: the same settings, the same run, the same numbers.
    public var monteCarlo: MonteCarlo.Settings?

    /// - Parameter rankStat: `Stat.named(_:)` checks a name.
    public init(rankStat: Stat, minTrades: Int = 0) {
        self.rankStat = rankStat
        self.minTrades = minTrades
    }

    /// Runs `job` for every symbol (or `SYMBOL@TF` series) on all cores and ranks the results. `job` returns the run and
    /// its statistics; anything it throws becomes that symbol's error row.
    public func run(symbols: [String], progress: ((Int) -> Void)? = nil,
                    job: (String) throws -> (BacktestResult, Stats)) -> [Row] {
        ranked(evaluate(symbols: symbols, progress: progress, job: job))
    }

    /// Every symbol's row, in the order given, unranked (`ranked(_:)` ranks them): what one
    /// shard of a screen computes. A row keeps the statistics' values, not their drawdown curve.
    /// - Parameter keep: called (on the worker thread) with each row that ran, its run and its
    ///   full statistics, for a caller that keeps some runs to draw them later.
    public func evaluate(symbols: [String], progress: ((Int) -> Void)? = nil,
                         keep: (@Sendable (Row, BacktestResult, Stats) -> Void)? = nil,
                         job: (String) throws -> (BacktestResult, Stats)) -> [Row] {
        let points = shapePoints, monteCarlo = self.monteCarlo
        let minTrades = Double(self.minTrades)
        let results = Parallel.map(count: symbols.count, progress: progress) { i -> Row in
            let (result, stats) = try job(symbols[i])
            var values = stats
            values.drawdowns = nil
            values.exits = nil
            var row = Row(symbol: SeriesName.split(symbols[i])?.0 ?? symbols[i], timeframe: result.candles.timeframe, status: .ok,
                          stats: values, equityShape: Self.shape(result.equity, points: points), bars: result.candles.count)
            if stats[.trades] < minTrades { row.status = .fewTrades }
            row.monteCarlo = monteCarlo.map { MonteCarlo(result, periodsPerYear: stats.periodsPerYear, settings: $0, withBands: false).columnValues }
            keep?(row, result, stats)
            return row
        }
        return zip(symbols, results).map { symbol, r -> Row in
            switch r {
            case .success(let row):
                return row
            case .failure(let error):
                let name = SeriesName.split(symbol)
                return Row(symbol: name?.0 ?? symbol, timeframe: name?.1, status: .error, error: "\(error)")
            }
        }
    }

    /// `rows` with ranks: `ok` rows by the rank statistic in its direction, undefined values last,
    /// ties by symbol; the others unranked. Depends only on the rows' contents, so rows merged
    /// from shards in any order rank as they do in one process.
    public func ranked(_ rows: [Row]) -> [Row] {
        var rows = rows
        let ranked = rows.indices.filter { rows[$0].status == .ok }.sorted { precedes(rows[$0], rows[$1]) }
        for i in rows.indices { rows[i].rank = nil }
        for (k, i) in ranked.enumerated() { rows[i].rank = k + 1 }
        return rows
    }

    /// Whether `a` comes before `b` in the report's order of rows that ran: `ok` rows first, by
    /// the rank statistic in its direction (undefined values last, ties by symbol), then the
    /// `few_trades` rows by symbol.
    public func precedes(_ a: Row, _ b: Row) -> Bool {
        if (a.status == .ok) != (b.status == .ok) { return a.status == .ok }
        if a.status == .ok, let sa = a.stats, let sb = b.stats {
            let x = sa[rankStat], y = sb[rankStat]
            if x.isNaN != y.isNaN { return !x.isNaN }
            if x != y && !x.isNaN { return rankStat.ranks(x, before: y) }
        }
        return a.symbol < b.symbol
    }

    /// The last value of each of `points` equal buckets of `values`.
    static func shape(_ values: [Double], points: Int) -> [Double] {
        guard values.count > points else { return values }
        return (1...points).map { values[$0 * values.count / points - 1] }
    }
}
