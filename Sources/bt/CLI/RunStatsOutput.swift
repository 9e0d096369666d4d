import Foundation
import Backtest

/// The statistics, chart and report part of `bt run`'s output, kept here so the run command only
/// has to call `ParsedArguments.presentRun`.
enum RunStatsOptions {
    static let all: [Option] = [
        .periodsPerYear,
        .out.withHelp("Write the report (report.md, report.html, SVG, CSV, stats.json) into DIR"),
        .report,
        .force.withHelp("Let --out/--report write into an existing directory (files are overwritten)"),
        .noChart,
        .noCosts,
        .monteCarlo, .ruin, .seed.withHelp("Seed of --monte-carlo (default 1)"),
    ] + ChartOptions.all
}

extension ParsedArguments {
    /// `--periods-per-year`, validated.
    var periodsPerYear: Double? {
        get throws {
            guard let v = try double(.periodsPerYear) else { return nil }
            guard v > 0 else { throw UsageError("\(Option.periodsPerYear) must be positive", command: command.name) }
            return v
        }
    }

    /// `--monte-carlo`, `--seed` and `--ruin`, checked by the library.
    var monteCarlo: MonteCarlo.Settings? { get throws { try MonteCarlo.Settings(resamples: value(.monteCarlo), seed: value(.seed), ruin: value(.ruin)) } }

    /// The report directory asked for: `--out DIR`, else with `--report`
    /// `notebooks-out/<strategy>-<symbol>-<UTC time>`, else nil.
    func reportDirectory(strategy: String, symbol: String) -> String? {
        value(.out) ?? (flag(.report)
            ? Report.defaultDirectory(strategy: strategy, symbol: symbol, at: Int64(Date().timeIntervalSince1970)) : nil)
    }

    /// Prints a run: with `--json` the run's JSON object, otherwise a headline, the stats table,
    /// the cost table (unless `--no-costs`) and the equity chart (unless `--no-chart`); then
    /// writes the report when `--out` or `--report` asks for it. An existing report directory
    /// without `--force` is refused before anything is computed or printed.
    /// - Parameters:
    ///   - rules: an expression strategy's rules as written, for the manifest.
    ///   - indicators: the indicators the strategy reads, drawn in the report's charts.
    ///   - warmUp: the window run, whose bars before it the report names and draws indicators from.
    ///   - costs: re-runs the engine for the cost table, given the periods per year.
    func presentRun(strategy: String, parameters: [RunParameter], rules: [RunParameter] = [], indicators: [IndicatorSpec] = [],
                    config: ExecutionConfig, result: BacktestResult, warmUp window: CandleWindow, other: OtherSeriesReader? = nil,
                    costs: (Double) throws -> CostSensitivity) throws {
        let (directory, chart) = try reportOutput(strategy: strategy, symbol: result.candles.symbol)
        var job = RunJob(strategy: strategy, parameters: parameters, rules: rules, indicators: indicators, config: config,
                         commandLine: commandLine)
        job.monteCarlo = try monteCarlo
        (job.history, job.otherSeries) = (window.start > 0 ? window.series : nil, other)
        let noCosts = flag(.noCosts)
        let report = try job.report(result, periodsPerYear: try periodsPerYear, costs: { noCosts ? nil : try costs($0) },
                                    requested: { try timeframe })
        try emit(json: report.json, text: RunSummaryText.text(report, rules: rules), chart: chart.map { chart in {
            try EquityChart.drawing(time: result.candles.time, equity: result.equity, initial: result.initialCash,
                                    drawdown: report.drawdowns.curve, size: chart.size, style: chart.style)
        } }, directory: directory, write: { _ = try report.write(to: $0, force: flag(.force)) })
    }

    /// Where a run's report goes (`--out`, `--report`), refused when it exists without
    /// `--force` before anything is computed, and the chart's size and colour, read only when it
    /// is drawn (so they are reported as having no effect with `--json` or `--no-chart`).
    func reportOutput(strategy: String, symbol: String) throws -> (directory: String?, chart: (size: ChartSize, style: ChartStyle)?) {
        let directory = reportDirectory(strategy: strategy, symbol: symbol)
        if let directory { try Report.checkDestination(directory, force: flag(.force)) }
        return (directory, flag(.json) || flag(.noChart) ? nil : (size: try chartSize(), style: try chartStyle()))
    }

    /// Prints a report: its JSON with `--json`, else its text and the equity `chart` when drawn
    /// (its thinning note, when it has one, on stderr); then writes it into `directory`, when
    /// there is one.
    func emit(json: JSONValue, text: @autoclosure () -> String, chart: (() throws -> ChartDrawing)?, directory: String?,
              write: (String) throws -> Void) throws {
        if flag(.json) {
            Output.line(json.serialized())
        } else {
            Output.write(text())
            if let chart {
                Output.line()
                Output.write(chart: try chart())
            }
        }
        if let directory {
            try write(directory)
            Output.flush()  // keep the note after the tables in a combined log
            Diagnostics.line("report written to \(directory)/report.md and report.html")
        }
    }
}
