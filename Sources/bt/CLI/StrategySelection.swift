import Backtest
import Foundation
import Strategies

/// How `run`, `sweep`, `screen` and `signals` name their strategy: a built-in name, a strategy
/// file (a path, or a name in the strategies directory), or rules given as `--entry`/`--exit`
/// (`--short-entry`/`--short-exit`) options.
enum StrategyOptions {
    static let rules: [Option] = [.entry, .exit, .shortEntry, .shortExit]
    static let all: [Option] = rules + [.strategies]

    static let positional = PositionalSpec(
        name: "STRATEGY",
        help: "Built-in name, strategy file, or a name in the strategies directory (left out with --entry/--exit)")
}

extension ParsedArguments {
    /// `--strategies`, else `$BT_STRATEGIES`, else `strategies` in the working directory.
    var strategyLibrary: StrategyLibrary {
        StrategyLibrary(directory: value(.strategies) ?? Environment.value("BT_STRATEGIES") ?? "strategies")
    }

    /// The rules given as options, by role.
    var ruleOptions: [SignalRules.Role: String] {
        var rules: [SignalRules.Role: String] = [:]
        for role in SignalRules.Role.allCases {
            if let text = value(Self.option(for: role)) { rules[role] = text }
        }
        return rules
    }

    static func option(for role: SignalRules.Role) -> Option {
        switch role {
        case .entry: .entry
        case .exit: .exit
        case .shortEntry: .shortEntry
        case .shortExit: .shortExit
        }
    }

    /// The strategy and the positionals after it: with rule options the rules are the strategy
    /// and every positional is a symbol; otherwise the first positional names the strategy.
    /// - Parameter swept: names a sweep sets, with their first values (they become parameters
    ///   of a rule strategy without `--param`).
    func strategy(swept: [(name: String, first: Double)] = []) throws -> (strategy: Strategy, rest: [String]) {
        let rules = ruleOptions
        if !rules.isEmpty {
            _ = value(.strategies)  // not used with rules, but not worth a warning either
            if command.accepts(.short), rules[.shortEntry] != nil || rules[.shortExit] != nil, !flag(.short) {
                throw UsageError("\(Option.shortEntry)/\(Option.shortExit) trade only with \(Option.short)", command: command.name)
            }
            let strategy = try Strategy.expressions(rules, parameters: values(.param), swept: swept)
            warnAboutUnusedParameters(reading: Array(rules.values), swept: swept.map(\.name))
            return (try otherSeries(reading: strategy.ruleExpressions).map(strategy.reading) ?? strategy, positionals)
        }
        guard let name = positional(0) else {
            throw UsageError("give a STRATEGY (see 'bt strategies') or rules with \(Option.entry) and \(Option.exit)",
                             command: command.name)
        }
        let strategy = try strategyLibrary.strategy(named: name)
        // A file's short rules, like --short-entry/--short-exit, trade only with --short.
        if command.accepts(.short) { try strategy.requireShorts(allowed: flag(.short), named: name) }
        return (try otherSeries(reading: strategy.ruleExpressions).map(strategy.reading) ?? strategy, Array(positionals.dropFirst()))
    }

    /// The store's series for `expressions`' `@` (`OtherSeriesReader.reading`, `--max-stale`); `shared`: one per command.
    func otherSeries(reading expressions: [LocatedExpression], shared: OtherSeriesReader? = nil) throws -> OtherSeriesReader? {
        guard command.accepts(.maxStale), !command.accepts(.wsURL) else { return nil }  // bt live: LiveOtherSeries, not the store
        return try OtherSeriesReader.reading(expressions, shared: shared) {
            try OtherSeriesReader(StoredOtherSeries(path: databasePath), maxStale: value(.maxStale)) }
    }

    /// Warns about each `--param` (or swept `--grid` name) that none of `expressions`, the
    /// command's `--rank`/`--portfolio-rank` and its `--where` reads: it would change nothing.
    func warnAboutUnusedParameters(reading expressions: [String], swept: [String] = []) {
        let set = values(.param).map { String($0.prefix { $0 != "=" }) }
        let others = [Option.rankExpression, .portfolioRank].filter(command.accepts).flatMap(peek)
        let filters = command.accepts(.where) ? peek(.where) : []
        for name in Strategy.unusedParameters(set + swept, expressions: expressions + others, filters: filters) {
            Diagnostics.line("warning: \(set.contains(name) ? Option.param : .grid) \(name): no expression reads $\(name), so it changes nothing")
        }
    }
}
