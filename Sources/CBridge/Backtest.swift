import Backtest
import Strategies
import CBTABI
import Foundation

/// A run (`bt_result`): the engine's result with what `bt run --json` needs to describe it (the
/// strategy, its parameters and rules, the configuration, the bars read and the signals for the
/// cost table). The statistics are computed on first use, under a lock.
final class RunHandle: @unchecked Sendable {
    let result: BacktestResult
    /// The bars read: the window traded (`bt_config`'s start and end) after its warm-up.
    let window: CandleWindow
    /// The signals on all of `window.series`.
    let signals: Signals
    let config: ExecutionConfig
    let periodsPerYear: Double?
    let strategy: String
    let parameters: [RunParameter]
    let rules: [RunParameter]
    let indicators: [IndicatorSpec]
    /// Where the rules read other series with `@`, listed in the JSON as `bt run` lists them.
    let otherSeries: OtherSeriesReader?
    private let lock = NSLock()
    private var computed: Stats?
    /// Statistics read one at a time, each computed with its group (`Stats.values(with:of:)`).
    private var read: [Stat: Double] = [:]
    /// The JSON texts made, by whether they hold the cost table and the intervals: a caller asks
    /// for the length, then for the text.
    private var texts: [JSONOptions: String] = [:]
    /// The statistics tables made (`table(intervals:)`), by whether they hold the intervals.
    private var tables: [Bool: String] = [:]
    /// report.html by whether it holds the cost table.
    private var pages: [Bool: String] = [:]
    /// Bars per year inferred from the run's times, once (`PeriodsPerYear.infer` reads every bar).
    private var inferredPeriods: Double?
    /// The Monte Carlo its report holds (`bt run --monte-carlo`), set by `setMonteCarlo`.
    private var monteCarlo: MonteCarlo.Settings?
    /// How many times the run's report was built (`report`, whose manifest hashes every bar):
    /// `table` and `stat` build none, as the bridge's tests check.
    private var reportsBuilt = 0

    /// What reading the run has computed so far: the reports built, and whether the Sharpe
    /// interval's bootstrap ran.
    var work: (reports: Int, bootstrap: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (reportsBuilt, computed != nil || read[.sharpeCILow] != nil)
    }

