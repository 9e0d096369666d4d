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
        public var status: Status
        public var error: String?
        public var stats: Stats?
        /// The equity curve reduced to a few points, for sparklines.
        public var equityShape: [Double] = []
        /// 1-based rank among `ok` rows by the rank metric; nil when not ranked.
        public var rank: Int?
        public var bars: Int = 0
    }

    public var rankMetric: String
    public var minTrades: Int
    /// Points kept of each equity curve.
    public var shapePoints = 24

    /// - Throws: `InputError` when `rankMetric` is not a statistic name.
    public init(rankMetric: String, minTrades: Int = 0) throws {
        guard Stats.allNames.contains(rankMetric) else {
            let hint = Suggest.closest(to: rankMetric, among: Stats.allNames).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("unknown statistic\(hint)", setting: .rank, value: rankMetric)
        }
        self.rankMetric = rankMetric
        self.minTrades = minTrades
    }

    /// Whether larger values of `metric` rank first.
    public static func higherIsBetter(_ metric: String) -> Bool {
        !["volatility_ann", "fees_paid", "max_drawdown_duration", "max_drawdown_duration_days",
          "avg_drawdown_duration", "avg_drawdown_duration_days", "avg_slippage_bps", "partial_fills",
          "rejected_orders"].contains(metric)
    }

    /// Runs `job` for every symbol on all cores and ranks the results. `job` returns the run and
    /// its statistics; anything it throws becomes that symbol's error row.
    public func run(symbols: [String], progress: ((Int) -> Void)? = nil,
                    job: (String) throws -> (BacktestResult, Stats)) -> [Row] {
        let points = shapePoints
        let results = Parallel.map(count: symbols.count, progress: progress) { i -> Row in
            let (result, stats) = try job(symbols[i])
            return Row(symbol: symbols[i], status: .ok, stats: stats,
                       equityShape: Self.shape(result.equity, points: points), bars: result.candles.count)
        }
        var rows = zip(symbols, results).map { symbol, r -> Row in
            switch r {
            case .success(var row):
                if let s = row.stats, s["trades"] < Double(minTrades) { row.status = .fewTrades }
                return row
            case .failure(let error):
                return Row(symbol: symbol, status: .error, error: "\(error)")
            }
        }
        let higher = Self.higherIsBetter(rankMetric)
        let ranked = rows.indices.filter { rows[$0].status == .ok }.sorted { a, b in
            let x = rows[a].stats![rankMetric], y = rows[b].stats![rankMetric]
            if x.isNaN != y.isNaN { return !x.isNaN }
            if x != y && !x.isNaN { return higher ? x > y : x < y }
            return rows[a].symbol < rows[b].symbol
        }
        for (k, i) in ranked.enumerated() { rows[i].rank = k + 1 }
        return rows
    }

    /// The last value of each of `points` equal buckets of `values`.
    static func shape(_ values: [Double], points: Int) -> [Double] {
        guard values.count > points else { return values }
        return (1...points).map { values[$0 * values.count / points - 1] }
    }
}
