import Backtest
import CBTABI
import Foundation

/// `bt_portfolio`'s options, named as btcore's keywords (`bt portfolio`'s options with
/// underscores).
private let portfolioOptions = ["max_positions", "rank", "weight", "rebalance", "rotate", "neutral", "timeframe", "max_stale"]

@_cdecl("bt_portfolio")
public func bt_portfolio(_ series: UnsafePointer<bt_bars>?, _ nseries: Int, _ symbols: UnsafePointer<UnsafePointer<CChar>?>?,
                         _ nsymbols: Int, _ strategy: OpaquePointer?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                         _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ noptions: Int, _ config: UnsafePointer<bt_config>?,
                         _ withCosts: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let cfg = try Config.read(config)
        let options = try JobOptions(try stringList(options, noptions, "options"), known: portfolioOptions, "options")
        let rotate = try options.flag("rotate")
        let chosen = try strategy.map { try Handles.shared.get($0, as: StrategyHandle.self, "strategy") }
        switch (chosen, rotate) {
        case (nil, false): throw BridgeError.input("strategy is NULL: give a strategy, or rotate=1 with a rank")
        case (.some, true): throw BridgeError.input("rotate holds the top K symbols by rank, whatever the signals: leave out the strategy")
        default: break
        }
        let db = try optionalString(cfg.db, "config.db")
        let names = try stringList(symbols, nsymbols, "symbols")
        guard (nseries > 0) != !names.isEmpty else {
            throw BridgeError.input("give the portfolio's series as bars or as symbols of the store db, one or the other")
        }
        let maxStale = options["max_stale"]
        let job = try PortfolioJob(
            strategy: chosen?.strategy, assignments: try stringList(params, nparams, "params"), rank: options["rank"],
            rules: { _ in try PortfolioRules(maxPositions: try options.int("max_positions"),
                                             weight: options["weight"], rebalance: options["rebalance"], rotate: rotate,
                                             neutral: try options.flag("neutral")) },
            other: { reading, shared in
                try OtherSeriesReader.reading(reading, shared: shared) {
                    guard let db else { throw InputError(.needsSetting, "the rank reads other series with @ from a store", setting: .store) }
                    return try OtherSeriesReader(StoredOtherSeries(path: db), maxStale: maxStale)
                }
            })
        let timeframe = try options["timeframe"].map(Timeframe.parse)
        let (universe, execution): (PortfolioUniverse, ExecutionConfig)
        if nseries > 0 {
            guard timeframe == nil else { throw InputError("picks a stored series: the bars given are at their own timeframe", setting: .timeframe) }
            let given = try Bars.named(series, nseries, oneTimeframe: true)
            let bySymbol = Dictionary(given.map { ($0.symbol, $0) }, uniquingKeysWith: { first, _ in first })
            (universe, execution) = try PortfolioJob.universe(given.map(\.symbol), windows: { symbol in
                try Config.window(cfg, of: bySymbol[symbol]!, inferredTick: { bySymbol[symbol]!.inferredTick }).window
            }) { _, window in
                try Config.execution(cfg, candles: window.candles, inferredTick: { window.candles.inferredTick }, strategy: job.strategy,
                                     parameters: job.parameters).config
            }
        } else {
            guard let db else { throw InputError(.needsSetting, "symbols are read from a store", setting: .store) }
            let store = try CandleStore(existingAt: db)
            let (from, to) = try Config.range(cfg)
            (universe, execution) = try PortfolioJob.universe(try names.map(SeriesName.normalized), windows: { symbol in
                try store.loadWindow(symbol: symbol, timeframe: timeframe, from: from, to: to)
            }) { _, window in
                try Config.execution(cfg, candles: window.candles, inferredTick: { window.candles.inferredTick }, strategy: job.strategy,
                                     parameters: job.parameters).config
            }
        }
        let report = try job.report(universe, config: execution, periodsPerYear: try Config.periodsPerYear(cfg), costs: withCosts != 0,
                                    timeframe: { timeframe })
        out.pointee = Handles.shared.add(TextHandle(report.json.serialized()))
    }
}
