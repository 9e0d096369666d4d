import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

extension ScreenReport {
    /// Embedded charts: every symbol that ran while their bars total at most this many ...
    public static let embeddedBarsBudget = 500_000
    /// ... else the best-ranked this many.
    public static let embeddedRowsBeyondBudget = 50

    /// The symbols whose chart the page embeds, in report order: every symbol that ran when
    /// their bars total at most `embeddedBarsBudget`, else the first `embeddedRowsBeyondBudget`
    /// of them (ranked rows first).
    public var embeddedSymbols: [String] {
        let ran = ordered.filter { $0.status != .error }
        let bars = ran.reduce(0) { $0 + $1.bars }
        return (bars <= Self.embeddedBarsBudget ? ran : Array(ran.prefix(Self.embeddedRowsBeyondBudget))).map(\.series)
    }

    /// The numeric columns of the page's table: the rank statistic first, then returns, risk and
    /// trade counts.
    var pageColumns: [Stat] {
        [rankStat] + [Stat.totalReturn, .cagr, .sharpe, .maxDrawdown, .sortino, .trades, .winRate, .exposure]
            .filter { $0 != rankStat }
    }

    /// `report.html` of the screen: a sortable table with an equity sparkline per symbol; a
    /// click on a row opens that symbol's chart (candles, trades, fills, equity, drawdown); the
    /// series left out or resampled, with why, in a table each.
    /// - Parameter runs: the runs whose charts to embed, by symbol (`embeddedSymbols`).
    public func html(runs: [String: ChartedRun]) -> String {
        PageData.render(pageData(runs: runs), title: "Screen: \(strategy)", kind: .screen)
    }

    func pageData(runs: [String: ChartedRun]) -> JSONValue {
        let columns = pageColumns
        let rows: [JSONValue] = ordered.map { row in
            let run = runs[row.series]
            let values: [(key: String, value: JSONValue)] = columns.map { stat in
                (key: stat.name, value: row.stats.map { .number($0[stat]) } ?? .null)
            }
            let spark = run.map { Self.sparkPoints($0.result.equity) } ?? row.equityShape
            var chart = JSONValue.null
            if let run {
                // Up to 500,000 embedded bars: f64 candles keep writing them fast (a third the
                // time of JSON numbers, for a page a third larger).
                let candles = run.result.candles
                chart = PageData.chart(candles, timeframe: candles.timeframe?.rawValue, run: (run.result, run.drawdowns), encoding: .f64)
            }
            return [
                "rank": row.rank.map { .int($0) } ?? .null, "symbol": .string(row.symbol),
                "timeframe": row.timeframe.map { .string($0.rawValue) } ?? .null, "status": .string(row.status.rawValue),
                "error": row.error.map { .string($0) } ?? .null, "values": .object(values), "spark": PageData.numbers(spark),
                "chart": chart, "href": .null,
            ]
        }
        let ranked = rows.count - ordered.filter { $0.rank == nil }.count
        let few = ordered.filter { $0.status == .fewTrades }.count, failed = ordered.filter { $0.status == .error }.count
        let ran = ordered.count - failed
        var notes = ["Click a row to open its chart; click a heading to sort (again to reverse)."]
        if runs.count < ran {
            notes.append("Charts are embedded for the \(runs.count) best-ranked of the \(ran) symbols that ran "
                         + "(the page keeps at most \(PageData.grouped(Self.embeddedBarsBudget)) embedded bars); every symbol's "
                         + "statistics are in screen.csv.")
        }
        var summary = [["symbols", PageData.grouped(rows.count)], ["ranked by \(rankStat)", PageData.grouped(ranked)]]
        if minTrades > 0 { summary.append(["fewer than \(minTrades) trades", PageData.grouped(few)]) }
        summary.append(["failed", PageData.grouped(failed)])
        let table = PageData.table(id: "summary", title: "Screen", columns: ["", ""], rows: summary, align: ["left", "right"],
                                   notes: notes, placement: .main)
        // The series left out and the ones read resampled, with why, as screen.md lists them.
        let noteTables: [JSONValue] = SeriesNote.groups(seriesNotes).map { kind, some in
            PageData.table(id: kind.rawValue, title: SeriesNote.heading(kind), columns: ["series", "why"],
                           rows: some.map { [$0.series, $0.reason] }, align: ["left", "left"], placement: .main)
        }
        var subtitle = ["\(PageData.grouped(rows.count)) symbols", "ranked by \(rankStat)"]
        if !parameters.isEmpty { subtitle.append(parameters.map { "\($0.name)=\($0.text)" }.joined(separator: " ")) }
        let screen: JSONValue = [
            "rank": .string(rankStat.name),
            "columns": .array(columns.map { stat in
                ["key": .string(stat.name), "label": .string(PageData.label(stat)), "unit": .string(PageData.unit(stat.unit)),
                 "better": .string(stat.higherIsBetter ? "higher" : "lower")]
            }),
            "rows": .array(rows),
        ]
        return PageData.page(.screen, title: "Screen: \(strategy)", subtitle: subtitle, manifest: manifest.plainRows,
                             tables: [table] + noteTables, members: [(key: "screen", value: screen)])
    }

    /// At most 120 points of an equity curve: the last value of each of 120 equal buckets.
    static func sparkPoints(_ equity: [Double]) -> [Double] {
        let points = 120
        guard equity.count > points else { return equity }
        return (1...points).map { equity[$0 * equity.count / points - 1] }
    }
}
