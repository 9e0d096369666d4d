import BacktestAnalysis
import BacktestCore

/// The terminal text of a run (`bt run`, and the account of `bt portfolio`) without its chart.
package enum RunSummaryText {
    /// That most orders were rejected when they were, warnings (then a blank line), `headline`,
    /// the rules as written, where the spread came from, the gross-to-net cost split and the
    /// statistics with their notes, the trades counted by how they ended and the Monte Carlo.
    package static func summary(_ report: Report, headline: String, rules: [RunParameter]) -> String {
        let rejected = report.rejectionHeadline.map { [$0.prefix(1).uppercased() + $0.dropFirst()] } ?? []
        let top = rejected + report.warningLines
        var out = top.map { $0 + "\n" }.joined() + (top.isEmpty ? "" : "\n") + headline
        for rule in rules { out += "\(rule.name): \(rule.text)\n" }
        if let line = report.spreadLine { out += line + "\n" }
        out += "\n" + TextTable.render(report.costSplitRows, rightAligned: [1, 2, 3])
        out += "\n" + TextTable.render(report.statRows, rightAligned: [1])
        for note in report.notes { out += note + "\n" }
        if let exits = report.exitsLine { out += exits + "\n" }
        if let rows = report.monteCarloRows, let note = report.monteCarloNote {
            out += "\n" + TextTable.render(rows, rightAligned: [1, 2, 3]) + note + "\n"
        }
        return out
    }

    /// A blank line, the cost table and the break-even fee; empty without a cost table.
    package static func costs(_ report: Report) -> String {
        guard let rows = report.costRows, let breakEven = report.breakEvenText else { return "" }
        return "\n" + TextTable.render(rows, rightAligned: [0, 1, 2, 3, 4, 5]) + breakEven + "\n"
    }

    /// The portfolio's figures and each symbol's contribution (the largest and smallest
    /// `symbolsShown`), each after a blank line.
    package static func portfolio(_ report: PortfolioReport) -> String {
        "\n" + TextTable.render(report.figureRows, rightAligned: [1])
            + "\n" + TextTable.render(report.symbolRows, rightAligned: Set(1..<7))
    }

    /// What `bt run` prints above its equity chart: `summary` under the report's headline, then `costs`.
    package static func text(_ report: Report, rules: [RunParameter]) -> String {
        summary(report, headline: report.headline, rules: rules) + costs(report)
    }

    /// What `bt portfolio` prints above its equity chart: the account's `summary` under the
    /// portfolio's headline, `portfolio`, where to find every symbol when not all are shown, `costs`.
    package static func text(_ report: PortfolioReport, rules: [RunParameter]) -> String {
        let count = report.portfolio.symbols.count
        return summary(report.run, headline: report.headline, rules: rules) + portfolio(report)
            + (count > 2 * report.symbolsShown ? "The \(report.symbolsShown) largest and smallest contributions of \(count) symbols "
                + "(all in --json and the report's symbols.csv).\n" : "")
            + costs(report.run)
    }
}
