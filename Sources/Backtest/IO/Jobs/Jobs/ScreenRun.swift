import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation
import Foundation

/// A strategy screen as a job: one strategy with fixed parameters over many symbols, from the
/// symbols to the ranked rows and the written files (`screen.csv`, `screen.md`, `report.html`).
/// `bt screen` and `bt bench screen` run it; a shard computes `rows` for its symbols and a merge
/// `write`s every shard's rows.
public struct ScreenRun {
    public let strategy: Strategy
    public let parameters: StrategyParameters
    public let screen: Screen
    /// Bars per year for annualising; nil: inferred per symbol.
    public let periodsPerYear: Double?
    /// Rows in the top table.
    public let top: Int
    /// The command line the report's manifest records.
    public let commandLine: [String]
    /// The execution settings the report's manifest lists.
    public let execution: [RunParameter]
    /// How a symbol's error is worded in its row (the command line names settings by their
    /// flags); as thrown by default.
    public var reword: @Sendable (Error) -> Error = { $0 }
    /// Stored symbols the screen left out and series it reads resampled, with why
    /// (`CandleStore.seriesNotes`), listed by its report.
    public var seriesNotes: [SeriesNote] = []

    public init(strategy: Strategy, parameters: StrategyParameters, screen: Screen, periodsPerYear: Double?, top: Int,
                commandLine: [String], execution: [RunParameter]) {
        self.strategy = strategy
        self.parameters = parameters
        self.screen = screen
        self.periodsPerYear = periodsPerYear
        self.top = top
        self.commandLine = commandLine
        self.execution = execution
    }

    /// Runs every symbol, then writes `screen.csv`, `screen.md` and `report.html` into `directory`.
    /// - Parameter load: a symbol's bars (the window traded, with the warm-up before it) and
    ///   execution, from a store connection of its own.
    /// The runs the page may embed are kept as the symbols finish (`EmbeddedRunKeeper`), so
    /// the page draws them without running them again.
    public func run(symbols: [String], databasePath: String, directory: String, progress: ((Int) -> Void)? = nil,
                    load: (String, CandleStore) throws -> (CandleWindow, ExecutionConfig)) throws -> ScreenReport {
        try run(symbols: symbols, directory: directory, progress: progress) { symbol in
            try load(symbol, try CandleStore(existingAt: databasePath))
        }
    }

    /// `run(symbols:databasePath:directory:progress:load:)` with each symbol's bars and execution
    /// from `source` (called from several threads at once): a screen of bars the caller holds.
    public func run(symbols: [String], directory: String, progress: ((Int) -> Void)? = nil,
                    source: (String) throws -> (CandleWindow, ExecutionConfig)) throws -> ScreenReport {
        let keeper = EmbeddedRunKeeper(screen: screen)
        let rows = self.rows(symbols: symbols, progress: progress, keep: keeper.offer, source: source)
        return try write(rows: rows, directory: directory, kept: keeper.runs, source: source)
    }

    /// Every symbol's row, unranked, in the order given (each job opens its own read-only store
    /// connection: SQLite handles are not shared across threads). A symbol's error is recorded
    /// as `reword` words it.
    /// - Parameter keep: given each row that ran with its run and statistics (`Screen.evaluate`).
    public func rows(symbols: [String], databasePath: String, progress: ((Int) -> Void)? = nil,
                     keep: (@Sendable (Screen.Row, BacktestResult, Stats) -> Void)? = nil,
                     load: (String, CandleStore) throws -> (CandleWindow, ExecutionConfig)) -> [Screen.Row] {
        rows(symbols: symbols, progress: progress, keep: keep) { symbol in try load(symbol, try CandleStore(existingAt: databasePath)) }
    }

