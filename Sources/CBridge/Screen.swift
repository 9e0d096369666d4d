import Backtest
import CBTABI
import Foundation

/// `bt_screen`'s options, named as btcore's keywords (`bt screen`'s options with underscores).
private let screenOptions = ["rank", "min_trades", "top", "timeframe", "monte_carlo", "seed", "ruin"]
/// `bt_where`'s options.
private let whereOptions = ["show", "at", "timeframe", "max_stale"]

/// The series a screen of the store at `db` reads: `names` (upper-cased as the store keeps
/// symbols), or with none every stored series at `timeframe` (`--all`), and what the store
/// says of them (left out, resampled).
private func screened(_ names: [String], store: CandleStore, timeframe: Timeframe?) throws -> (symbols: [String], notes: [SeriesNote]) {
    let symbols = names.isEmpty ? try store.allSeries(timeframe: timeframe) : try names.map(SeriesName.normalized)
    guard !symbols.isEmpty else { throw InputError("no symbols to screen") }
    let notes = (try? store.seriesNotes(screening: symbols, timeframe: timeframe, all: names.isEmpty)) ?? []
    return (symbols, notes)
}

/// The notes as JSON: [{"series", "kind", "reason"}].
private func notesJSON(_ notes: [SeriesNote]) -> JSONValue {
    .array(notes.map { .object([("series", .string($0.series)), ("kind", .string($0.kind.rawValue)), ("reason", .string($0.reason))]) })
}

/// Where a screen's bars come from: its symbols, what the store says of them (left out,
/// resampled), each symbol's window (the bars traded after their warm-up; called from several
/// threads at once), and the first symbol's bars to check the execution settings on.
private struct ScreenSource {
    var symbols: [String]
    var notes: [SeriesNote]
    var window: (String) throws -> CandleWindow
    var first: CandleSeries
}

@_cdecl("bt_screen")
public func bt_screen(_ symbols: UnsafePointer<UnsafePointer<CChar>?>?, _ nsymbols: Int, _ strategy: OpaquePointer?,
                      _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int, _ options: UnsafePointer<UnsafePointer<CChar>?>?,
                      _ noptions: Int, _ config: UnsafePointer<bt_config>?, _ directory: UnsafePointer<CChar>?,
                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        try screen(strategy, params, nparams, options, noptions, config, directory, out) { cfg, timeframe in
            guard let db = try optionalString(cfg.db, "config.db") else { throw InputError(.needsSetting, "a screen reads the store", setting: .store) }
            let store = try CandleStore(existingAt: db)
            let (names, notes) = try screened(try stringList(symbols, nsymbols, "symbols"), store: store, timeframe: timeframe)
            let (from, to) = try Config.range(cfg)
            let first = (try? store.loadRange(symbol: names[0], timeframe: timeframe, from: from, to: to)) ?? CandleSeries(symbol: names[0])
            // Each symbol from a store connection of its own (SQLite handles are not shared across threads).
            return ScreenSource(symbols: names, notes: notes, window: { symbol in
                try CandleStore(existingAt: db).loadWindow(symbol: symbol, timeframe: timeframe, from: from, to: to)
            }, first: first)
        }
    }
}

@_cdecl("bt_screen_bars")
public func bt_screen_bars(_ series: UnsafePointer<bt_bars>?, _ nseries: Int, _ strategy: OpaquePointer?,
                           _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int, _ options: UnsafePointer<UnsafePointer<CChar>?>?,
                           _ noptions: Int, _ config: UnsafePointer<bt_config>?, _ directory: UnsafePointer<CChar>?,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        try screen(strategy, params, nparams, options, noptions, config, directory, out) { cfg, timeframe in
            guard timeframe == nil else { throw InputError("picks a stored series: the bars given are at their own timeframe", setting: .timeframe) }
            let given = try Bars.named(series, nseries, oneTimeframe: false)
            guard !given.isEmpty else { throw BridgeError.input("no series to screen") }
            let bySymbol = Dictionary(uniqueKeysWithValues: given.map { ($0.symbol, $0) })
            return ScreenSource(symbols: given.map(\.symbol), notes: [], window: { symbol in
                let candles = bySymbol[symbol]!
                return try Config.window(cfg, of: candles, inferredTick: { candles.inferredTick }).window
            }, first: given[0])
        }
    }
}

