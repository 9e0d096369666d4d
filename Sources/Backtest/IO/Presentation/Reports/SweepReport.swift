import BacktestAnalysis
import BacktestCore
import Foundation

/// The files of a sweep: `sweep.csv` streamed row by row while the sweep runs, then `sweep.md`
/// (manifest, best and top combinations, deflated Sharpe, PBO, heatmap, walk-forward),
/// `report.html` (`SweepReport+HTML.swift`) and, for two-parameter grids, `heatmap.svg`.
public struct SweepReport {
    public var strategy: String
    public var candles: CandleSeries
    public var commandLine: [String]
    /// Parameters held fixed (defaults included).
    public var fixedParameters: [RunParameter]
    /// The rules of an expression strategy as written (see `RunManifest.rules`).
    public var rules: [RunParameter] = []
    /// The other series the rules read with `@` (`OtherSeriesReader.read`), listed by the manifest.
    public var otherSeries: [(name: String, candles: CandleSeries)] = []
    /// Execution options, defaults included.
    public var execution: [RunParameter]
    public var grid: ParameterGrid
    public var whereText: String?
    /// Grid indexes of the evaluated combinations (after `--where`), by combination number.
    public var combos: [Int]
    public var rankStat: Stat
    public var periodsPerYear: Double
    public var summary: Sweep.Summary
    public var deflation: Sweep.Deflation?
    public var walkForward: WalkForward.Outcome?
    public var topShown = 20
    /// A search's account of its combinations (`RandomSearch.summary`, `BayesSearch.summary`);
    /// nil for a grid sweep, whose manifest lists the grid's values instead.
    public var search: String?
    /// How a search picked its combinations, for the terminal's first line.
    public var searchedBy = "drawn at random"
    /// The splits of a combinatorial purged cross-validation, when the sweep made one.
    public var cv: CombinatorialPurgedCV?
    /// The Pareto front over `--objectives`, when given (`sweep.csv`'s `pareto` column).
    public var pareto: ParetoFront?

    public init(strategy: String, candles: CandleSeries, commandLine: [String],
                fixedParameters: [RunParameter], execution: [RunParameter],
                grid: ParameterGrid, whereText: String?, combos: [Int], rankStat: Stat,
                periodsPerYear: Double, summary: Sweep.Summary) {
        self.strategy = strategy; self.candles = candles; self.commandLine = commandLine
        self.fixedParameters = fixedParameters; self.execution = execution; self.grid = grid
        self.whereText = whereText; self.combos = combos; self.rankStat = rankStat
        self.periodsPerYear = periodsPerYear; self.summary = summary
    }

    // MARK: - sweep.csv

    /// Header of `sweep.csv`: swept parameters, every `SweepStats` name, status, error.
    public static func csvHeader(_ grid: ParameterGrid) -> String {
        CSV.row(grid.axes.map { CSV.text($0.name) } + SweepStats.names + ["status", "error"])
    }

    /// Rows of `sweep.csv` for one chunk (fractions, not percentages; empty cells for undefined).
    public static func csvRows(_ rows: [Sweep.Row], grid: ParameterGrid, combos: [Int]) -> String {
        var out = ""
        for row in rows {
            let values = grid.combination(at: combos[row.combo])
            var cells = grid.axes.map { CSV.number(values[$0.name]!) }
            if let m = row.stats {
                cells += m.values.map(CSV.number) + ["ok", ""]
            } else {
                cells += SweepStats.names.map { _ in "" } + ["error", CSV.text(row.error ?? "")]
            }
            out += CSV.row(cells)
        }
        return out
    }

    // MARK: - Heatmap

    /// Largest grids drawn: the text heatmap up to 80 x 60 cells, the SVG up to 400 x 400.
    static let textHeatmapLimit = (rows: 80, columns: 60)
    static let svgHeatmapLimit = 400

    /// The rank statistic over a two-parameter grid (NaN where filtered out or failed).
    public var heatmapValues: [[Double]]? {
        guard grid.axes.count == 2 else { return nil }
        let rows = grid.axes[0].values.count, cols = grid.axes[1].values.count
        var values = [[Double]](repeating: [Double](repeating: .nan, count: cols), count: rows)
        for (k, index) in combos.enumerated() {
            let c = grid.coordinates(at: index)
            values[c[0]][c[1]] = summary.rankValues[k]
        }
        return values
    }

    static func label(_ v: Double) -> String { CSV.number(v) }

