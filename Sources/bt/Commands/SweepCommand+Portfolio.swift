import Backtest
import Foundation
import Strategies

/// `bt sweep --portfolio`: every combination is a `bt portfolio` run of the symbols (one cash
/// account), on the portfolio's clock; `--grid max_positions=...` sweeps K.
extension SweepPlan {
    /// `bt portfolio` for one combination, `{name}` standing for each swept value.
    func portfolioRerunCommand(args: ParsedArguments) -> String {
        let strategyWords = args.ruleOptions.isEmpty ? [args.positional(0) ?? strategy.name] : []
        let ruleWords = args.words(for: [.weight, .rebalance]) + (args.value(.portfolioRank).map { ["--rank", $0] } ?? [])
        let words = ["bt", "portfolio"] + strategyWords + args.words(for: [.symbols, .all]) + args.words(for: StrategyOptions.all + [.param])
            + ruleWords + (grid.axes.contains { $0.name == Self.slotsAxis } ? [] : args.words(for: [.maxPositions]))
            + args.words(for: CommonOptions.range + ExecutionOptions.table + [.periodsPerYear, .db])
        let swept = grid.axes.map { $0.name == Self.slotsAxis ? "--max-positions {\($0.name)}" : "--param \($0.name)={\($0.name)}" }
        return ([RunManifest.shellCommand(words)] + swept).joined(separator: " ")
    }

    /// Sweeps the portfolio of `symbols` and writes the sweep's files into `directory` (an
    /// existing folder: the staging folder of the output).
    func runPortfolio(symbols names: [String], store: CandleStore, args: ParsedArguments, directory: String) throws -> SweepReport {
        let probe = try args.portfolioRules(ranked: true, maxPositions: 1)  // the rank is checked below
        let rank = try args.portfolioRank(.portfolioRank, setting: .portfolioRank, parameters: base.expressionValues.expressionParameters)
        let fixedK = try args.int(.maxPositions)
        try PortfolioRules(maxPositions: fixedK, weighting: probe.weighting).validate(ranked: rank != nil)
        let loaded = try args.portfolioCandles(names, store: store)
        let config = loaded[0].config
        let universe = PortfolioUniverse(candles: loaded.map(\.candles), liquidity: loaded.map(\.config))
        let clock = universe.clock
        let ppy = try args.double(.periodsPerYear) ?? PeriodsPerYear.infer(from: clock.time)
        guard ppy > 0 else { throw UsageError("\(Option.periodsPerYear) must be positive", command: "sweep") }
        let combos = self.combos, grid = self.grid, strategy = self.strategy, base = self.base
        let evaluator = universe.evaluator(config: config, periodsPerYear: ppy) { combo in
            try ErrorMessage.rewording {
                var parameters = base
                var rules = probe
                rules.maxPositions = fixedK
                for (axis, value) in zip(grid.axes, grid.values(at: combos[combo])) {
                    if axis.name == Self.slotsAxis {
                        guard value >= 1, value == value.rounded(), value <= Double(Int32.max) else {
                            throw InputError("needs a whole number of positions >= 1", setting: .maxPositions, value: Self.text(value))
                        }
                        rules.maxPositions = Int(value)
                    } else {
                        try parameters.set(axis.name, to: value)
                    }
                }
                try rules.validate(ranked: rank != nil)
                let values = parameters.expressionValues, bound = parameters
                return (rules, { candles, cache in
                    (try strategy.signals(candles, bound, cache: cache),
                     try rank.map { try $0.values(on: candles, parameters: values, cache: cache) })
                })
            }
        }
        let sweep = self.sweep
        let csv = try StreamingFile("sweep.csv", in: directory)
        try csv.write(SweepReport.csvHeader(grid))
        let bar = ProgressBar(total: combos.count, label: "sweep portfolio")
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankMetric: self.rank)
        let summary = try sweep.run(combinations: combos.count, evaluator: evaluator, candles: clock, progress: bar.update) { rows in
            try csv.write(SweepReport.csvRows(rows, grid: grid, combos: combos))
            cells.add(rows)
        }
        try csv.close()
        let sweptNames = Set(grid.axes.map(\.name))
        let portfolioParameters = PortfolioRules(maxPositions: fixedK, weighting: probe.weighting, rebalance: probe.rebalance)
            .parameters(symbols: names.count, rank: rank?.text)
            .filter { $0.name != "rotate" && !sweptNames.contains($0.name) }
            .map { RunParameter("portfolio_" + $0.name, $0.value) }
        var report = SweepReport(
            strategy: strategy.name + " portfolio of " + universe.candles.map(\.symbol).joined(separator: ","), candles: clock,
            commandLine: args.commandLine, fixedParameters: base.runParameters.filter { !sweptNames.contains($0.name) },
            execution: portfolioParameters + config.parameters, grid: grid, whereText: args.value(.where), combos: combos, rankMetric: self.rank,
            periodsPerYear: ppy, summary: summary)
        report.rules = strategy.ruleParameters
        report.topShown = top
        report.deflation = try Sweep.deflation(of: summary, evaluator: evaluator, candles: clock)
        if let folds {
            let wf = try WalkForward(bars: clock.count, folds: folds)
            report.walkForward = try wf.run(combinations: combos.count, evaluator: evaluator, candles: clock, rankMetric: self.rank)
        }
        try SweepPlan.write(report, cells: cells, evaluator: evaluator, rerun: portfolioRerunCommand(args: args), in: directory)
        return report
    }
}
