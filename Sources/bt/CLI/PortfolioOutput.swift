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
                          slots: Int, config: ExecutionConfig, result: PortfolioResult,
                          costs: (Double) throws -> CostSensitivity) throws {
        let directory = reportDirectory(strategy: strategy, symbol: "portfolio")
        if let directory { try Report.checkDestination(directory, force: flag(.force)) }
        let json = flag(.json)
        let chart = json || flag(.noChart) ? nil : (size: try chartSize(), style: try chartStyle())
        let account = result.account
        let stats = Stats(account, periodsPerYear: try periodsPerYear)
        let sensitivity = flag(.noCosts) ? nil : try costs(stats.periodsPerYear)
        let requested = try timeframe
        var run = Report(strategy: strategy, parameters: parameters, execution: config.parameters,
                         timeframe: account.candles.timeframe?.rawValue ?? requested?.rawValue,
                         commandLine: commandLine, result: account, stats: stats, costs: sensitivity)
        run.rules = rules
        let report = PortfolioReport(run: run, portfolio: result,
                                     figures: PortfolioFigures(result, slots: slots, periodsPerYear: stats.periodsPerYear),
                                     rules: portfolio)
        if json {
            Output.line(report.json.serialized())
        } else {
            Self.writeSummary(run, headline: report.headline, rules: rules)
            Output.line()
            Output.write(TextTable.render(report.figureRows, rightAligned: [1]))
            Output.line()
            Output.write(TextTable.render(report.symbolRows, rightAligned: Set(1..<7)))
            if result.symbols.count > 2 * report.symbolsShown {
                Output.line("The \(report.symbolsShown) largest and smallest contributions of \(result.symbols.count) symbols "
                            + "(all in --json and the report's symbols.csv).")
            }
            if let rows = run.costRows, let breakEven = run.breakEvenText {
                Output.line()
                Output.write(TextTable.render(rows, rightAligned: [0, 1, 2, 3, 4, 5]))
                Output.line(breakEven)
            }
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