    /// The text heatmap at the smallest size that fits it, or nil for other than two parameters.
    public func heatmapText(style: ChartStyle = ChartStyle()) throws -> String? {
        guard grid.axes.count == 2, grid.axes[0].values.count <= Self.textHeatmapLimit.rows,
              grid.axes[1].values.count <= Self.textHeatmapLimit.columns, let values = heatmapValues else { return nil }
        let rowLabels = grid.axes[0].values.map(Self.label), colLabels = grid.axes[1].values.map(Self.label)
        let labelWidth = max(grid.axes[0].name.count, rowLabels.map(\.count).max() ?? 0)
        let cellWidth = max(3, (colLabels.map(\.count).max() ?? 0) + 1)
        let size = ChartSize(width: max(labelWidth + 1 + cellWidth * colLabels.count, 60),
                             height: values.count + 8)
        return try Heatmap.render(
            values: values, rowName: grid.axes[0].name, rowLabels: rowLabels,
            columnName: grid.axes[1].name, columnLabels: colLabels,
            title: "\(rankStat) by \(grid.axes[0].name) and \(grid.axes[1].name)",
            higherIsBetter: rankStat.higherIsBetter, size: size, style: style)
    }

    /// The heatmap as SVG: one rectangle per cell on a colour-blind-safe scale (`SVGHeatmap`),
    /// the best cell outlined, blank where there is no value.
    public func heatmapSVG() -> String? {
        heatmapCanvas()?.svg
    }

    func heatmapCanvas() -> SVGCanvas? {
        guard grid.axes.count == 2, grid.axes.allSatisfy({ $0.values.count <= Self.svgHeatmapLimit }),
              let values = heatmapValues else { return nil }
        let best = summary.best.map { grid.coordinates(at: combos[$0]) }.map { (row: $0[0], column: $0[1]) }
        return SVGHeatmap.canvas(values: values, rowName: grid.axes[0].name, rowLabels: grid.axes[0].values.map(Self.label),
                                 columnName: grid.axes[1].name, columnLabels: grid.axes[1].values.map(Self.label),
                                 title: "\(rankStat) by \(grid.axes[0].name) (rows) and \(grid.axes[1].name) (columns)",
                                 stat: rankStat, best: best)
    }

    // MARK: - sweep.md

    /// The sweep's manifest: strategy, data, periods per year, rank statistic, grid, filter, fixed
    /// parameters and execution options.
    /// - Complexity: O(n) in the bars (it hashes them).
    public var manifest: RunManifest {
        var m = RunManifest(commandLine: commandLine, strategy: strategy, data: RunManifest.Data(candles),
                            periodsPerYear: periodsPerYear, parameters: fixedParameters, execution: execution)
        m.rankStat = rankStat
        m.rules = rules
        m.grid = search == nil ? grid.axes : []
        m.search = search
        m.filter = whereText
        m.list(otherSeries: otherSeries)
        return m
    }

    /// How many combinations the sweep chose, and from what.
    var combinationsText: String {
        search.map { "\($0) (the deflated Sharpe ratio and PBO count these trials)" }
            ?? "\(grid.count) combinations in the grid, \(combos.count) after `--where`"
    }