    /// The periods per year given, else inferred from the run's times (once): what each
    /// statistic, the table and the JSON use, the value they would infer themselves.
    func yearPeriods() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return periodsLocked()
    }

    /// `yearPeriods` for a caller holding the lock.
    private func periodsLocked() -> Double {
        if let periodsPerYear { return periodsPerYear }
        if let inferredPeriods { return inferredPeriods }
        let inferred = PeriodsPerYear.infer(from: result.candles.time)
        inferredPeriods = inferred
        return inferred
    }

    struct JSONOptions: Hashable {
        var costs: Bool
        var intervals: Bool
    }

    init(result: BacktestResult, window: CandleWindow, signals: Signals, config: ExecutionConfig, periodsPerYear: Double?,
         strategy: String, parameters: [RunParameter] = [], rules: [RunParameter] = [], indicators: [IndicatorSpec] = [],
         otherSeries: OtherSeriesReader? = nil) {
        self.result = result; self.window = window; self.signals = signals; self.config = config; self.periodsPerYear = periodsPerYear
        self.strategy = strategy; self.parameters = parameters; self.rules = rules; self.indicators = indicators
        self.otherSeries = otherSeries
    }

    /// One statistic: from a table already made, else computed with its group alone (the same
    /// bits; the periods per year inferred only for a group that needs them), the group kept
    /// for the next reads.
    func stat(_ stat: Stat) -> Double {
        lock.lock()
        defer { lock.unlock() }
        if let computed { return computed[stat] }
        if let value = read[stat] { return value }
        read.merge(Stats.values(with: stat, of: result, periods: { self.periodsLocked() })) { a, _ in a }
        return read[stat] ?? .nan
    }

    /// What a notebook's statistics table reads, as JSON: `{"strategy", "symbol", "warnings",
    /// "stats"}`, "warnings" and "stats" as `bt run --json` has them (without `intervals`, the
    /// Sharpe interval and PSR null and the bootstrap not run). Not the rest of the run's JSON:
    /// no manifest (whose hash of the bars costs more than most statistics), cost split or
    /// spread. Made once per `intervals`; its statistics are kept for `stat`.
    func table(intervals: Bool) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let made = tables[intervals] { return made }
        let stats = computed ?? Stats(result, periodsPerYear: periodsLocked(), intervals: intervals)
        if intervals {
            computed = stats
        } else {
            for (stat, value) in stats.all where !Stats.intervalStats.contains(stat) { read[stat] = value }
        }
        let shown = intervals ? stats : stats.withoutIntervals
        let text = JSONValue.object([("strategy", .string(strategy)), ("symbol", .string(result.candles.symbol)),
                                     ("warnings", .array(result.warnings.map(\.json))),
                                     ("stats", Report.statsJSON(shown, of: result))]).serialized()
        tables[intervals] = text
        return text
    }

    /// The object `bt run --json` prints for this run (`--no-costs` unless `withCosts`; without
    /// `intervals`, the Sharpe interval and PSR are null and the bootstrap is not run).
    func json(withCosts: Bool, intervals: Bool = true) throws -> String {
        let options = JSONOptions(costs: withCosts, intervals: intervals)
        lock.lock()
        let made = texts[options]
        lock.unlock()
        if let made { return made }
        let report = try report(withCosts: withCosts, intervals: intervals)
        let text = report.json.serialized()
        lock.lock()
        texts[options] = text
        if intervals && computed == nil { computed = report.stats }
        lock.unlock()
        return text
    }

    /// Adds to the run's JSON, report folder and page the Monte Carlo of `settings` (nil: none),
    /// as `bt run --monte-carlo N --seed S --ruin PCT` does; the texts made before are dropped.
    func setMonteCarlo(_ settings: MonteCarlo.Settings?) {
        lock.lock()
        defer { lock.unlock() }
        guard settings != monteCarlo else { return }
        monteCarlo = settings
        texts = [:]
        pages = [:]
    }

    /// The page `make` gives, made once per `withCosts` under the lock's bookkeeping.
    func page(withCosts: Bool, _ make: () throws -> String) throws -> String {
        lock.lock()
        let made = pages[withCosts]
        lock.unlock()
        if let made { return made }
        let text = try make()
        lock.lock()
        pages[withCosts] = text
        lock.unlock()
        return text
    }

    /// The run's report as `bt run` makes it (the statistics, the cost table when `withCosts`,
    /// the Sharpe interval and PSR when `intervals`): its JSON, its files, its page.
    func report(withCosts: Bool, intervals: Bool = true) throws -> Report {
        lock.lock()
        reportsBuilt += 1
        let monteCarlo = monteCarlo
        lock.unlock()
        var job = RunJob(strategy: strategy, parameters: parameters, rules: rules, indicators: indicators, config: config,
                         commandLine: [])
        job.otherSeries = otherSeries
        job.monteCarlo = monteCarlo
        // As bt run --from: the bars before the window are the report's history.
        job.history = window.start > 0 ? window.series : nil
        let window = window, signals = signals, config = config
        return try job.report(result, periodsPerYear: yearPeriods(), intervals: intervals, costs: { ppy in
            withCosts ? try CostSensitivity.run(window, signals: signals, config: config, periodsPerYear: ppy) : nil
        }, requested: { nil })
    }
}

/// A strategy (`bt_strategy`): read-only once made. One made by `bt_strategy_reading` reads
/// its rules' `@` series from `other` (and the run's own bars).
final class StrategyHandle: Sendable {
    let strategy: Strategy
    let reading: Bool
    let other: OtherHandle?

    init(_ strategy: Strategy, reading: Bool = false, other: OtherHandle? = nil) {
        self.strategy = strategy
        self.reading = reading
        self.other = other
    }

    /// The strategy for a run on `candles`: reading `@` through a reader of its own when it does.
    func strategy(on candles: CandleSeries) -> Strategy {
        guard reading, strategy.readsOtherSeries else { return strategy }
        return strategy.reading(OtherHandle.reader(other, for: candles))
    }
}

