import Foundation
import Backtest

/// The statistics, chart and report part of `bt run`'s output, kept here so the run command only
/// has to call `ParsedArguments.presentRun`.
enum RunStatsOptions {
    static let all: [OptionSpec] = [
        .value("periods-per-year", "N", "Bars per year for annualising (default: inferred from bar times)"),
        .value("out", "DIR", "Write the report (report.md, SVG, CSV, JSON) into DIR"),
        .flag("report", "Write the report into notebooks-out/<strategy>-<symbol>-<UTC time>/"),
        .flag("force", "Let --out write into an existing directory"),
        .flag("no-chart", "Do not draw the equity chart"),
        .flag("no-costs", "Skip the cost-sensitivity re-runs"),
    ] + ChartOptions.all
}

extension ParsedArguments {
    /// `--periods-per-year`, validated.
    var periodsPerYear: Double? {
        get throws {
            guard let v = try double("periods-per-year") else { return nil }
            guard v > 0 else { throw UsageError("--periods-per-year must be positive", command: command.name) }
            return v
        }
    }

    /// Prints a run's statistics (a table, or with `--json` the stats object), the cost table and
    /// the equity chart, and writes the report when `--out` or `--report` asks for it.
    /// - Parameter costs: re-runs the engine for the cost table (skipped with `--no-costs`).
    func presentRun(strategy: String, parameters: [(name: String, value: String)], result: BacktestResult,
                    costs: (Double?) throws -> CostSensitivity) throws {
        let ppy = try periodsPerYear
        let stats = Stats(result, periodsPerYear: ppy)
        let sensitivity = flag("no-costs") ? nil : try costs(stats.periodsPerYear)
        let report = Report(strategy: strategy, parameters: parameters, commandLine: commandLine,
                            result: result, stats: stats, costs: sensitivity)
        if flag("json") {
            Output.line(report.statsJSON())
        } else {
            Output.write(TextTable.render([["statistic", "value"]] + stats.all.map { [$0.label, $0.formatted] }, rightAligned: [1]))
            if let sensitivity {
                Output.line()
                var rows = [["costs", "total return", "sharpe", "max drawdown", "fees paid", "trades"]]
                for r in sensitivity.rows {
                    rows.append([String(format: "%gx", r.multiplier), String(format: "%.2f%%", r.totalReturn * 100),
                                 String(format: "%.3f", r.sharpe), String(format: "%.2f%%", r.maxDrawdown * 100),
                                 String(format: "%.2f", r.feesPaid), String(r.trades)])
                }
                Output.write(TextTable.render(rows, rightAligned: [0, 1, 2, 3, 4, 5]))
                Output.line("break-even fee: " + (sensitivity.breakEvenFeeBps.map { String(format: "%.2f bps", $0) } ?? "none"))
            }
            if !flag("no-chart") {
                Output.line()
                Output.write(try EquityChart.render(time: result.candles.time, equity: result.equity, initial: result.initialCash,
                                                    size: try chartSize(), style: try chartStyle()))
            }
        }
        let directory = value("out") ?? (flag("report")
            ? Report.defaultDirectory(strategy: strategy, symbol: result.candles.symbol, at: Int64(Date().timeIntervalSince1970)) : nil)
        if let directory {
            try report.write(to: directory, force: flag("force"))
            Diagnostics.line("report written to \(directory)/report.md")
        }
    }
}
