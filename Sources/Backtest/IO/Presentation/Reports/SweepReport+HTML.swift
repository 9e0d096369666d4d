import BacktestAnalysis
import BacktestCore
import Foundation

extension SweepReport {
    /// A combination's backtest kept for the page: a click on its cell draws its equity, trades
    /// and fills over the candles.
    public struct StoredCurve: Sendable {
        /// Index into `combos`.
        public var combo: Int
        public var run: ChartedRun
        public var result: BacktestResult { run.result }

        public init(combo: Int, run: ChartedRun) {
            self.combo = combo
            self.run = run
        }
    }

    /// Curves of every cell are stored while cells x bars stays at most this many values.
    public static let curveValueLimit = 2_000_000

    /// The combinations whose curves the page stores: the `top` best cells by the rank statistic,
    /// and every cell when all curves together hold at most `curveValueLimit` values.
    public func curveCombos(cells: SweepHeatmapCells, top: Int = 20) -> [Int] {
        let ranked = cells.rankedCombos
        return ranked.count * candles.count <= Self.curveValueLimit ? ranked : Array(ranked.prefix(top))
    }

    /// `report.html` of the sweep: the heatmap (colour-blind-safe scale, values on hover and in
    /// large cells), the selected combination's equity over the candles, the walk-forward chart
    /// with its folds, and the tables of `sweep.md`.
    /// - Parameters:
    ///   - curves: the stored curves (`SweepPlan.storedCurves`); other cells explain how to rerun them.
    ///   - rerun: the `bt run` command for one combination, with `{name}` for each swept value.
    public func html(cells: SweepHeatmapCells, curves: [StoredCurve], rerun: String? = nil) -> String {
        PageData.render(pageData(cells: cells, curves: curves, rerun: rerun), title: "Sweep: \(strategy) on \(candles.symbol)",
                        kind: .sweep)
    }

    /// `name=value` for each of the grid's axes.
    func parameterText(_ combo: Int) -> String {
        let values = grid.values(at: combos[combo])
        return zip(grid.axes, values).map { "\($0.name)=\(Self.label($1))" }.joined(separator: " ")
    }