/// C strings that live as long as the library: statistic and exit-kind names.
enum StaticNames {
    nonisolated(unsafe) static let stats: [UnsafeMutablePointer<CChar>] = Stat.allCases.map { strdup($0.rawValue)! }
    nonisolated(unsafe) static let exitKinds: [UnsafeMutablePointer<CChar>] = ExitKind.allCases.map { strdup($0.rawValue)! }
    nonisolated(unsafe) static let version: UnsafeMutablePointer<CChar> = strdup(btVersion)!
}

// MARK: - Strategies

@_cdecl("bt_strategy_named")
public func bt_strategy_named(_ name: UnsafePointer<CChar>?, _ directory: UnsafePointer<CChar>?,
                              _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let library = StrategyLibrary(directory: try optionalString(directory, "directory") ?? "strategies")
        let strategy = try library.strategy(named: try requiredString(name, "name"))
        out.pointee = Handles.shared.add(StrategyHandle(strategy))
    }
}

@_cdecl("bt_strategy_rules")
public func bt_strategy_rules(_ entry: UnsafePointer<CChar>?, _ exit: UnsafePointer<CChar>?, _ shortEntry: UnsafePointer<CChar>?,
                              _ shortExit: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                              _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        var texts: [SignalRules.Role: String] = [:]
        texts[.entry] = try optionalString(entry, "entry")
        texts[.exit] = try optionalString(exit, "exit")
        texts[.shortEntry] = try optionalString(shortEntry, "short_entry")
        texts[.shortExit] = try optionalString(shortExit, "short_exit")
        let strategy = try Strategy.expressions(texts, parameters: try stringList(params, nparams, "params"))
        out.pointee = Handles.shared.add(StrategyHandle(strategy))
    }
}

@_cdecl("bt_strategy_signals")
public func bt_strategy_signals(_ handle: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                                _ bars: UnsafePointer<bt_bars>?, _ entries: UnsafeMutablePointer<UInt8>?,
                                _ exits: UnsafeMutablePointer<UInt8>?, _ shortEntries: UnsafeMutablePointer<UInt8>?,
                                _ shortExits: UnsafeMutablePointer<UInt8>?, _ hasShort: UnsafeMutablePointer<Int32>?) -> Int32 {
    guarded {
        let (signals, n) = try strategySignals(handle, params, nparams, bars) { n in
            guard n == 0 || (entries != nil && exits != nil) else { throw BridgeError.argument("entries or exits is NULL") }
        }
        hasShort?.pointee = signals.shortEntries != nil ? 1 : 0
        func copy(_ flags: [Bool]?, _ out: UnsafeMutablePointer<UInt8>?) {
            guard let out else { return }
            for i in 0..<n { out[i] = flags?[i] == true ? 1 : 0 }
        }
        copy(signals.entries, entries)
        copy(signals.exits, exits)
        copy(signals.shortEntries, shortEntries)
        copy(signals.shortExits, shortExits)
    }
}

@_cdecl("bt_strategy_signal_warnings")
public func bt_strategy_signal_warnings(_ handle: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                                       _ bars: UnsafePointer<bt_bars>?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                                       _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        let signals = try strategySignals(handle, params, nparams, bars) { _ in }.signals
        let warnings = JSONValue.array(signals.unaligned.compactMap(\.warning).map {
            ["kind": .string($0.kind.rawValue), "message": .string($0.message)]
        })
        try copyText(warnings.serialized(), into: buffer, capacity: capacity, length: length, "bt_strategy_signal_warnings")
    }
}

