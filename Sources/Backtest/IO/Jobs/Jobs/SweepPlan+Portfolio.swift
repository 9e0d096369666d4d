import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation

/// A portfolio sweep: every combination is a portfolio run of the symbols (one cash account), on
/// the portfolio's clock; the grid axis `slotsAxis` sweeps the number of positions.
extension SweepPlan {
    /// Sweeps the portfolio `universe` and writes the sweep's files into `directory` (an existing
    /// folder: the staging folder of the output).
    /// - Parameters:
    ///   - rules: the portfolio's weighting, rebalancing and neutrality (its positions come from
    ///     `maxPositions` or the grid).
    ///   - maxPositions: the fixed number of positions, if not swept (nil: one per symbol).
    ///   - rankExpression: what ranks the symbols for the positions, checked against the parameters.
    ///   - rankReading: where the rank reads other series with `@` (nil refuses `@`).
    ///   - config: the execution the portfolio's account uses.
    ///   - rerun: the command that reruns one combination, for the report's page.
    ///   - progress: with the number of combinations, where to report how many are done.
    public func runPortfolio(_ universe: PortfolioUniverse, rules probe: PortfolioRules, maxPositions fixedK: Int?,
                             rankExpression rank: LocatedExpression?, rankReading other: OtherSeriesReader? = nil,
                             config: ExecutionConfig, periodsPerYear ppy: Double,
                             directory: String, rerun: String,
                             progress: (Int) -> ((Int) -> Void)? = { _ in nil }) throws -> SweepReport {
        let clock = universe.clock
        let combos = self.combos, grid = self.grid, strategy = self.strategy, base = self.base, reword = self.reword
        let swept = executionAxes
        if swept.contains(.mmr) {
            // Each symbol trades its own maintenance rate (ExecutionConfig.trading): one axis cannot set them all.
            throw InputError("a portfolio's maintenance rate is each symbol's own (stored with its series, or given once): "
                             + "it cannot be a grid axis of a portfolio sweep", setting: .mmr)
        }
        // A neutral book's needs are the same in every combination: refused once, before the sweep.
        try Portfolio.validate(probe, symbols: universe.candles.count, config: config)
        let evaluator = universe.evaluator(config: config, periodsPerYear: ppy) { combo in
            do {
                var parameters = base
                var rules = probe
                var execution = config
                rules.maxPositions = fixedK
                for (k, (axis, value)) in zip(grid.axes, grid.values(at: combos[combo])).enumerated() {
                    if let setting = swept[k] {
                        try execution.set(setting, to: value)
                    } else if axis.name == Self.slotsAxis {
                        guard value >= 1, value == value.rounded(), value <= Double(Int32.max) else {
                            throw InputError("needs a whole number of positions >= 1", setting: .maxPositions, value: Self.text(value))
                        }
                        rules.maxPositions = Int(value)
                    } else {
                        try parameters.set(axis.name, to: value)
                    }
                }
                try rules.validate(ranked: rank != nil)
                try execution.validate()
                let values = parameters.expressionValues, bound = parameters
                return (rules, { candles, cache in
                    (try strategy.signals(candles, bound, cache: cache),
                     try rank.map { try $0.values(on: candles, parameters: values, cache: cache, reading: other) })
                }, execution)
            } catch {
                throw reword(error)
            }
        }
        let sweep = self.sweep
        let csv = try SweepCSVFile(in: directory, grid: grid, combos: combos, objectives: objectives)
        let progress = progress(combos.count)
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankStat: self.rank)
        let summary = try sweep.run(combinations: combos.count, evaluator: evaluator, candles: clock, progress: progress) { rows in
            try csv.write(rows)
            cells.add(rows)
        }
        let front = try csv.finish()
        let sweptNames = Set(grid.axes.map(\.name))
        let portfolioParameters = PortfolioRules(maxPositions: fixedK, weighting: probe.weighting, rebalance: probe.rebalance, neutral: probe.neutral)
            .parameters(symbols: universe.candles.count, rank: rank?.text)
            .filter { $0.name != "rotate" && !sweptNames.contains($0.name) }
            .map { RunParameter("portfolio_" + $0.name, $0.value) }
        var report = SweepReport(
            strategy: strategy.name + " portfolio of " + universe.candles.map(\.symbol).joined(separator: ","), candles: clock,
            commandLine: commandLine, fixedParameters: base.runParameters.filter { !sweptNames.contains($0.name) },
            execution: portfolioParameters + config.parameters, grid: grid, whereText: filter?.text, combos: combos,
            rankStat: self.rank, periodsPerYear: ppy, summary: summary)
        report.rules = strategy.ruleParameters
        report.otherSeries = (other ?? strategy.otherSeries)?.read(by: strategy.ruleExpressions + (rank.map { [$0] } ?? []),
                                                                     on: universe.candles) ?? []
        report.topShown = top
        report.pareto = front
        report.search = search.map { $0.search.summary(of: $0.space) }
        report.deflation = try Sweep.deflation(of: summary, evaluator: evaluator, candles: clock)
        if let folds {
            let wf = try WalkForward(bars: clock.count, folds: folds)
            report.walkForward = try wf.run(combinations: combos.count, evaluator: evaluator, candles: clock, rankStat: self.rank)
        }
        try Self.write(report, cells: cells, evaluator: evaluator, rerun: rerun, in: directory)
        return report
    }
}
