import BacktestAnalysis
import BacktestCore
import BacktestPresentation

/// A run's report from its result, as `bt run` and `bt portfolio` build it: the statistics,
/// the cost table when asked for, and the manifest's fields.
package struct RunJob {
    package var strategy: String
    /// Every strategy parameter, defaults included.
    package var parameters: [RunParameter]
    /// An expression strategy's rules as written, for the manifest.
    package var rules: [RunParameter] = []
    /// The indicators the strategy reads, drawn in the report's charts.
    package var indicators: [IndicatorSpec] = []
    package var config: ExecutionConfig
    /// The command line as typed.
    package var commandLine: [String]
    /// Every bar read when the run traded a window (`CandleWindow.series`); nil: none before.
    package var history: CandleSeries?
    /// A portfolio's warm-up before its window (`PortfolioUniverse.warmUp`); nil: none.
    package var portfolioWarmUp: (bars: Int, first: Int64)?
    /// Where the rules read other series (`Strategy.otherSeries`), for the manifest; nil: none.
    package var otherSeries: OtherSeriesReader?
    /// The Monte Carlo asked for (`--monte-carlo`); nil: none.
    package var monteCarlo: MonteCarlo.Settings?

    package init(strategy: String, parameters: [RunParameter], rules: [RunParameter] = [], indicators: [IndicatorSpec] = [],
                 config: ExecutionConfig, commandLine: [String]) {
        self.strategy = strategy; self.parameters = parameters; self.rules = rules; self.indicators = indicators
        self.config = config; self.commandLine = commandLine
    }

    /// The report of `result`: its statistics at `periodsPerYear` (nil: inferred) and the cost
    /// table `costs` computes at the periods per year used (nil for none), the two at once on two
    /// cores (a long run's bootstrap and cost re-runs each take a fraction of a second), then the
    /// timeframe (the candles', else `requested()`, read after the costs). Without `intervals`,
    /// the Sharpe interval and the PSR are left undefined and the bootstrap is not run.
    package func report(_ result: BacktestResult, periodsPerYear: Double?, intervals: Bool = true,
                        costs: (Double) throws -> CostSensitivity?, requested: () throws -> Timeframe?) throws -> Report {
        let ppy = periodsPerYear ?? PeriodsPerYear.infer(from: result.candles.time)
        enum Part { case stats(Stats), costs(CostSensitivity?) }
        let parts = Parallel.map(count: 2) { i -> Part in
            i == 0 ? .stats(Stats(result, periodsPerYear: ppy, intervals: intervals)) : .costs(try costs(ppy))
        }
        guard case .stats(let stats) = try parts[0].get(), case .costs(let sensitivity) = try parts[1].get() else {
            preconditionFailure("report parts out of order")
        }
        let requested = try requested()
        var report = Report(strategy: strategy, parameters: parameters, execution: config.parameters,
                            timeframe: result.candles.timeframe?.rawValue ?? requested?.rawValue,
                            commandLine: commandLine, result: result, stats: stats, costs: sensitivity)
        report.rules = rules
        report.indicators = indicators
        report.history = history
        report.otherSeries = otherSeries?.read ?? []
        report.monteCarlo = monteCarlo.map { MonteCarlo(result, periodsPerYear: stats.periodsPerYear, settings: $0) }
        return report
    }

    /// The report of a portfolio run: the account's as `report` builds it, with the portfolio's
    /// figures for `slots` positions and its rules as the manifest records them.
    package func report(_ result: PortfolioResult, slots: Int, portfolio: [RunParameter], periodsPerYear: Double?,
                        costs: (Double) throws -> CostSensitivity?, requested: () throws -> Timeframe?) throws -> PortfolioReport {
        let run = try report(result.account, periodsPerYear: periodsPerYear, costs: costs, requested: requested)
        var report = PortfolioReport(run: run, portfolio: result,
                                     portfolioStats: PortfolioStats(result, slots: slots, periodsPerYear: run.stats.periodsPerYear),
                                     rules: portfolio)
        report.warmUp = portfolioWarmUp
        return report
    }
}
