import BacktestAnalysis
import BacktestCore
import BacktestData

/// The terminal summary of a screen: the ranked top table (percentages), then, while the table
/// has room, the rows with too few trades to rank (marked `few`, their trade count shown), and
/// the failures.
public enum ScreenSummaryText {
    public static func render(_ report: ScreenReport, directory: String) -> String {
        let rows = report.ordered
        let stat = report.rankStat
        let columns = [stat] + [Stat.totalReturn, .sharpe, .maxDrawdown, .trades].filter { $0 != stat }
        var table = [["#", "symbol", "tf", "equity"] + columns.map(\.name)]
        let shown = rows.filter { $0.status != .error }.prefix(report.top)
        for row in shown {
            guard let s = row.stats else { continue }
            table.append([row.rank.map(String.init) ?? "few", row.symbol, row.timeframe?.rawValue ?? "",
                          ScreenReport.sparkline(row.equityShape)] + columns.map { $0.formatted(s[$0]) })
        }
        let ranked = rows.filter { $0.rank != nil }.count
        let few = rows.filter { $0.status == .fewTrades }.count
        let failed = rows.filter { $0.status == .error }
        var out = "Screen \(report.strategy)" + (report.execution.conventions.map { " (conventions: \($0))" } ?? "")
            + ": \(rows.count) symbols, \(ranked) ranked by \(stat), "
            + (report.minTrades > 0 ? "\(few) with fewer than \(report.minTrades) trades, " : "")
            + "\(failed.count) failed\n\n"
        out += TextTable.render(table, rightAligned: Set([0] + Array(4..<(4 + columns.count))))
        if shown.contains(where: { $0.rank == nil }) {
            out += "few: fewer than \(report.minTrades) trades, not ranked (--min-trades N changes the bar)\n"
        }
        if !failed.isEmpty {
            out += "\nFailed:\n"
            for row in failed.prefix(10) { out += "  \(row.symbol): \(row.error ?? "")\n" }
            if failed.count > 10 { out += "  ... \(failed.count - 10) more in screen.md\n" }
        }
        out += SeriesNote.text(report.seriesNotes)
        out += "\nWrote \(directory)/screen.csv, screen.md and report.html\n"
        return out
    }
}
