import Backtest
import Foundation

extension ParsedArguments {
    /// Prints a portfolio run as `presentRun` prints a run (JSON, or warnings, headline, cost
    /// split, statistics, cost table, chart), with the portfolio's figures and each symbol's
    /// contribution after the statistics; then writes the report when `--out` or `--report`
    /// asks for it. An existing report directory without `--force` is refused before the
    /// cost table is computed.
    /// - Parameters:
    ///   - portfolio: the portfolio's rules for the manifest (`PortfolioRules.parameters`).
    ///   - slots: K.
    ///   - costs: re-runs the portfolio for the cost table, given the periods per year.
    func presentPortfolio(strategy: String, parameters: [RunParameter], rules: [RunParameter], portfolio: [RunParameter],
                          slots: Int, config: ExecutionConfig, result: PortfolioResult, warmUp: (bars: Int, first: Int64)?, other: OtherSeriesReader?,
                          costs: (Double) throws -> CostSensitivity) throws {
        let (directory, chart) = try reportOutput(strategy: strategy, symbol: "portfolio")
        let noCosts = flag(.noCosts)
        var job = RunJob(strategy: strategy, parameters: parameters, rules: rules, config: config, commandLine: commandLine)
        (job.portfolioWarmUp, job.otherSeries, job.monteCarlo) = (warmUp, other, try monteCarlo)
        let report = try job.report(result, slots: slots, portfolio: portfolio, periodsPerYear: try periodsPerYear,
                                    costs: { noCosts ? nil : try costs($0) }, requested: { try timeframe })
        try emit(json: report.json, text: RunSummaryText.text(report, rules: rules), chart: chart.map { chart in {
            try EquityChart.render(time: result.time, equity: result.equity, initial: result.initialCash,
                                   drawdown: report.run.drawdowns.curve, size: chart.size, style: chart.style)
        } }, directory: directory, write: { _ = try report.write(to: $0, force: flag(.force)) })
    }
}