/// bt_screen and bt_screen_bars: the strategy screened over the bars `source` gives (from the
/// configuration and the `timeframe` option), as `bt screen` runs it.
private func screen(_ strategy: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                    _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ noptions: Int, _ config: UnsafePointer<bt_config>?,
                    _ directory: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
                    source: (bt_config, Timeframe?) throws -> ScreenSource) throws {
    guard let out else { throw BridgeError.argument("out is NULL") }
    out.pointee = nil
    let cfg = try Config.read(config)
    let options = try JobOptions(try stringList(options, noptions, "options"), known: screenOptions, "options")
    let strategy = try Handles.shared.get(strategy, as: StrategyHandle.self, "strategy").strategy
    let folder = try requiredString(directory, "directory")
    let bars = try source(cfg, try options["timeframe"].map(Timeframe.parse))
    let parameters = try strategy.parameters(try stringList(params, nparams, "params"))
    var screen = Screen(rankStat: try options["rank"].map(Stat.named(_:)) ?? .sharpe,
                        minTrades: try options.int("min_trades") ?? Screen.defaultMinTrades)
    // The Monte Carlo columns (mc_...), as bt screen --monte-carlo N --seed S --ruin PCT.
    screen.monteCarlo = try MonteCarlo.Settings(resamples: options["monte_carlo"], seed: options["seed"], ruin: options["ruin"])
    let top = try options.int("top") ?? 20
    guard top > 0 else { throw BridgeError.input("top '\(top)': must be positive") }
    // The execution options checked once, on the first symbol, before any symbol runs (as bt screen).
    let first = bars.first
    let sample = try Config.execution(cfg, candles: first, inferredTick: { first.inferredTick }, strategy: strategy,
                                      parameters: parameters).config
    var run = ScreenRun(strategy: strategy, parameters: parameters, screen: screen, periodsPerYear: try Config.periodsPerYear(cfg),
                        top: top, commandLine: [], execution: sample.parameters)
    run.seriesNotes = bars.notes
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
        throw InputError("cannot create (\(error.localizedDescription))", setting: .output, value: folder)
    }
    _ = try run.run(symbols: bars.symbols, directory: folder) { symbol in
        let window = try bars.window(symbol)
        return (window, try Config.execution(cfg, candles: window.candles, inferredTick: { window.candles.inferredTick },
                                             strategy: strategy, parameters: parameters).config)
    }
    out.pointee = Handles.shared.add(TextHandle(JSONValue.object([("notes", notesJSON(bars.notes))]).serialized()))
}

@_cdecl("bt_where")
public func bt_where(_ symbols: UnsafePointer<UnsafePointer<CChar>?>?, _ nsymbols: Int, _ condition: UnsafePointer<CChar>?,
                     _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int, _ options: UnsafePointer<UnsafePointer<CChar>?>?,
                     _ noptions: Int, _ config: UnsafePointer<bt_config>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let cfg = try Config.read(config)
        let list = try stringList(options, noptions, "options")
        // show repeats (one expression each); the others come once.
        let shows = list.filter { $0.hasPrefix("show=") }.map { String($0.dropFirst(5)) }
        let options = try JobOptions(list.filter { !$0.hasPrefix("show=") }, known: whereOptions, "options")
        guard let db = try optionalString(cfg.db, "config.db") else { throw InputError(.needsSetting, "a screen reads the store", setting: .store) }
        let store = try CandleStore(existingAt: db)
        let timeframe = try options["timeframe"].map(Timeframe.parse)
        let (symbols, notes) = try screened(try stringList(symbols, nsymbols, "symbols"), store: store, timeframe: timeframe)
        let parameters = try stringList(params, nparams, "params").map(ExpressionAssignment.parse)
        let expressions = try [LocatedExpression(try requiredString(condition, "condition"), origin: .setting(.where))]
            + shows.map { try LocatedExpression($0, origin: .setting(.show)) }
        let maxStale = options["max_stale"]
        let reader = try OtherSeriesReader.reading(expressions) { try OtherSeriesReader(StoredOtherSeries(path: db), maxStale: maxStale) }
        let screen = try ConditionScreen(condition: expressions[0], shows: Array(expressions.dropFirst()), parameters: parameters,
                                         reading: reader)
        var (from, to) = try Config.range(cfg)
        let at = try options["at"].map { try UTCTime.parseUserEnd($0, setting: .at) }
        if let at {
            guard to == nil else { throw BridgeError.input("give at or end, not both") }
            to = at
        }
        var run = ConditionScreenRun(screen: screen, parameters: parameters, timeframe: timeframe, from: from, to: to, at: at,
                                     commandLine: [])
        run.seriesNotes = notes
        let report = try run.report(rows: run.rows(symbols: symbols, databasePath: db))
        out.pointee = Handles.shared.add(TextHandle(JSONValue.object([("report", report.json), ("csv", .string(report.csv())),
                                                                       ("notes", notesJSON(notes))]).serialized()))
    }
}
