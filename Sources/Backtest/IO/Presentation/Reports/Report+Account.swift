import BacktestAnalysis
import BacktestCore

/// A margin account's figures as report.md and report.html show them: the account, its margin
/// use (the largest leverage and the smallest margin ratio), liquidations, funding paid and
/// received, interest; the liquidated trades; leverage and funding over time, in ten equal spans
/// of bars. Every cell is formatted here, once, for both.
struct AccountFigures {
    /// The spans the run is split into.
    static let spans = 10

    /// `spot, 3x cross margin, mmr 25%`.
    var account: String
    var summary: [[String]] = []
    /// Why orders stopped, when the account's equity was gone.
    var stopped: String?
    static let liquidationColumns = ["liquidated", "side", "quantity", "entry price", "liquidation price", "pnl"]
    static let liquidationAlign = ["left", "left", "right", "right", "right", "right"]
    var liquidations: [[String]] = []
    /// Empty for a run shorter than `spans` bars.
    var overTimeColumns: [String] = []
    var overTimeAlign: [String] { overTimeColumns.indices.map { $0 == 0 ? "left" : "right" } }
    var overTime: [[String]] = []
    /// What the over-time table shows.
    var overTimeNote = ""

    /// nil for a cash account.
    init?(_ result: BacktestResult, tradesShown: Int) {
        guard let account = result.account else { return nil }
        let c = result.candles
        let perp = account.paysFunding
        self.account = account.description
        // Coins (an inverse contract's account) with 8 decimals, as exchanges show them; cash with 2.
        let digits = account.currency == nil ? 2 : 8
        let paid = account.fundingFlows.filter { $0.amount > 0 }.reduce(0) { $0 + $1.amount }
        let received = account.fundingFlows.filter { $0.amount < 0 }.reduce(0) { $0 - $1.amount }
        let leverage = (0..<c.count).map { Stats.positionShare(result, at: $0) ?? 0 }
        summary = [["largest leverage at a close", Stat.maxLeverage.formatted(leverage.max() ?? 0)],
                   ["smallest margin ratio (backing equity / maintenance)", Stat.minMarginRatio.formatted(account.minMarginRatio)],
                   ["liquidations", String(account.liquidations)]]
        if perp {
            summary += [["funding paid", Format.fixed(paid, digits)], ["funding received", Format.fixed(received, digits)],
                        ["funding, net paid", Format.fixed(account.fundingPaid, digits)]]
        }
        summary.append(["interest paid", Format.fixed(account.interestPaid, digits)])
        stopped = account.stoppedAt.map { "Equity was 0 or below after the liquidation at \(UTCTime.iso(c.time[$0])): no order after it." }
        liquidations = result.trades.filter { $0.exitKind == .liquidation }.prefix(tradesShown).map { t in
            [UTCTime.iso(t.exitTime), t.side.rawValue, Format.fixed(t.quantity, 4), Format.fixed(t.entryPrice, 4),
             Format.fixed(t.exitPrice, 4), Format.fixed(t.pnl, digits)]
        }
        guard c.count >= Self.spans else { return }
        overTimeNote = "The run in \(Self.spans) equal spans of bars: the largest leverage at a close"
            + (perp ? " and the funding settled (net paid)" : "") + "."
        overTimeColumns = ["from", "largest leverage"] + (perp ? ["funding"] : [])
        overTime = (0..<Self.spans).map { k in
            let range = (k * c.count / Self.spans)..<((k + 1) * c.count / Self.spans)
            var row = [UTCTime.iso(c.time[range.lowerBound]), Stat.maxLeverage.formatted(range.map { leverage[$0] }.max() ?? 0)]
            if perp { row.append(Format.fixed(account.fundingFlows.filter { range.contains($0.bar) }.reduce(0) { $0 + $1.amount }, digits)) }
            return row
        }
    }
}

extension Report {
    /// `## Account` for a margin account (empty for a cash account): `AccountFigures` as tables.
    var accountMarkdown: String {
        guard let figures = AccountFigures(result, tradesShown: tradesShown) else { return "" }
        var md = "\n## Account\n\n\(Markdown.cell(figures.account)).\n\n"
            + Markdown.table(["", "value"], figures.summary, align: ["left", "right"])
        if let stopped = figures.stopped { md += "\n\(stopped)\n" }
        if !figures.liquidations.isEmpty {
            md += "\n" + Markdown.table(AccountFigures.liquidationColumns, figures.liquidations, align: AccountFigures.liquidationAlign)
        }
        guard !figures.overTime.isEmpty else { return md }
        return md + "\n### Over time\n\n\(figures.overTimeNote)\n\n"
            + Markdown.table(figures.overTimeColumns, figures.overTime, align: figures.overTimeAlign)
    }

    /// report.html's tables of a margin account (none for a cash account): `AccountFigures`.
    var accountTables: [JSONValue] {
        guard let figures = AccountFigures(result, tradesShown: tradesShown) else { return [] }
        var tables = [PageData.table(id: "account", title: "Account", columns: ["", "value"], rows: figures.summary,
                                     align: ["left", "right"], notes: [figures.account + "."] + (figures.stopped.map { [$0] } ?? []))]
        if !figures.liquidations.isEmpty {
            tables.append(PageData.table(id: "liquidations", title: "Liquidations", columns: AccountFigures.liquidationColumns,
                                         rows: figures.liquidations, align: AccountFigures.liquidationAlign))
        }
        if !figures.overTime.isEmpty {
            tables.append(PageData.table(id: "account_over_time", title: "Leverage and funding over time", columns: figures.overTimeColumns,
                                         rows: figures.overTime, align: figures.overTimeAlign,
                                         notes: [figures.overTimeNote]))
        }
        return tables
    }
}
