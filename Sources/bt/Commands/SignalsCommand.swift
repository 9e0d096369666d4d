import Backtest
import Strategies

extension Command {
    static let signals = Command(
        path: ["signals"],
        help: EmbeddedAssets.signalsTXT,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (case-insensitive)"),
        ],
        options: [.param, .maxStale] + StrategyOptions.all + CommonOptions.window
    ) { args in
        let (strategy, rest) = try args.strategy()
        guard rest.count == 1 else {
            throw UsageError(args.ruleOptions.isEmpty ? "give STRATEGY and SYMBOL"
                             : "with \(Option.entry)/\(Option.exit), give only SYMBOL", command: "signals")
        }
        let parameters = try strategy.parameters(args.values(.param))
        let window = try args.loadWindow(symbol: rest[0], store: try args.openStore())
        let signals = try strategy.signals(window.series, parameters)  // from the series' start, as bt run computes them
        if let rules = signals.positionRules {
            let roles = SignalRules.Role.allCases.filter { rules[$0] != nil }.map(\.rawValue)
            throw UsageError("the \(roles.joined(separator: " and ")) rule\(roles.count == 1 ? " reads" : "s read") the open position "
                             + "(position series such as trade_return): such rules have values only inside a run, at each bar "
                             + "of a position, so there are no signals to print; use 'bt run' and read its trades",
                             command: "signals")
        }
        Output.write(SignalsFile.csv(times: window.candles.time, signals: signals.slice(window.range)))
    }
}
