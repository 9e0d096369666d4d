import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// The files of a screen: `screen.csv` (one row per symbol: rank, status, error and every
/// statistic, fractions), `screen.md` (manifest, ranked top table with equity sparklines,
/// symbols left out and failed ones with why) and `report.html` (`ScreenReport+HTML.swift`).
public struct ScreenReport {
    public var strategy: String
    public var parameters: [RunParameter]
    /// The rules of an expression strategy as written (see `RunManifest.rules`).
    public var rules: [RunParameter] = []
    public var execution: [RunParameter]
    public var commandLine: [String]
    public var rankStat: Stat
    public var minTrades: Int
    public var top: Int
    public var rows: [Screen.Row]
    /// The settings of the rows' Monte Carlo columns (`bt screen --monte-carlo`); nil: none.
    public var monteCarlo: MonteCarlo.Settings?
    /// Stored symbols left out and series read resampled, with why (`CandleStore.seriesNotes`).
    public var seriesNotes: [SeriesNote] = []
    /// The other series the rules read with `@` (`OtherSeriesReader.read`), listed by the manifest.
    public var otherSeries: [(name: String, candles: CandleSeries)] = []

    public init(strategy: String, parameters: [RunParameter], execution: [RunParameter], commandLine: [String],
                rankStat: Stat, minTrades: Int, top: Int, rows: [Screen.Row]) {
        self.strategy = strategy; self.parameters = parameters; self.execution = execution
        self.commandLine = commandLine; self.rankStat = rankStat; self.minTrades = minTrades
        self.top = top; self.rows = rows
    }

    /// Rows in report order: ranked first (best first), then few-trade rows, then errors,
    /// each group by symbol.
    public var ordered: [Screen.Row] {
        let ranked = rows.filter { $0.rank != nil }.sorted { $0.rank! < $1.rank! }
        let few = rows.filter { $0.status == .fewTrades }.sorted { $0.symbol < $1.symbol }
        let failed = rows.filter { $0.status == .error }.sorted { $0.symbol < $1.symbol }
        return ranked + few + failed
    }

    public func csv() -> String {
        let mcColumns = monteCarlo == nil ? [] : MonteCarlo.columns
        var out = CSV.row(["rank", "symbol", "timeframe", "status", "error"] + Stat.names + mcColumns)
        for row in ordered {
            var cells = [row.rank.map(String.init) ?? "", CSV.text(row.symbol), row.timeframe?.rawValue ?? "", row.status.rawValue,
                         CSV.text(row.error ?? "")]
            if let s = row.stats {
                cells += s.all.map { $0.stat.unit == .time ? UTCTime.iso(Int64($0.value)) : CSV.number($0.value) }
            } else {
                cells += Stat.names.map { _ in "" }
            }
            if monteCarlo != nil { cells += row.monteCarlo?.map(CSV.number) ?? mcColumns.map { _ in "" } }
            out += CSV.row(cells)
        }
        return out
    }

    /// `▁▂▃▄▅▆▇█` by each point's place between the curve's min and max.
    public static func sparkline(_ values: [Double]) -> String {
        let finite = values.filter(\.isFinite)
        guard let lo = finite.min(), let hi = finite.max() else { return "" }
        let glyphs = Array("▁▂▃▄▅▆▇█")
        return String(values.map { v -> Character in
            guard v.isFinite else { return " " }
            let t = hi > lo ? (v - lo) / (hi - lo) : 0.5
            return glyphs[min(7, Int(t * 8))]
        })
    }

    /// The screen's manifest: strategy, symbol count, rank statistic, minimum trades, parameters
    /// and execution options.
    public var manifest: RunManifest {
        var m = RunManifest(commandLine: commandLine, strategy: strategy, parameters: parameters, execution: execution)
        m.symbols = rows.count
        m.rules = rules
        m.rankStat = rankStat
        m.minTrades = minTrades
        m.list(otherSeries: otherSeries)
        return m
    }

    public func markdown() -> String {
        let ok = rows.filter { $0.status == .ok }.count
        let few = rows.filter { $0.status == .fewTrades }
        let failed = rows.filter { $0.status == .error }
        var md = "# Screen: \(Markdown.cell(strategy))\n\n## Run\n\n" + manifest.markdown
        md += "\n## Ranking\n\n\(ok) ranked, "
            + (minTrades > 0 ? "\(few.count) with fewer than \(minTrades) trades, " : "") + "\(failed.count) failed.\n\n"
        let columns: [Stat] = [.totalReturn, .cagr, .sharpe, .sharpeCILow, .sharpeCIHigh, .psr, .maxDrawdown,
                                 .trades, .winRate]
        let shown = [rankStat] + columns.filter { $0 != rankStat }
        md += "| # | symbol | tf | equity | " + shown.map { Markdown.cell($0.name) }.joined(separator: " | ") + " |\n|---:|---|---|---|"
            + String(repeating: "---:|", count: shown.count) + "\n"
        for row in ordered.prefix(while: { $0.rank != nil }).prefix(top) {
            guard let s = row.stats else { continue }
            md += "| \(row.rank!) | \(Markdown.cell(row.symbol)) | \(row.timeframe?.rawValue ?? "") | \(Self.sparkline(row.equityShape)) | "
                + shown.map { $0.formatted(s[$0]) }.joined(separator: " | ") + " |\n"
        }
        if !few.isEmpty {
            md += "\n## Not ranked: fewer than \(minTrades) trades\n\n"
            md += few.sorted { $0.symbol < $1.symbol }
                .map { "- \(Markdown.cell($0.symbol)): \(Int($0.stats?[.trades] ?? 0)) trades" }.joined(separator: "\n") + "\n"
        }
        if !failed.isEmpty {
            md += "\n## Failed\n\n| symbol | why |\n|---|---|\n"
            for row in failed.sorted(by: { $0.symbol < $1.symbol }) {
                md += "| \(Markdown.cell(row.symbol)) | "
                    + Markdown.cell(row.error ?? "") + " |\n"
            }
        }
        md += SeriesNote.markdown(seriesNotes)
        md += "\nEvery symbol's statistics are in `screen.csv` (fractions, not percentages).\n"
        if let mc = monteCarlo {
            md += "\nEach symbol's Monte Carlo, as `bt run --monte-carlo \(mc.resamples) --seed \(mc.seed)` gives it for that symbol "
                + "(\(mc.resamples) resamples of the trades and of the bar returns, ruin at a drawdown of "
                + "\(Format.percent(mc.ruin)) or deeper), is in the `mc_` columns of `screen.csv`.\n"
        }
        return md
    }
}
