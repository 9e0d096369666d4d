import BacktestAnalysis
import BacktestCore

extension PortfolioReport {
    /// `report.html`: `bt run`'s page (kind `run`) of the account: the equal-weight buy and hold
    /// of the symbols as the price, the portfolio's equity and drawdown over it, statistics,
    /// cost table and the portfolio's figures beside it, and every symbol's contribution below.
    /// Trades are left off the chart (their prices are the symbols', not the benchmark's); they
    /// are in `trades.csv`.
    public func html() -> String { html(manifest) }

    func html(_ manifest: RunManifest) -> String {
        var account = run
        account.result.trades = []
        account.result.fills = []
        guard case .object(var members) = account.pageData(manifest, indicators: []) else {
            preconditionFailure("a page's data is an object")
        }
        let figureRows = self.figureRows
        let portfolioTable = PageData.table(id: "portfolio", title: "Portfolio", columns: figureRows[0],
                                            rows: Array(figureRows.dropFirst()), align: ["left", "right"])
        let symbols = figures.contributions.sorted { ($0.pnl, $1.symbol) > ($1.pnl, $0.symbol) }
        let symbolTable = PageData.table(
            id: "symbols", title: "Symbols", columns: ["symbol", "trades", "pnl", "contribution", "costs", "of costs", "held"],
            rows: symbols.map { c in
                [c.symbol, String(c.trades), Stat("", c.pnl, .cash).formatted, Stat("", figures.contribution(c), .fraction).formatted,
                 Stat("", figures.costs(c), .cash).formatted, Stat("", figures.costShare(c), .fraction).formatted,
                 Stat("", figures.exposure(c), .fraction).formatted]
            },
            align: ["left", "right", "right", "right", "right", "right", "right"],
            notes: ["Contribution: the symbol's PnL (fees, spread and impact paid) over the initial cash; the contributions add up "
                    + "to the total return. Held: the share of bars at whose close the symbol was held."],
            placement: .main)
        for (i, member) in members.enumerated() where member.key == "tables" {
            guard case .array(let tables) = member.value else { continue }
            members[i].value = .array([portfolioTable] + tables + [symbolTable])
        }
        for (i, member) in members.enumerated() where member.key == "title" { members[i].value = .string(title) }
        return PageData.render(.object(members), title: title, kind: .run)
    }
}
