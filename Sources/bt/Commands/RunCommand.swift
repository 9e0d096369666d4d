import Backtest
import Strategies

extension Command {
    static let run = Command(
        path: ["run"],
        summary: "Backtest a strategy on a stored symbol: stats, costs, equity chart, report",
        discussion: """
            Signals at a bar's close fill at the next bar's open (--fill close: at that close).
            --param name=value sets a strategy parameter (see 'bt strategies').
            Prints every statistic (percentages; the periods per year used), the cost-sensitivity
            table (0x, 0.5x, 1x, 2x fees and depth impact, break-even fee) and the equity chart
            with its drawdown panel. --json prints one object instead: {"strategy", "symbol",
            "timeframe", "params", "execution", "bars", "first", "last", "candles_sha256",
            "bt_version", "stats", "costs"} with fractions, not percents; stats.json in a report
            is the same object.
            --out DIR writes the report into DIR; --report writes it into
            notebooks-out/<strategy>-<symbol>-<UTC time>/. An existing directory is refused
            (exit 2) unless --force.
            """,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: "Strategy name (see 'bt strategies')"),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (case-insensitive)"),
        ],
        options: [.param]
            + CommonOptions.range + ExecutionOptions.table + RunStatsOptions.all + [.json]
    ) { args in
        let strategy = try Strategy.named(try args.required(0))
        let parameters = try strategy.parameters(args.values(.param))
        let symbol = try args.symbol(at: 1)
        let store = try args.openStore()
        let candles = try args.loadCandles(symbol: symbol, store: store)
        let config = try args.executionConfig(symbol: symbol, candles: candles, store: store)
        let signals = try strategy.signals(candles, parameters)
        let result = try Engine.run(candles, signals: signals, config: config)
        try args.presentRun(strategy: strategy.name, parameters: parameters.runParameters, config: config, result: result) {
            try CostSensitivity.run(candles, signals: signals, config: config, periodsPerYear: $0)
        }
    }
}