    public func markdown() throws -> String {
        let c = candles
        var md = "# Sweep: \(Markdown.cell(strategy)) on \(Markdown.cell(c.symbol))\n\n## Run\n\n" + manifest.markdown
        md += "\n## Results\n\n"
        md += combinationsText + ", "
            + "\(summary.evaluated - summary.failed) ran, \(summary.failed) failed (see `sweep.csv`, status `error`).\n\n"
        if let best = summary.best, let m = summary.bestStats {
            let values = grid.combination(at: combos[best])
            md += "Best by \(rankStat): "
                + grid.axes.map { "\(Markdown.cell($0.name))=\(Self.label(values[$0.name]!))" }.joined(separator: ", ") + "\n\n"
            md += "| metric | value |\n|---|---:|\n"
            for (stat, v) in zip(SweepStats.columns, m.values) { md += "| \(stat) | \(stat.formatted(v)) |\n" }
        } else {
            md += "No combination produced a defined \(rankStat).\n"
        }

        md += cpcvMarkdown
        md += paretoMarkdown
        md += "\n## Honesty: how much of the best result is luck\n\n"
        if let d = deflation {
            md += "| | |\n|---|---:|\n"
            md += "| trials (combinations that ran) | \(d.trials) |\n"
            md += "| best Sharpe (annualised) | \(Format.fixed(d.sharpe, 3)) |\n"
            md += "| best Sharpe (per bar) | \(Format.fixed(d.periodSharpe, 5)) |\n"
            md += "| variance of per-bar Sharpe across trials | \(d.sharpeVariance.isFinite ? String(format: "%.3g", d.sharpeVariance) : Format.fixed(d.sharpeVariance, 3)) |\n"
            md += "| expected best per-bar Sharpe of \(d.trials) unskilled trials | \(Format.fixed(d.expectedMaximum, 5)) |\n"
            md += "| skew, kurtosis of the best's returns | \(Format.fixed(d.skew, 3)), \(Format.fixed(d.kurtosis, 3)) |\n"
            md += "| **deflated Sharpe ratio** | **\(Format.percent(d.value))** |\n\n"
            md += "The deflated Sharpe ratio (Bailey and Lopez de Prado, 2014) is the probability that the best "
                + "combination's true Sharpe ratio is above zero once the number of trials and the returns' skew "
                + "and kurtosis are accounted for. Below 95%, the best result is not distinguishable from the best of "
                + "\(d.trials) lucky draws.\n\n"
        } else {
            md += "Deflated Sharpe ratio: not available (no best combination).\n\n"
        }
        if let o = summary.overfitting {
            md += "Probability of backtest overfitting (CSCV, \(o.splits) splits over \(summary.overfittingTrials) trials): "
                + "**\(Format.percent(o.pbo, digits: 1))**. "
                + "It is the share of in-sample/out-of-sample splits where the in-sample winner ranked at or below the "
                + "out-of-sample median (Bailey, Borwein, Lopez de Prado and Zhu, 2015); near 50% or above means the "
                + "selection is no better than chance.\n"
        }
        if let note = summary.overfittingNote { md += "\n\(note).\n" }

        if !summary.top.isEmpty {
            md += "\n## Top \(min(topShown, summary.top.count)) by \(rankStat)\n\n"
            let shownStats: [Stat] = [.totalReturn, .sharpe, .sortino, .maxDrawdown, .trades, .winRate]
            md += "| # | " + grid.axes.map { Markdown.cell($0.name) }.joined(separator: " | ") + " | "
                + shownStats.map(\.name).joined(separator: " | ") + " |\n"
            md += "|---:|" + String(repeating: "---:|", count: grid.axes.count + shownStats.count) + "\n"
            for (k, row) in summary.top.prefix(topShown).enumerated() {
                guard let m = row.stats else { continue }
                let values = grid.combination(at: combos[row.combo])
                md += "| \(k + 1) | " + grid.axes.map { Self.label(values[$0.name]!) }.joined(separator: " | ") + " | "
                    + shownStats.map { $0.formatted(m[$0]) }.joined(separator: " | ") + " |\n"
            }
        }

        if grid.axes.count == 2 {
            md += "\n## Heatmap\n\n"
            if heatmapSVG() != nil { md += "![\(rankStat) heatmap](heatmap.svg)\n\n" }
            if let text = try heatmapText() {
                md += Markdown.fenced(text)
            } else {
                md += "The grid is too large for a text heatmap (over \(Self.textHeatmapLimit.rows) x \(Self.textHeatmapLimit.columns)); "
                    + "`sweep.csv` holds every cell.\n"
            }
        }

        if let wf = walkForward {
            md += "\n## Walk-forward\n\nEach fold's parameters are chosen by \(rankStat) on the fold before it only, then traded on the fold.\n\n"
            md += "| step | in-sample bars | out-of-sample bars | chosen | \(rankStat) in-sample | \(rankStat) out-of-sample |\n|---:|---|---|---|---:|---:|\n"
            for (k, s) in wf.steps.enumerated() {
                let chosen = s.chosen.map { i -> String in
                    let v = grid.combination(at: combos[i])
                    return grid.axes.map { "\(Markdown.cell($0.name))=\(Self.label(v[$0.name]!))" }.joined(separator: " ")
                } ?? "none"
                md += "| \(k + 1) | \(dates(s.step.inSample)) | \(dates(s.step.outOfSample)) | \(chosen) | "
                    + "\(rankStat.formatted(s.inSampleValue)) | \(rankStat.formatted(s.outOfSampleValue)) |\n"
            }
            if let inS = wf.inSample, let (outS, drawdowns) = wf.outOfSampleRun {
                let a = SweepStats(inS, periodsPerYear: periodsPerYear), b = SweepStats(outS, periodsPerYear: periodsPerYear)
                md += "\n| metric | in-sample (stitched) | out-of-sample (stitched) |\n|---|---:|---:|\n"
                for stat in SweepStats.columns {
                    md += "| \(stat) | \(stat.formatted(a[stat])) | \(stat.formatted(b[stat])) |\n"
                }
                md += "\n![Out-of-sample equity](walk_forward_equity.svg)\n\n"
                md += Markdown.fenced(chart: try EquityChart.drawing(time: outS.candles.time, equity: outS.equity, initial: outS.initialCash,
                                                                     drawdown: drawdowns.curve, size: ChartSize(width: 100, height: 20)))
                    + "\nThe stitched out-of-sample equity is in `walk_forward.csv`.\n"
            }
        }
        md += "\nEvery combination's metrics are in `sweep.csv` (fractions, not percentages).\n"
        return md
    }

    private func dates(_ r: Range<Int>) -> String {
        guard !r.isEmpty else { return "" }
        return "\(UTCTime.isoDate(candles.time[r.lowerBound]))..\(UTCTime.isoDate(candles.time[r.upperBound - 1]))"
    }

    /// `walk_forward.csv`: time, equity, drawdown of the stitched out-of-sample run.
    public func walkForwardCSV() -> String? {
        guard let (r, drawdowns) = walkForward?.outOfSampleRun else { return nil }
        let dd = drawdowns.curve
        var out = "time,equity,drawdown\n"
        for i in r.equity.indices {
            out += "\(UTCTime.iso(r.candles.time[i])),\(CSV.number(r.equity[i])),\(CSV.number(dd[i]))\n"
        }
        return out
    }
}
