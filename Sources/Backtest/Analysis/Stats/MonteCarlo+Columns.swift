import BacktestCore

/// A run's Monte Carlo as a row of numbers: the column set of `bt screen --monte-carlo`
/// (`screen.csv`), the same figures `bt run --monte-carlo --json` gives in its `monte_carlo` object.
extension MonteCarlo {
    /// The figures of each resampling, in column order.
    static let figures = ["final_equity", "max_drawdown", "cagr"]

    /// Column names: per resampling (`trades`, then `bars`), each figure's 5th, 50th and 95th
    /// percentiles, then the ruin probability: `mc_trades_final_equity_p5` ...
    /// `mc_bars_ruin_probability`. Final equity in cash; drawdowns (negative), CAGR and the
    /// probability as fractions.
    public static let columns: [String] = ["trades", "bars"].flatMap { resampling in
        figures.flatMap { figure in ["p5", "p50", "p95"].map { "mc_\(resampling)_\(figure)_\($0)" } }
            + ["mc_\(resampling)_ruin_probability"]
    }

    /// The values of `columns`: NaN for a resampling the run could not make (no trades, fewer
    /// than 3 bars).
    public var columnValues: [Double] {
        [trades, bars].flatMap { d -> [Double] in
            guard let d else { return [Double](repeating: .nan, count: Self.columns.count / 2) }
            return [d.finalEquity, d.maxDrawdown, d.cagr].flatMap { [$0.p5, $0.p50, $0.p95] } + [d.ruinProbability]
        }
    }
}