    /// `rows(symbols:databasePath:progress:keep:load:)` with each symbol's bars and execution
    /// from `source` (called from several threads at once).
    public func rows(symbols: [String], progress: ((Int) -> Void)? = nil,
                     keep: (@Sendable (Screen.Row, BacktestResult, Stats) -> Void)? = nil,
                     source: (String) throws -> (CandleWindow, ExecutionConfig)) -> [Screen.Row] {
        let reword = self.reword
        // Equally long histories bootstrap with the same blocks: drawn once per length.
        let resamples = Uncertainty.SharedResamples()
        return screen.evaluate(symbols: symbols, progress: progress, keep: keep) { symbol in
            do {
                let (window, config) = try source(symbol)
                let result = try Engine.run(Engine.Request(window, signals: try strategy.signals(window.series, parameters), config: config))
                return (result, Stats(result, periodsPerYear: periodsPerYear, sharing: resamples))
            } catch {
                throw reword(error)
            }
        }
    }

    /// A screen in which no symbol ran is a failure (exit 2), as a sweep in which no combination
    /// ran is, and writes no report: the error lists each symbol's reason (the first ten).
    public static func requireSomeRan(_ rows: [Screen.Row]) throws {
        guard !rows.isEmpty, rows.allSatisfy({ $0.status == .error }) else { return }
        let reasons = rows.prefix(10).map { "\($0.symbol): \($0.error ?? "failed")" }
        throw InputError("no symbol could run: all \(rows.count) failed (" + reasons.joined(separator: "; ")
                         + (rows.count > 10 ? "; ..." : "") + ")")
    }

    /// Ranks `rows` (every symbol's, in the screen's symbol order) and writes `screen.csv`,
    /// `screen.md` and `report.html` into `directory`. Ranking depends only on the rows'
    /// contents, so rows merged from shards give what one process gives.
    /// - Parameter kept: runs kept while the rows were computed, by series; the page's other
    ///   symbols are run again here (a merge keeps none), and give the same page.
    public func write(rows: [Screen.Row], databasePath: String, directory: String, kept: [String: ChartedRun] = [:],
                      load: (String, CandleStore) throws -> (CandleWindow, ExecutionConfig)) throws -> ScreenReport {
        try write(rows: rows, directory: directory, kept: kept) { symbol in try load(symbol, try CandleStore(existingAt: databasePath)) }
    }

    /// `write(rows:databasePath:directory:kept:load:)` with each symbol's bars and execution
    /// from `source` (called from several threads at once).
    public func write(rows: [Screen.Row], directory: String, kept: [String: ChartedRun] = [:],
                      source: (String) throws -> (CandleWindow, ExecutionConfig)) throws -> ScreenReport {
        try Self.requireSomeRan(rows)
        var report = ScreenReport(
            strategy: strategy.name, parameters: parameters.runParameters,
            execution: execution, commandLine: commandLine, rankStat: screen.rankStat,
            minTrades: screen.minTrades, top: top, rows: screen.ranked(rows))
        report.monteCarlo = screen.monteCarlo
        report.rules = strategy.ruleParameters
        report.seriesNotes = seriesNotes
        // The page embeds charts of the symbols it shows: those not kept are run again.
        let embedded = report.embeddedSymbols
        let missing = embedded.filter { kept[$0] == nil }
        let reruns = Parallel.map(count: missing.count) { k -> ChartedRun in
            let (window, config) = try source(missing[k])
            return ChartedRun(try Engine.run(Engine.Request(window, signals: try strategy.signals(window.series, parameters),
                                                            config: config)))
        }
        var runs: [String: ChartedRun] = [:]
        for symbol in embedded { if let run = kept[symbol] { runs[symbol] = run } }
        for (symbol, r) in zip(missing, reruns) { if case .success(let run) = r { runs[symbol] = run } }
        // Every series read so far: by the rows' runs, or in a merge of shards by the page's reruns.
        report.otherSeries = strategy.otherSeries?.read ?? []
        try OutputDirectory.write(report.csv(), to: "screen.csv", in: directory)
        try OutputDirectory.write(report.markdown(), to: "screen.md", in: directory)
        try OutputDirectory.write(report.html(runs: runs), to: "report.html", in: directory)
        return report
    }
}
