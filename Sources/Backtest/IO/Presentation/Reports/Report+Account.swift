import BacktestAnalysis
import BacktestCore

extension Report {
    /// The spans `accountMarkdown` splits a run into.
    static let accountSpans = 10

    /// `## Account` for a margin account (empty for a cash account): the account, its margin
    /// use (the largest leverage and the smallest margin ratio), liquidations, funding paid and
    /// received, interest; then leverage and funding over time, in ten equal spans of bars.
    var accountMarkdown: String {
        guard let account = result.account else { return "" }
        let c = result.candles
        var md = "\n## Account\n\n\(Markdown.cell(account.description)).\n\n| | value |\n|---|---:|\n"
        let paid = account.fundingFlows.filter { $0.amount > 0 }.reduce(0) { $0 + $1.amount }
        let received = account.fundingFlows.filter { $0.amount < 0 }.reduce(0) { $0 - $1.amount }
        let leverage = (0..<c.count).map { Stats.positionShare(result, at: $0) ?? 0 }
        md += "| largest leverage at a close | \(Stat.maxLeverage.formatted(leverage.max() ?? 0)) |\n"
        md += "| smallest margin ratio (backing equity / maintenance) | \(Stat.minMarginRatio.formatted(account.minMarginRatio)) |\n"
        md += "| liquidations | \(account.liquidations) |\n"
        if account.instrument == .perp {
            md += "| funding paid | \(Format.fixed(paid, 2)) |\n| funding received | \(Format.fixed(received, 2)) |\n"
                + "| funding, net paid | \(Format.fixed(account.fundingPaid, 2)) |\n"
        }
        md += "| interest paid | \(Format.fixed(account.interestPaid, 2)) |\n"
        if let stopped = account.stoppedAt {
            md += "\nEquity was 0 or below after the liquidation at \(UTCTime.iso(c.time[stopped])): no order after it.\n"
        }
        let liquidated = result.trades.filter { $0.exitKind == .liquidation }
        if !liquidated.isEmpty {
            md += "\n| liquidated | side | quantity | entry price | liquidation price | pnl |\n|---|---|---:|---:|---:|---:|\n"
            for t in liquidated.prefix(tradesShown) {
                md += "| \(UTCTime.iso(t.exitTime)) | \(t.side.rawValue) | \(Format.fixed(t.quantity, 4)) | \(Format.fixed(t.entryPrice, 4)) | "
                    + "\(Format.fixed(t.exitPrice, 4)) | \(Format.fixed(t.pnl, 2)) |\n"
            }
        }
        guard c.count >= Self.accountSpans else { return md }
        md += "\n### Over time\n\nThe run in \(Self.accountSpans) equal spans of bars: the largest leverage at a close"
            + (account.instrument == .perp ? " and the funding settled (net paid)" : "") + ".\n\n"
            + "| from | largest leverage |" + (account.instrument == .perp ? " funding |" : "") + "\n"
            + "|---|---:|" + (account.instrument == .perp ? "---:|" : "") + "\n"
        for k in 0..<Self.accountSpans {
            let range = (k * c.count / Self.accountSpans)..<((k + 1) * c.count / Self.accountSpans)
            let most = range.map { leverage[$0] }.max() ?? 0
            md += "| \(UTCTime.iso(c.time[range.lowerBound])) | \(Stat.maxLeverage.formatted(most)) |"
            if account.instrument == .perp {
                let flow = account.fundingFlows.filter { range.contains($0.bar) }.reduce(0) { $0 + $1.amount }
                md += " \(Format.fixed(flow, 2)) |"
            }
            md += "\n"
        }
        return md
    }
}