    func pageData(cells: SweepHeatmapCells, curves: [StoredCurve], rerun: String?) -> JSONValue {
        let timeframe = candles.timeframe?.rawValue
        var subtitle = PageData.subtitle(candles, timeframe: timeframe)
        subtitle += ["\(PageData.grouped(combos.count)) combinations", "ranked by \(rankStat)"]
        func axis(_ k: Int) -> JSONValue {
            ["name": .string(grid.axes[k].name), "values": PageData.numbers(grid.axes[k].values)]
        }
        let metrics: [JSONValue] = cells.shownStats.map { stat in
            let anyNegative = (0..<(cells.rows * cells.columns)).contains { cells.value(stat, cell: $0) < 0 }
            let rows: [JSONValue] = (0..<cells.rows).map { r in
                PageData.numbers((0..<cells.columns).map { cells.value(stat, cell: r * cells.columns + $0) })
            }
            return ["name": .string(stat.name), "label": .string(PageData.label(stat)),
                    "unit": .string(PageData.unit(stat.unit)),
                    "scale": .string(SweepReport.isSigned(stat) && anyNegative ? "diverging" : "sequential"),
                    "values": .array(rows)]
        }
        func coordinates(_ combo: Int) -> [(key: String, value: JSONValue)] {
            let v = grid.values(at: combos[combo])
            var out: [(key: String, value: JSONValue)] = [(key: "x", value: .number(v[cells.xAxis]))]
            if let y = cells.yAxis { out.append((key: "y", value: .number(v[y]))) }
            return out
        }
        var sweep: [(key: String, value: JSONValue)] = [(key: "x", value: axis(cells.xAxis))]
        if let y = cells.yAxis { sweep.append((key: "y", value: axis(y))) }
        sweep.append((key: "metrics", value: .array(metrics)))
        if let best = summary.best { sweep.append((key: "best", value: .object(coordinates(best)))) }
        sweep.append((key: "initial_cash", value: .number(curves.first?.result.initialCash ?? .nan)))
        sweep.append((key: "combinations", value: .array(curves.map { curve in
            let values = grid.values(at: combos[curve.combo])
            return .object(coordinates(curve.combo) + [
                (key: "label", value: .string(parameterText(curve.combo))),
                (key: "params", value: .object(zip(grid.axes, values).map { (key: $0.name, value: .number($1)) })),
                (key: "equity", value: PageData.ledger(curve.result) ?? PageData.f64(curve.result.equity)),
                (key: "drawdowns", value: PageData.drawdowns(curve.run.drawdowns)),
                (key: "trades", value: PageData.curveTrades(curve.result.trades)),
                (key: "fills", value: PageData.curveFills(curve.result.fills)),
            ])
        })))
        let stored = curves.count
        let everyCell = stored == cells.rankedCombos.count
        sweep.append((key: "curve_note", value: .string(everyCell
            ? "Curves are stored for every combination."
            : "Curves are stored for the \(stored) best combinations by \(rankStat).")))
        if let rerun { sweep.append((key: "rerun", value: .string(rerun))) }
        if let pareto = paretoPageData { sweep.append((key: "pareto", value: pareto)) }
        if grid.axes.count > 2, let y = cells.yAxis {
            let others = grid.axes.indices.filter { $0 != cells.xAxis && $0 != y }.map { grid.axes[$0].name }
            sweep.append((key: "note", value: .string(
                "\(grid.axes.count) parameters were swept: each cell shows the combination that ranks best by \(rankStat) "
                + "over \(others.joined(separator: ", ")) for its \(grid.axes[y].name) and \(grid.axes[cells.xAxis].name).")))
        } else if !cells.keepsAllStats {
            sweep.append((key: "note", value: .string(
                "The grid has more than \(PageData.grouped(SweepHeatmapCells.allStatsLimit)) cells: only \(rankStat) is shown; "
                + "sweep.csv holds every metric.")))
        }
        if let wf = walkForward, let (out, drawdowns) = wf.outOfSampleRun {
            let folds: [JSONValue] = wf.steps.enumerated().map { k, s in
                let range = s.step.outOfSample
                var fold: [(key: String, value: JSONValue)] = [
                    (key: "start", value: .int(Int(candles.time[range.lowerBound]))),
                    (key: "end", value: .int(Int(candles.time[range.upperBound - 1]))),
                    (key: "label", value: .string("step \(k + 1): " + (s.chosen.map(parameterText) ?? "no choice, in cash"))),
                ]
                if let chosen = s.chosen {
                    let values = grid.values(at: combos[chosen])
                    fold.append((key: "params", value: .object(zip(grid.axes, values).map { (key: $0.name, value: .number($1)) })))
                }
                fold += [(key: "in_sample", value: .string("\(rankStat) \(rankStat.formatted(s.inSampleValue))")),
                         (key: "out_of_sample", value: .string("\(rankStat) \(rankStat.formatted(s.outOfSampleValue))"))]
                return .object(fold)
            }
            sweep.append((key: "walk_forward", value: [
                "time_deltas": PageData.timeDeltas(out.candles.time), "equity": PageData.f64(out.equity),
                "drawdowns": PageData.drawdowns(drawdowns),
                "initial_cash": .number(out.initialCash), "folds": .array(folds),
            ]))
        }
        var manifest = self.manifest.plainRows
        manifest.insert((name: "combinations", value: search ?? "\(grid.count) in the grid, \(combos.count) evaluated"),
                        at: min(2, manifest.count))
        return PageData.page(.sweep, title: "Sweep: \(strategy) on \(candles.symbol)", subtitle: subtitle,
                             manifest: manifest, tables: pageTables(cells: cells),
                             members: [(key: "chart", value: ["series": PageData.series(candles, timeframe: timeframe)]),
                                       (key: "sweep", value: .object(sweep))])
    }

    /// Statistics that take both signs, drawn on a diverging scale around zero when a value is negative.
    static func isSigned(_ stat: Stat) -> Bool {
        [.sharpe, .sortino, .calmar, .totalReturn, .cagr, .alpha, .expectancy, .avgTrade].contains(stat)
    }