/// The signals of the strategy `handle` on `bars` with the `name=value` assignments in
/// `params`, as `bt signals` computes them, and the bars' count (given to `check` first).
/// - Throws: for a rule that reads the open position (it has no signals outside a run).
private func strategySignals(_ handle: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                             _ bars: UnsafePointer<bt_bars>?, check: (Int) throws -> Void) throws -> (signals: Signals, count: Int) {
    let candles = try Bars.candles(bars, for: .expression)
    let strategy = try Handles.shared.get(handle, as: StrategyHandle.self, "strategy").strategy(on: candles)
    try check(candles.count)
    let parameters = try strategy.parameters(try stringList(params, nparams, "params"))
    let signals = try strategy.signals(candles, parameters)
    if let rules = signals.positionRules {
        let roles = SignalRules.Role.allCases.filter { rules[$0] != nil }.map(\.rawValue)
        throw BridgeError.input("the \(roles.joined(separator: " and ")) rule\(roles.count == 1 ? " reads" : "s read") the open position "
                                + "(position series such as trade_return): such rules have values only inside a run, so there are "
                                + "no signals to give; backtest the strategy (bt_backtest_strategy) and read its trades")
    }
    return (signals, candles.count)
}

@_cdecl("bt_strategy_reading")
public func bt_strategy_reading(_ handle: OpaquePointer?, _ other: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let strategy = try Handles.shared.get(handle, as: StrategyHandle.self, "strategy").strategy
        out.pointee = Handles.shared.add(StrategyHandle(strategy, reading: true, other: try otherSeries(other)))
    }
}

@_cdecl("bt_strategy_reads_other")
public func bt_strategy_reads_other(_ handle: OpaquePointer?) -> Int32 {
    var result: Int32 = -1
    _ = guarded { result = try Handles.shared.get(handle, as: StrategyHandle.self, "strategy").strategy.readsOtherSeries ? 1 : 0 }
    return result
}

@_cdecl("bt_strategy_free")
public func bt_strategy_free(_ handle: OpaquePointer?) {
    freeHandle(handle, as: StrategyHandle.self, "bt_strategy_free")
}

// MARK: - Backtests

@_cdecl("bt_backtest")
public func bt_backtest(_ bars: UnsafePointer<bt_bars>?, _ signals: UnsafePointer<bt_signals>?, _ config: UnsafePointer<bt_config>?,
                        _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        out?.pointee = nil
        let candles = try Bars.candles(bars, for: .backtest)
        try backtest(candles, inferredTick: { candles.inferredTick }, signals, config, out)
    }
}

@_cdecl("bt_backtest_series")
public func bt_backtest_series(_ handle: OpaquePointer?, _ signals: UnsafePointer<bt_signals>?, _ config: UnsafePointer<bt_config>?,
                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        out?.pointee = nil
        let s = try series(handle)
        try backtest(s.candles, inferredTick: { s.inferredTick }, signals, config, out)
    }
}

@_cdecl("bt_backtest_strategy")
public func bt_backtest_strategy(_ bars: UnsafePointer<bt_bars>?, _ handle: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
                                 _ nparams: Int, _ config: UnsafePointer<bt_config>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        out?.pointee = nil
        let candles = try Bars.candles(bars, for: .backtest)
        try backtest(candles, inferredTick: { candles.inferredTick }, strategy: handle, params, nparams, config, out)
    }
}

@_cdecl("bt_backtest_strategy_series")
public func bt_backtest_strategy_series(_ series: OpaquePointer?, _ handle: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
                                        _ nparams: Int, _ config: UnsafePointer<bt_config>?,
                                        _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        out?.pointee = nil
        let s = try CBridge.series(series)
        try backtest(s.candles, inferredTick: { s.inferredTick }, strategy: handle, params, nparams, config, out)
    }
}

