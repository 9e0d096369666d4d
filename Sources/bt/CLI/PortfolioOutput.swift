import Backtest
import Foundation

extension ParsedArguments {
    /// Prints a portfolio run as `presentRun` prints a run (JSON, or warnings, headline, cost
    /// split, statistics, cost table, chart), with the portfolio's figures and each symbol's
    /// contribution after the statistics; then writes the report when `--out` or `--report`
    /// asks for it. An existing report directory without `--force` is refused before the
    /// run is reported.
    /// - Parameters:
    ///   - rules: the strategy's rules as written, for the text.
    ///   - report: the run's report, with the cost table when asked for (`--no-costs` not
    ///     given), at the periods per year given (nil: inferred).
    func presentPortfolio(strategy: String, rules: [RunParameter],
                          report makeReport: (_ costs: Bool, _ periodsPerYear: Double?) throws -> PortfolioReport) throws {
        let (directory, chart) = try reportOutput(strategy: strategy, symbol: "portfolio")
        let report = try makeReport(!flag(.noCosts), try periodsPerYear)
        let result = report.portfolio
        try emit(json: report.json, text: RunSummaryText.text(report, rules: rules), chart: chart.map { chart in {
            try EquityChart.drawing(time: result.time, equity: result.equity, initial: result.initialCash,
                                    drawdown: report.run.drawdowns.curve, size: chart.size, style: chart.style)
        } }, directory: directory, write: { _ = try report.write(to: $0, force: flag(.force)) })
    }
}
