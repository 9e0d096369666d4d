import Backtest
import Foundation
import Strategies

extension Command {
    static let run = Command(
        path: ["run"],
        help: EmbeddedAssets.runTXT,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (case-insensitive)"),
        ],
        options: [.param] + StrategyOptions.all + [.signals, .maxStale]
            + CommonOptions.window + ExecutionOptions.table + RunStatsOptions.all + [.json]
    ) { args in
        let store: CandleStore
        let window: CandleWindow
        let strategy: Strategy
        if let path = args.value(.signals) {
            guard args.ruleOptions.isEmpty else {
                throw UsageError("\(Option.signals) is the strategy: leave out \(Option.entry)/\(Option.exit)", command: "run")
            }
            guard args.positionals.count == 1 else {
                throw UsageError("with \(Option.signals), give only SYMBOL", command: "run")
            }
            store = try args.openStore()
            window = try args.loadWindow(symbol: try args.symbol(at: 0), store: store)
            strategy = Strategy.fixed(try SignalsFile.read(path: path, times: window.series.time), name: "signals", source: path)
        } else {
            let chosen = try args.strategy()
            guard chosen.rest.count == 1 else {
                throw UsageError(args.ruleOptions.isEmpty ? "give STRATEGY and SYMBOL"
                                 : "with \(Option.entry)/\(Option.exit), give only SYMBOL (the rules are the strategy)", command: "run")
            }
            strategy = chosen.strategy
            store = try args.openStore()
            window = try args.loadWindow(symbol: chosen.rest[0], store: store)
        }
        let parameters = try strategy.parameters(args.values(.param))
        let config = try args.executionConfig(symbol: window.candles.symbol, candles: window.candles, store: store, strategy: strategy,
                                              parameters: parameters)
        let signals = try strategy.signals(window.series, parameters)
        // The run and its cost table share the series' spread pairs and indicators.
        let cache = IndicatorCache()
        let result = try Engine.run(Engine.Request(window, signals: signals, config: config, cache: cache))
        try args.presentRun(strategy: strategy.name, parameters: parameters.runParameters, rules: strategy.ruleParameters,
                            indicators: strategy.indicators(parameters), config: config, result: result, warmUp: window, other: strategy.otherSeries) {
            try CostSensitivity.run(window, signals: signals, config: config, periodsPerYear: $0, cache: cache)
        }
    }
}