    /// The tables of `sweep.md`: results and honesty beside the heatmap; the top combinations and
    /// the walk-forward steps below it.
    func pageTables(cells: SweepHeatmapCells) -> [JSONValue] {
        var summaryRows: [[String]] = [
            ["combinations", search ?? "\(PageData.grouped(grid.count)) in the grid, \(PageData.grouped(combos.count)) evaluated"],
            ["ran", "\(PageData.grouped(summary.evaluated - summary.failed)), \(PageData.grouped(summary.failed)) failed"],
        ]
        var notes: [String] = []
        if let best = summary.best {
            summaryRows.append(["best by \(rankStat)", parameterText(best)])
        } else {
            summaryRows.append(["best", "no combination produced a defined \(rankStat)"])
        }
        if let p = pareto {
            summaryRows.append(["Pareto front", "\(PageData.grouped(p.count)) over " + p.objectives.map(\.name).joined(separator: ", ")])
        }
        if let d = deflation {
            summaryRows += [["deflated Sharpe ratio", Format.percent(d.value)],
                            ["trials", PageData.grouped(d.trials)],
                            ["expected best per-bar Sharpe of unskilled trials", Format.fixed(d.expectedMaximum, 5)]]
            notes.append("Deflated Sharpe ratio: the probability that the best combination's true Sharpe ratio is above zero, "
                         + "given \(d.trials) trials and the returns' skew and kurtosis (Bailey and Lopez de Prado, 2014). "
                         + "Below 95%, the best is not distinguishable from the best of as many lucky draws.")
        }
        if let o = summary.overfitting {
            summaryRows.append(["probability of backtest overfitting", Format.percent(o.pbo, digits: 1)])
            notes.append("PBO (CSCV, \(o.splits) splits over \(summary.overfittingTrials) trials): the share of splits where "
                         + "the in-sample winner ranked at or below the out-of-sample median; near 50% or above, the "
                         + "selection is no better than chance.")
        }
        if let note = summary.overfittingNote { notes.append(note + ".") }
        var tables = [PageData.table(id: "summary", title: "Results", columns: ["", ""], rows: summaryRows,
                                     align: ["left", "right"], notes: notes)]
        if let best = summary.best, let m = summary.bestStats {
            tables.append(PageData.table(id: "best", title: "Best: " + parameterText(best), columns: ["metric", "value"],
                                         rows: SweepStats.columns.map { [PageData.label($0), PageData.formatted($0, m[$0])] },
                                         align: ["left", "right"]))
        }

        if !summary.top.isEmpty {
            let shown: [Stat] = [.totalReturn, .sharpe, .sortino, .maxDrawdown, .trades, .winRate]
            let rows = summary.top.prefix(topShown).enumerated().compactMap { k, row -> [String]? in
                guard let m = row.stats else { return nil }
                let values = grid.values(at: combos[row.combo])
                return [String(k + 1)] + values.map(Self.label) + shown.map { PageData.formatted($0, m[$0]) }
            }
            tables.append(PageData.table(id: "top", title: "Top \(rows.count) by \(rankStat)",
                                         columns: ["#"] + grid.axes.map(\.name) + shown.map(PageData.label), rows: rows,
                                         align: Array(repeating: "right", count: 1 + grid.axes.count + shown.count),
                                         placement: .main))
        }
        if let wf = walkForward {
            let rows: [[String]] = wf.steps.enumerated().map { k, s in
                [String(k + 1), dateRange(s.step.inSample), dateRange(s.step.outOfSample),
                 s.chosen.map(parameterText) ?? "none", rankStat.formatted(s.inSampleValue), rankStat.formatted(s.outOfSampleValue)]
            }
            var notes = ["Each step's parameters are chosen by \(rankStat) on the fold before it only, then traded on the next fold."]
            if let inS = wf.inSample, let outS = wf.outOfSample {
                let a = SweepStats(inS, periodsPerYear: periodsPerYear), b = SweepStats(outS, periodsPerYear: periodsPerYear)
                notes.append("Stitched in-sample / out-of-sample: " + [Stat.totalReturn, .sharpe, .maxDrawdown].map {
                    "\(PageData.label($0)) \(PageData.formatted($0, a[$0])) / \(PageData.formatted($0, b[$0]))"
                }.joined(separator: "; ") + ".")
            }
            tables.append(PageData.table(id: "walk-forward", title: "Walk-forward steps",
                                         columns: ["step", "in-sample", "out-of-sample", "chosen", "\(rankStat) in", "\(rankStat) out"],
                                         rows: rows, align: ["right", "left", "left", "left", "right", "right"], notes: notes,
                                         placement: .main))
        }
        return tables
    }

    private func dateRange(_ r: Range<Int>) -> String {
        guard !r.isEmpty else { return "" }
        return "\(UTCTime.isoDate(candles.time[r.lowerBound])) .. \(UTCTime.isoDate(candles.time[r.upperBound - 1]))"
    }
}

extension SweepReport {
    /// `walk_forward_equity.svg`: the stitched out-of-sample equity with each step's fold
    /// boundary and chosen parameters; nil without walk-forward.
    public func walkForwardSVG() -> String? {
        guard let wf = walkForward, let (out, drawdowns) = wf.outOfSampleRun else { return nil }
        var start = 0
        let folds = wf.steps.enumerated().map { k, s -> SVGChart.Fold in
            defer { start += s.step.outOfSample.count }
            return SVGChart.Fold(start: start, label: "step \(k + 1): " + (s.chosen.map(parameterText) ?? "in cash"))
        }
        return SVGChart.equity(out, drawdowns: drawdowns, title: "Walk-forward: out-of-sample equity, stitched",
                               folds: folds)
    }
}
