import Backtest
import Strategies

extension Command {
    static let signals = Command(
        path: ["signals"],
        summary: "Print a strategy's signals as CSV (time,entry,exit), to check them in pandas",
        discussion: """
            bt signals SYMBOL --entry EXPR --exit EXPR [--short-entry EXPR --short-exit EXPR]
            [--param name=value], or bt signals STRATEGY SYMBOL for a built-in or file strategy.
            Prints time,entry,exit (plus short_entry,short_exit when given) with ISO-8601 UTC
            times and 0/1, one row per bar: the signal at a bar's close, as 'bt run' trades it.
            'bt run SYMBOL --signals FILE.csv' reads this format back.
            """,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (case-insensitive)"),
        ],
        options: [.param] + StrategyOptions.all + CommonOptions.range
    ) { args in
        let (strategy, rest) = try args.strategy()
        guard rest.count == 1 else {
            throw UsageError(args.ruleOptions.isEmpty ? "give STRATEGY and SYMBOL"
                             : "with \(Option.entry)/\(Option.exit), give only SYMBOL", command: "signals")
        }
        let parameters = try strategy.parameters(args.values(.param))
        let candles = try args.loadCandles(symbol: rest[0])
        let signals = try strategy.signals(candles, parameters)
        Output.write(SignalsFile.csv(times: candles.time, signals: signals))
    }
}
