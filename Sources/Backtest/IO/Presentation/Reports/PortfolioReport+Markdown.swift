import BacktestAnalysis
import BacktestCore
import Foundation

extension PortfolioReport {
    func markdown() throws -> String { try markdown(manifest) }

    /// `report.md`: manifest, warnings, gross and net, statistics, the portfolio's statistics,
    /// contributions by symbol, the cost table, the last round trips, charts.
    func markdown(_ manifest: RunManifest) throws -> String {
        var md = "# \(Markdown.cell(title))\n\n## Run\n\n" + manifest.markdown
        if !portfolio.warnings.isEmpty {
            md += "\n## Warnings\n\n" + portfolio.warnings.map { "- " + Markdown.cell($0.message) + "\n" }.joined()
        }
        md += "\n## Gross and net\n\nWhat the same fills would have made at their reference prices without fees, "
            + "and what fees, the half spread and impact (the rest of the slippage) took.\n\n"
        md += table(run.costSplitRows, align: "|---|---:|---:|---:|")
        md += "\n## Statistics\n\nOf the account as one run; buy and hold is the equal-weight one of the symbols.\n\n"
        md += table(run.statRows, align: "|---|---:|")
        for note in run.notes { md += "\n" + Markdown.cell(note) + "\n" }
        md += run.exitsMarkdown
        md += run.monteCarloMarkdown
        md += "\n## Portfolio\n\n" + table(figureRows, align: "|---|---:|")
        md += "\nExposure: the value of the positions over equity at each bar's close. Turnover: notional traded one way "
            + "(half of all buys and sells) over the mean equity.\n"

        md += "\n## Contributions by symbol\n\nEach symbol's PnL (fees, spread and impact paid, open positions at their "
            + "last close) over the initial cash: the contributions add up to the total return.\n\n"
        md += table(symbolRows, align: "|---|---:|---:|---:|---:|---:|---:|")
        if !shownContributions.worst.isEmpty {
            md += "\nThe \(symbolsShown) largest and \(symbolsShown) smallest of \(portfolioStats.contributions.count); every symbol is in `symbols.csv`.\n"
        }

        if let rows = run.costRows, let breakEven = run.breakEvenText {
            md += "\n## Cost sensitivity\n\nThe same portfolio with fees and depth impact scaled.\n\n"
            md += table(rows, align: "|---:|---:|---:|---:|---:|---:|") + "\n" + breakEven + "\n"
        }

        md += "\n## Trades\n\n" + tradesMarkdown()
        md += "\n## Charts\n\n![Equity and drawdown](equity.svg)\n\n![Exposure and positions](exposure.svg)\n\n"
        md += Markdown.fenced(chart: try EquityChart.drawing(time: portfolio.time, equity: portfolio.equity, initial: portfolio.initialCash,
                                                             drawdown: run.drawdowns.curve, size: run.chartSize))
        md += "\nFiles: `equity.csv` (time, cash, positions, position value, exposure, equity, drawdown, benchmark), "
            + "`positions.csv` (every holding at every bar), `fills.csv` and `trades.csv` (with their symbols), "
            + "`symbols.csv` (contributions), `stats.csv`, `stats.json`.\n"
        return md
    }

    /// A markdown table of `rows` (header first), every cell escaped.
    private func table(_ rows: [[String]], align: String) -> String {
        rows.enumerated().map { i, row in
            "| " + row.map(Markdown.cell).joined(separator: " | ") + " |\n" + (i == 0 ? align + "\n" : "")
        }.joined()
    }

    /// The first and last round trips (as `bt run`'s report shows them), with their symbols.
    private func tradesMarkdown() -> String {
        let trades = portfolio.trades
        guard !trades.isEmpty else { return "No trades.\n" }
        let shown = run.tradesShown
        var md = "| # | symbol | entry | exit | exit kind | bars | entry price | exit price | pnl | return |\n"
            + "|---:|---|---|---|---|---:|---:|---:|---:|---:|\n"
        let indices: [Int] = trades.count <= 2 * shown ? Array(trades.indices)
            : Array(0..<shown) + Array((trades.count - shown)..<trades.count)
        for (k, i) in indices.enumerated() {
            if k == shown && trades.count > 2 * shown { md += "| ... | | | | | | | | | |\n" }
            let pt = trades[i], t = pt.trade
            md += "| \(i + 1) | \(Markdown.cell(portfolio.symbols[pt.symbol])) | \(UTCTime.iso(t.entryTime)) | "
                + "\(UTCTime.iso(t.exitTime))\(t.isOpen ? " (open)" : "") | \(t.exitKind.rawValue) | \(t.barsHeld) | "
                + String(format: "%.4f | %.4f | ", t.entryPrice, t.exitPrice) + Stat.Unit.cash.formatted(t.pnl, coin: run.inCoin)
                + String(format: " | %.2f%% |\n", t.returnFraction * 100)
        }
        return md + "\n\(trades.count) round trips in all; every one is in `trades.csv`.\n"
    }
}