/// `bt_backtest` on candles already copied and checked (the caller has set `*out` to NULL).
private func backtest(_ candles: CandleSeries, inferredTick: @escaping () -> Double?, _ signals: UnsafePointer<bt_signals>?,
                      _ config: UnsafePointer<bt_config>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) throws {
    guard let out else { throw BridgeError.argument("out is NULL") }
    guard let s = signals?.pointee else { throw BridgeError.argument("signals is NULL") }
    let n = candles.count
    let shortEntries = try Bars.flags(s.short_entries, n, "signals.short_entries", optional: true)
    let shortExits = try Bars.flags(s.short_exits, n, "signals.short_exits", optional: true)
    guard (shortEntries == nil) == (shortExits == nil) else {
        throw BridgeError.argument("signals: short_entries and short_exits come as a pair (one is NULL)")
    }
    let given = Signals(entries: try Bars.flags(s.entries, n, "signals.entries")!, exits: try Bars.flags(s.exits, n, "signals.exits")!,
                        shortEntries: shortEntries, shortExits: shortExits)
    let cfg = try Config.read(config)
    let traded = try Config.window(cfg, of: candles, inferredTick: inferredTick)
    let window = traded.window
    // Signals for every bar given; the window reads those through its last bar.
    let vectors = window.series.count < n ? given.slice(0..<window.series.count) : given
    let plan = try Config.execution(cfg, candles: window.candles, inferredTick: traded.inferredTick)
    let execution = plan.config
    let result = try Engine.run(Engine.Request(window, signals: vectors, config: execution)).adding(plan.warnings)
    out.pointee = Handles.shared.add(RunHandle(result: result, window: window, signals: vectors, config: execution,
                                               periodsPerYear: try Config.periodsPerYear(cfg), strategy: "signals"))
}

/// `bt_backtest_strategy` on candles already copied and checked (the caller has set `*out` to
/// NULL).
private func backtest(_ candles: CandleSeries, inferredTick: @escaping () -> Double?, strategy handle: OpaquePointer?,
                      _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int, _ config: UnsafePointer<bt_config>?,
                      _ out: UnsafeMutablePointer<OpaquePointer?>?) throws {
    guard let out else { throw BridgeError.argument("out is NULL") }
    let cfg = try Config.read(config)
    let traded = try Config.window(cfg, of: candles, inferredTick: inferredTick)
    let window = traded.window
    let strategy = try Handles.shared.get(handle, as: StrategyHandle.self, "strategy").strategy(on: window.series)
    // As bt run: short rules trade only with shorts allowed.
    try strategy.requireShorts(allowed: cfg.allow_short != 0)
    let parameters = try strategy.parameters(try stringList(params, nparams, "params"))
    let plan = try Config.execution(cfg, candles: window.candles, inferredTick: traded.inferredTick, strategy: strategy,
                                    parameters: parameters)
    let execution = plan.config
    let signals = try strategy.signals(window.series, parameters)
    let result = try Engine.run(Engine.Request(window, signals: signals, config: execution)).adding(plan.warnings)
    out.pointee = Handles.shared.add(RunHandle(
        result: result, window: window, signals: signals, config: execution, periodsPerYear: try Config.periodsPerYear(cfg), strategy: strategy.name,
        parameters: parameters.runParameters, rules: strategy.ruleParameters, indicators: strategy.indicators(parameters),
        otherSeries: strategy.otherSeries))
}

// MARK: - Results

func run(_ handle: OpaquePointer?) throws -> RunHandle {
    try Handles.shared.get(handle, as: RunHandle.self, "result")
}

@_cdecl("bt_result_bars")
public func bt_result_bars(_ handle: OpaquePointer?) -> Int {
    var n = 0
    _ = guarded { n = try run(handle).result.equity.count }
    return n
}

@_cdecl("bt_result_equity")
public func bt_result_equity(_ handle: OpaquePointer?, _ equity: UnsafeMutablePointer<Double>?, _ cash: UnsafeMutablePointer<Double>?,
                             _ position: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let r = try run(handle).result
        for (values, out) in [(r.equity, equity), (r.cash, cash), (r.position, position)] {
            guard let out, !values.isEmpty else { continue }
            values.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: values.count) }
        }
    }
}

@_cdecl("bt_result_window")
public func bt_result_window(_ handle: OpaquePointer?, _ start: UnsafeMutablePointer<Int>?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        let window = try run(handle).window
        try store(window.start, into: start, "start")
        try store(window.candles.count, into: count, "count")
    }
}

@_cdecl("bt_exit_kind_name")
public func bt_exit_kind_name(_ kind: Int32) -> UnsafePointer<CChar>? {
    guard kind >= 0, Int(kind) < StaticNames.exitKinds.count else { return nil }
    return UnsafePointer(StaticNames.exitKinds[Int(kind)])
}

