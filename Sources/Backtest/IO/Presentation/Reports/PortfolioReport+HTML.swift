import BacktestAnalysis
import BacktestCore

extension PortfolioReport {
    /// `report.html`: `bt run`'s page (kind `run`) of the account, statistics, exits, cost
    /// table and the portfolio's statistics beside it, every round trip and every symbol's
    /// contribution below. With several symbols the chart is the portfolio's own
    /// (`chartData`): its equity on top with the equal-weight buy and hold and every round trip
    /// marked on it, its drawdown, the trades' returns. A portfolio of one symbol is that
    /// symbol's run: its candles with the trades and fills at their prices, then the equity.
    public func html() -> String { html(manifest) }

    func html(_ manifest: RunManifest) -> String {
        let chart = portfolio.symbols.count == 1 ? nil : chartData
        guard case .object(var members) = run.pageData(manifest, indicators: [], chart: chart) else {
            preconditionFailure("a page's data is an object")
        }
        let figureRows = self.figureRows
        let portfolioTable = PageData.table(id: "portfolio", title: "Portfolio", columns: figureRows[0],
                                            rows: Array(figureRows.dropFirst()), align: ["left", "right"])
        let symbols = portfolioStats.contributions.sorted { ($0.pnl, $1.symbol) > ($1.pnl, $0.symbol) }
        let symbolTable = PageData.table(
            id: "symbols", title: "Symbols", columns: ["symbol", "trades", "pnl", "contribution", "costs", "of costs", "held"],
            rows: symbols.map { c in
                [c.symbol, String(c.trades), Stat.Unit.cash.formatted(c.pnl, coin: run.inCoin),
                 Stat.Unit.fraction.formatted(portfolioStats.contribution(c)), Stat.Unit.cash.formatted(portfolioStats.costs(c), coin: run.inCoin), Stat.Unit.fraction.formatted(portfolioStats.costShare(c)),
                 Stat.Unit.fraction.formatted(portfolioStats.exposure(c))]
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

    /// The chart of a portfolio of several symbols (their prices share no scale, so there are no
    /// candles): the clock as the time axis; the equity (`f64`) with the equal-weight buy and
    /// hold as its `benchmark` values, the drawdown episodes of the statistics and the number of
    /// symbols held as the `position`; every round trip in the order they closed, with its symbol
    /// and how it ended (rows of the clock, the symbol's prices).
    var chartData: JSONValue {
        let p = portfolio
        let series: JSONValue = ["symbol": .string("Portfolio"), "timeframe": run.timeframe.map { .string($0) } ?? .null,
                                 "time_deltas": PageData.timeDeltas(p.time)]
        let equity: JSONValue = [
            "initial_cash": .number(p.initialCash), "values": PageData.f64(p.equity),
            "drawdowns": PageData.drawdowns(run.drawdowns),
            "benchmark": PageData.f64(p.benchmark), "benchmark_label": .string("Equal-weight buy & hold"),
            "position": .array(p.positions.map { .int($0) }), "position_label": .string("Positions held"),
            "label": .string("Portfolio"),
        ]
        let trades = PageData.trades(p.trades.map(\.trade), symbols: p.trades.map { p.symbols[$0.symbol] })
        return ["series": series, "equity": equity, "trades": trades]
    }
}
