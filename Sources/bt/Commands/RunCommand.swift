import Backtest
import Strategies

extension Command {
    static let run = Command(
        path: ["run"],
        summary: "Backtest a strategy on a stored symbol with fills through order-book depth",
        discussion: """
            Signals at a bar's close fill at the next bar's open (--fill close: at that close).
            --param name=value sets a strategy parameter (see 'bt strategies').
            --json prints {"strategy", "symbol", "timeframe", "params", "execution", "stats"}
            with fractions (returns, drawdown, slippage), not percents.
            """,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: "Strategy name (see 'bt strategies')"),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol"),
        ],
        options: [.repeated("param", "NAME=VALUE", "Strategy parameter; repeat for several")]
            + CommonOptions.range + ExecutionOptions.table + [CommonOptions.json]
    ) { args in
        let strategy = try Strategy.named(try args.required(0))
        let parameters = try strategy.parameters(args.values("param"))
        let symbol = try args.required(1)
        let store = try args.openStore()
        let candles = try args.loadCandles(symbol: symbol, store: store)
        let config = try args.executionConfig(symbol: symbol, store: store)
        let result = try Engine.run(candles, signals: try strategy.signals(candles, parameters), config: config)
        let requested = try args.timeframe
        let run = RunReport(strategy: strategy.name, symbol: symbol,
                            timeframe: candles.timeframe?.rawValue ?? requested?.rawValue,
                            parameters: parameters, config: config, result: result)
        Output.write(args.flag("json") ? run.json() : run.text())
    }
}