@_cdecl("bt_result_trade_count")
public func bt_result_trade_count(_ handle: OpaquePointer?) -> Int {
    var n = 0
    _ = guarded { n = try run(handle).result.trades.count }
    return n
}

@_cdecl("bt_result_trades")
public func bt_result_trades(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<bt_trade>?, _ capacity: Int) -> Int32 {
    guarded {
        try copyOut(try run(handle).result.trades, into: out, capacity: capacity, "bt_result_trades", "trades") { t in
            var c = bt_trade()
            c.side = t.side == .long ? 1 : -1
            c.exit_kind = Int32(ExitKind.allCases.firstIndex(of: t.exitKind)!)
            c.entry_index = Int64(t.entryIndex)
            c.exit_index = Int64(t.exitIndex)
            c.entry_time = t.entryTime
            c.exit_time = t.exitTime
            c.quantity = t.quantity
            c.entry_price = t.entryPrice
            c.exit_price = t.exitPrice
            c.slippage_bps = t.slippageBps
            c.fees = t.fees
            c.pnl = t.pnl
            c.return_fraction = t.returnFraction
            c.is_open = t.isOpen ? 1 : 0
            return c
        }
    }
}

@_cdecl("bt_result_fill_count")
public func bt_result_fill_count(_ handle: OpaquePointer?) -> Int {
    var n = 0
    _ = guarded { n = try run(handle).result.fills.count }
    return n
}

@_cdecl("bt_result_fills")
public func bt_result_fills(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<bt_fill>?, _ capacity: Int) -> Int32 {
    guarded {
        try copyOut(try run(handle).result.fills, into: out, capacity: capacity, "bt_result_fills", "fills") { f in
            var c = bt_fill()
            c.index = Int64(f.index)
            c.time = f.time
            c.side = f.side == .buy ? 1 : -1
            c.is_partial = f.isPartial ? 1 : 0
            c.reference_price = f.referencePrice
            c.vwap = f.vwap
            c.slippage_bps = f.slippageBps
            c.quantity_asked = f.quantityAsked
            c.quantity_filled = f.quantityFilled
            c.fee = f.fee
            c.spread_cost = f.spreadCost
            c.impact_cost = f.impactCost
            c.depth_available = f.depthAvailable
            return c
        }
    }
}

/// Writes `records`, each as `convert` makes it, into the caller's array of `capacity`
/// elements (`out` may be NULL when there is nothing to write).
/// - Throws: `BridgeError.length` when `capacity` is too small, `.argument` for a NULL `out`.
@_cdecl("bt_result_trade_charges")
public func bt_result_trade_charges(_ handle: OpaquePointer?, _ borrow: UnsafeMutablePointer<Double>?,
                                    _ interest: UnsafeMutablePointer<Double>?, _ funding: UnsafeMutablePointer<Double>?,
                                    _ capacity: Int) -> Int32 {
    guarded {
        let trades = try run(handle).result.trades
        guard capacity >= trades.count else {
            throw BridgeError.length("bt_result_trade_charges: capacity \(capacity) is below the \(trades.count) trades")
        }
        for (out, charge) in [(borrow, \Trade.borrow), (interest, \.interest), (funding, \.funding)] {
            guard let out else { continue }
            for (i, trade) in trades.enumerated() { out[i] = trade[keyPath: charge] }
        }
    }
}

private func copyOut<Record, C>(_ records: [Record], into out: UnsafeMutablePointer<C>?, capacity: Int,
                                _ function: String, _ what: String, _ convert: (Record) -> C) throws {
    guard capacity >= records.count else {
        throw BridgeError.length("\(function): capacity \(capacity) is below the \(records.count) \(what)")
    }
    if records.isEmpty { return }
    guard let out else { throw BridgeError.argument("out is NULL") }
    for (i, record) in records.enumerated() { out[i] = convert(record) }
}

