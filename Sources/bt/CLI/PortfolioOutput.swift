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
                          slots: Int, config: ExecutionConfig, result: PortfolioResult, warmUp: (bars: Int, first: Int64)?,
                          costs: (Double) throws -> CostSensitivity) throws {
        let directory = reportDirectory(strategy: strategy, symbol: "portfolio")
        if let directory { try Report.checkDestination(directory, force: flag(.force)) }
        let json = flag(.json)
        let chart = json || flag(.noChart) ? nil : (size: try chartSize(), style: try chartStyle())
        let noCosts = flag(.noCosts)
        var job = RunJob(strategy: strategy, parameters: parameters, rules: rules, config: config, commandLine: commandLine)
        job.portfolioWarmUp = warmUp
        let report = try job.report(result, slots: slots, portfolio: portfolio, periodsPerYear: try periodsPerYear,
                                    costs: { noCosts ? nil : try costs($0) }, requested: { try timeframe })
        let run = report.run
        if json {
            Output.line(report.json.serialized())
        } else {
            Output.write(RunSummaryText.text(report, rules: rules))
            if let chart {
                Output.line()
                Output.write(chart: try EquityChart.render(time: result.time, equity: result.equity, initial: result.initialCash,
                                                           drawdown: run.drawdowns.curve, size: chart.size, style: chart.style))
            }
        }
        if let directory {
            try report.write(to: directory, force: flag(.force))
            Output.flush()
            Diagnostics.line("report written to \(directory)/report.md and report.html")
        }
    }
}
