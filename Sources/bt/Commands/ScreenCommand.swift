import Backtest
import Foundation
import Strategies

extension Command {
    static let screen = Command(
        path: ["screen"],
        summary: "Run a strategy on many symbols in parallel and rank them",
        discussion: """
            Every symbol runs with the same parameters and execution options as 'bt run', on all
            cores. A symbol that cannot run (missing, too little or bad data) is reported with
            status error and why; it never stops the others. Writes screen.csv (every statistic,
            fractions) and screen.md (ranked table with equity sparklines, failures) to --out DIR
            (default notebooks-out/screen-<strategy>-<time>/). --rank takes any statistic name of
            'bt run --json' (default sharpe).
            """,
        positionals: [PositionalSpec(name: "STRATEGY", help: "Strategy name (see 'bt strategies')")],
        options: [
            .symbols,
            .all,
            .param,
            .rank,
            .top,
            .minTrades,
            .periodsPerYear.withHelp("Bars per year for annualising (default: inferred per symbol)"),
            .out,
            .force,
        ] + CommonOptions.range + ExecutionOptions.table
    ) { args in
        let strategy = try Strategy.named(try args.required(0))
        let parameters = try strategy.parameters(args.values(.param))
        let store = try args.openStore()
        let symbols: [String]
        switch (try args.symbolList(.symbols), args.flag(.all)) {
        case (nil, false): throw UsageError("give \(Option.symbols) A,B,C or \(Option.all)", command: "screen")
        case (.some, true): throw UsageError("give either \(Option.symbols) or \(Option.all), not both", command: "screen")
        case (let list?, false):
            symbols = list
        case (nil, true):
            symbols = Array(Set(try store.list().map(\.symbol))).sorted()
        }
        guard !symbols.isEmpty else { throw InputError("no symbols to screen") }
        let screen = Screen(rankMetric: try args.value(.rank).map(Metric.statistic(named:)) ?? .sharpe,
                            minTrades: try args.int(.minTrades) ?? 0)
        let top = try args.int(.top) ?? 20
        guard top > 0 else { throw UsageError("\(Option.top) must be positive", command: "screen") }
        let ppy = try args.double(.periodsPerYear)
        if let ppy, ppy <= 0 { throw UsageError("\(Option.periodsPerYear) must be positive", command: "screen") }
        // Validate the execution options once, before any symbol runs (book depth loads per symbol).
        let sample = try args.executionConfig(symbol: symbols[0], store: store)
        let dir = args.value(.out) ?? OutputDirectory.timestamped(["screen", strategy.name], at: Int64(Date().timeIntervalSince1970))
        let staged = try OutputDirectory.stage(dir, force: args.flag(.force))

        let bar = ProgressBar(total: symbols.count, label: "screen")
        let report = try ScreenRun(
            strategy: strategy, parameters: parameters, screen: screen, periodsPerYear: ppy, top: top,
            commandLine: args.commandLine, execution: sample.parameters
        ).run(symbols: symbols, databasePath: args.databasePath, directory: staged.path, progress: bar.update) { symbol, store in
            (try args.loadCandles(symbol: symbol, store: store), try args.executionConfig(symbol: symbol, store: store))
        }
        try staged.commit()
        Output.write(ScreenSummaryText.render(report, directory: dir))
    }
}

/// A screen from symbols to written files: `bt screen` and `bt bench screen` share it.
struct ScreenRun {
    let strategy: Strategy
    let parameters: StrategyParameters
    let screen: Screen
    let periodsPerYear: Double?
    let top: Int
    let commandLine: [String]
    let execution: [RunParameter]

    /// Runs every symbol (each job opens its own store connection: SQLite handles are not
    /// shared across threads), then writes `screen.csv` and `screen.md` into `directory`. A
    /// symbol's error is recorded as bt words it.
    func run(symbols: [String], databasePath: String, directory: String, progress: ((Int) -> Void)? = nil,
             load: (String, CandleStore) throws -> (CandleSeries, ExecutionConfig)) throws -> ScreenReport {
        let rows = screen.run(symbols: symbols, progress: progress) { symbol in
            try ErrorMessage.rewording {
                let (candles, config) = try load(symbol, try CandleStore(existingAt: databasePath))
                let result = try Engine.run(candles, signals: try strategy.signals(candles, parameters), config: config)
                return (result, Stats(result, periodsPerYear: periodsPerYear))
            }
        }
        let report = ScreenReport(
            strategy: strategy.name, parameters: parameters.runParameters,
            execution: execution, commandLine: commandLine, rankMetric: screen.rankMetric,
            minTrades: screen.minTrades, top: top, rows: rows)
        try OutputDirectory.write(report.csv(), to: "screen.csv", in: directory)
        try OutputDirectory.write(report.markdown(), to: "screen.md", in: directory)
        return report
    }
}

/// The terminal summary of a screen: the ranked top table (percentages) and the failures.
enum ScreenSummaryText {
    static func render(_ report: ScreenReport, directory: String) -> String {
        let rows = report.ordered
        let metric = report.rankMetric
        let columns = [metric] + [Metric.totalReturn, .sharpe, .maxDrawdown, .trades].filter { $0 != metric }
        var table = [["#", "symbol", "equity"] + columns.map(\.name)]
        for row in rows.prefix(while: { $0.rank != nil }).prefix(report.top) {
            guard let s = row.stats else { continue }
            table.append(["\(row.rank!)", row.symbol, ScreenReport.sparkline(row.equityShape)]
                         + columns.map { s.stat($0).formatted })
        }
        let ranked = rows.filter { $0.rank != nil }.count
        let few = rows.filter { $0.status == .fewTrades }.count
        let failed = rows.filter { $0.status == .error }
        var out = "Screen \(report.strategy): \(rows.count) symbols, \(ranked) ranked by \(metric), "
            + (report.minTrades > 0 ? "\(few) with fewer than \(report.minTrades) trades, " : "")
            + "\(failed.count) failed\n\n"
        out += TextTable.render(table, rightAligned: Set([0] + Array(3..<(3 + columns.count))))
        if !failed.isEmpty {
            out += "\nFailed:\n"
            for row in failed.prefix(10) { out += "  \(row.symbol): \(row.error ?? "")\n" }
            if failed.count > 10 { out += "  ... \(failed.count - 10) more in screen.md\n" }
        }
        out += "\nWrote \(directory)/screen.csv and screen.md\n"
        return out
    }
}