@_cdecl("bt_result_stat")
public func bt_result_stat(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let r = try run(handle)
        let text = try requiredString(name, "name")
        guard let value else { throw BridgeError.argument("value is NULL") }
        guard let stat = Stat(rawValue: text) else {
            let names = Stat.allCases.map(\.rawValue)
            let hint = Suggest.closest(to: text, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw BridgeError.input("unknown statistic '\(text)'\(hint) (bt_stat_name lists the \(names.count) names)")
        }
        value.pointee = r.stat(stat)
    }
}

@_cdecl("bt_stat_count")
public func bt_stat_count() -> Int { StaticNames.stats.count }

@_cdecl("bt_stat_name")
public func bt_stat_name(_ i: Int) -> UnsafePointer<CChar>? {
    guard i >= 0, i < StaticNames.stats.count else { return nil }
    return UnsafePointer(StaticNames.stats[i])
}

@_cdecl("bt_result_json")
public func bt_result_json(_ handle: OpaquePointer?, _ withCosts: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                           _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        try copyText(try run(handle).json(withCosts: withCosts != 0), into: buffer, capacity: capacity, length: length, "bt_result_json")
    }
}

@_cdecl("bt_result_json_with")
public func bt_result_json_with(_ handle: OpaquePointer?, _ withCosts: Int32, _ withIntervals: Int32, _ buffer: UnsafeMutablePointer<CChar>?,
                                _ capacity: Int, _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        try copyText(try run(handle).json(withCosts: withCosts != 0, intervals: withIntervals != 0), into: buffer, capacity: capacity,
                     length: length, "bt_result_json_with")
    }
}

@_cdecl("bt_result_stats_json")
public func bt_result_stats_json(_ handle: OpaquePointer?, _ withIntervals: Int32, _ buffer: UnsafeMutablePointer<CChar>?,
                                 _ capacity: Int, _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        try copyText(try run(handle).table(intervals: withIntervals != 0), into: buffer, capacity: capacity, length: length,
                     "bt_result_stats_json")
    }
}

@_cdecl("bt_result_set_monte_carlo")
public func bt_result_set_monte_carlo(_ handle: OpaquePointer?, _ resamples: UnsafePointer<CChar>?, _ seed: UnsafePointer<CChar>?,
                                      _ ruin: UnsafePointer<CChar>?) -> Int32 {
    guarded {
        let r = try run(handle)
        r.setMonteCarlo(try MonteCarlo.Settings(resamples: try optionalString(resamples, "resamples"), seed: try optionalString(seed, "seed"),
                                                ruin: try optionalString(ruin, "ruin")))
    }
}

/// Gives `text` as bt.h's functions give text: its length (without the NUL) into `length` (may
/// be NULL); with `buffer` NULL and `capacity` 0 nothing more, else the text and its NUL.
/// - Throws: `.length` for a buffer too small (nothing written), `.argument` for a NULL buffer.
func copyText(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int, length: UnsafeMutablePointer<Int>?,
                      _ function: String) throws {
    let bytes = Array(text.utf8)
    length?.pointee = bytes.count
    if buffer == nil && capacity == 0 { return }
    guard capacity > bytes.count else {
        throw BridgeError.length("\(function): the text needs \(bytes.count + 1) bytes with its NUL, the buffer has \(capacity)")
    }
    guard let buffer else { throw BridgeError.argument("buffer is NULL") }
    bytes.withUnsafeBufferPointer { b in
        UnsafeMutableRawPointer(buffer).copyMemory(from: b.baseAddress!, byteCount: b.count)
    }
    buffer[bytes.count] = 0
}

@_cdecl("bt_result_free")
public func bt_result_free(_ handle: OpaquePointer?) {
    freeHandle(handle, as: RunHandle.self, "bt_result_free")
}

// MARK: - Errors and versions

@_cdecl("bt_last_error")
public func bt_last_error() -> UnsafePointer<CChar> {
    UnsafePointer(LastError.slot.text)
}

@_cdecl("bt_last_status")
public func bt_last_status() -> Int32 {
    LastError.slot.status.rawValue
}

@_cdecl("bt_version")
public func bt_version() -> UnsafePointer<CChar> {
    UnsafePointer(StaticNames.version)
}

@_cdecl("bt_abi_version")
public func bt_abi_version() -> Int32 { 1 }
