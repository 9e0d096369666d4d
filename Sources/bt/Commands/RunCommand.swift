import Backtest
import Foundation
import Strategies

extension Command {
    static let run = Command(
        path: ["run"],
        summary: "Backtest a strategy on a stored symbol: stats, costs, equity chart, report",
        discussion: """
            Signals at a bar's close fill at the next bar's open (--fill close: at that close).
            STRATEGY is a built-in name, a strategy file's path, or the name of a file in the
            strategies directory (--strategies DIR, else $BT_STRATEGIES, else strategies/).
            Without STRATEGY, rules are the strategy: bt run SYMBOL --entry EXPR --exit EXPR
            (--short-entry/--short-exit with --short), or --signals FILE.csv reads
            time,entry,exit[,short_entry,short_exit] (0/1 or true/false) made by another tool.
            --param name=value sets a strategy parameter (see 'bt strategies'), or defines $name
            for --entry/--exit.
            Fills go through --depth synthetic by default: a model book from the bars before each
            fill (Corwin-Schultz spread, square-root impact beyond a touch), or the profile 'bt
            calibrate' stored for the symbol (--depth-profile FILE names another); --depth book
            replays a recorded L2 book, --slippage-bps N charges a fixed slippage, --depth none
            fills at the reference price.
            Prints first that most orders were rejected, when more than half were, then warnings
            (no volume, heavy partial fills or rejections, a crossed recorded book), the
            headline, gross and net PnL with fees, spread and impact, every statistic
            (percentages; the periods per year used), the cost-sensitivity table (0x, 0.5x, 1x,
            2x fees and depth impact, break-even fee) and the equity chart with its drawdown
            panel. --json prints one object instead: {"strategy", "symbol",
            "timeframe", "params", "execution", "bars", "first", "last", "candles_sha256",
            "bt_version", "warnings", "stats", "cost_split", "costs"} with fractions, not
            percents, and "mostly_rejected" {"rejected", "orders", "message"} after "warnings"
            when more than half of the orders were rejected; stats.json in a report is the same
            object.
            --out DIR writes the report into DIR; --report writes it into
            notebooks-out/<strategy>-<symbol>-<UTC time>/. An existing directory is refused
            (exit 2) unless --force.
            """,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (case-insensitive)"),
        ],
        options: [.param] + StrategyOptions.all + [.signals]
            + CommonOptions.range + ExecutionOptions.table + RunStatsOptions.all + [.json]
    ) { args in
        let store: CandleStore
        let candles: CandleSeries
        let strategy: Strategy
        if let path = args.value(.signals) {
            guard args.ruleOptions.isEmpty else {
                throw UsageError("\(Option.signals) is the strategy: leave out \(Option.entry)/\(Option.exit)", command: "run")
            }
            guard args.positionals.count == 1 else {
                throw UsageError("with \(Option.signals), give only SYMBOL", command: "run")
            }
            store = try args.openStore()
            candles = try args.loadCandles(symbol: try args.symbol(at: 0), store: store)
            guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read the signals file", at: path) }
            let signals = try SignalsFile.parse(String(decoding: data, as: UTF8.self), path: path, times: candles.time)
            strategy = Strategy.fixed(signals, name: "signals", source: path)
        } else {
            let chosen = try args.strategy()
            guard chosen.rest.count == 1 else {
                throw UsageError(args.ruleOptions.isEmpty ? "give STRATEGY and SYMBOL"
                                 : "with \(Option.entry)/\(Option.exit), give only SYMBOL (the rules are the strategy)", command: "run")
            }
            strategy = chosen.strategy
            store = try args.openStore()
            candles = try args.loadCandles(symbol: chosen.rest[0], store: store)
        }
        let parameters = try strategy.parameters(args.values(.param))
        let config = try args.executionConfig(symbol: candles.symbol, candles: candles, store: store, strategy: strategy,
                                              parameters: parameters)
        let signals = try strategy.signals(candles, parameters)
        let result = try Engine.run(candles, signals: signals, config: config)
        try args.presentRun(strategy: strategy.name, parameters: parameters.runParameters, rules: strategy.ruleParameters,
                            indicators: strategy.indicators(parameters), config: config, result: result) {
            try CostSensitivity.run(candles, signals: signals, config: config, periodsPerYear: $0)
        }
    }
}
