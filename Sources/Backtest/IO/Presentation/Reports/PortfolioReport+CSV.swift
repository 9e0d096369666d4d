import BacktestAnalysis
import BacktestCore

extension PortfolioReport {
    /// One row per bar of the portfolio clock: `time, cash, positions` (symbols held),
    /// `position_value` (Σ |quantity × close|), `exposure` (position value / equity), `equity`,
    /// `drawdown`, `benchmark` (the equal-weight buy and hold).
    func equityCSVBytes() -> [UInt8] {
        let p = portfolio
        let dd = run.drawdowns.curve
        var csv = CSVWriter(header: ["time", "cash", "positions", "position_value", "exposure", "equity", "drawdown", "benchmark"],
                            reservingRows: p.time.count, bytesPerRow: 100)
        for i in p.time.indices {
            let exposure = p.equity[i] > 0 ? p.positionValue[i] / p.equity[i] : .nan
            csv.time(p.time[i])
            csv.number(p.cash[i])
            csv.integer(p.positions[i])
            csv.number(p.positionValue[i])
            csv.number(exposure)
            csv.number(p.equity[i])
            csv.number(dd[i])
            csv.number(p.benchmark[i])
            csv.endRow()
        }
        return csv.bytes
    }

    /// Every position held at a bar's close, one row per bar and symbol held (tidy for pandas):
    /// `time, symbol, quantity, close, value`; `close` is the symbol's last close at or before
    /// the bar (a symbol without a bar then is valued at its last close). At each bar the values
    /// plus `equity.csv`'s cash make its equity.
    /// - Complexity: O(rows x symbols held + fills + bars of all symbols).
    func positionsCSVBytes() -> [UInt8] {
        let p = portfolio
        var quantity = [Double](repeating: 0, count: p.symbols.count)
        var bar = [Int](repeating: -1, count: p.symbols.count)  // each symbol's last bar at or before the row
        var held = Set<Int>()
        var next = 0
        var csv = CSVWriter(header: ["time", "symbol", "quantity", "close", "value"])
        let names = p.symbols.map(CSV.text)
        for row in p.time.indices {
            while next < p.fills.count && p.fills[next].fill.index <= row {
                let f = p.fills[next]
                quantity[f.symbol] += f.fill.side == .buy ? f.fill.quantityFilled : -f.fill.quantityFilled
                if quantity[f.symbol] == 0 { held.remove(f.symbol) } else { held.insert(f.symbol) }
                next += 1
            }
            for j in held.sorted() {
                let time = p.candles[j].time
                while bar[j] + 1 < time.count && time[bar[j] + 1] <= p.time[row] { bar[j] += 1 }
                let close = bar[j] >= 0 ? p.candles[j].close[bar[j]] : .nan
                csv.time(p.time[row])
                csv.literal(names[j])   // escaped above, once per symbol
                csv.number(quantity[j])
                csv.number(close)
                csv.number(quantity[j] * close)
                csv.endRow()
            }
        }
        return csv.bytes
    }

    /// Every fill with its symbol: `time, index` (row of the clock), `symbol, bar` (the symbol's
    /// own bar), then `bt run`'s columns.
    func fillsCSV() -> String {
        var s = CSV.row(["time", "index", "symbol", "bar", "side", "reference_price", "vwap", "slippage_bps", "quantity_asked",
                         "quantity_filled", "fee", "spread_cost", "impact_cost", "partial"])
        for pf in portfolio.fills {
            let f = pf.fill
            s += CSV.row([UTCTime.iso(f.time), String(f.index), CSV.text(portfolio.symbols[pf.symbol]), String(pf.bar),
                          CSV.text(f.side.rawValue), CSV.number(f.referencePrice), CSV.number(f.vwap), CSV.number(f.slippageBps),
                          CSV.number(f.quantityAsked), CSV.number(f.quantityFilled), CSV.number(f.fee), CSV.number(f.spreadCost),
                          CSV.number(f.impactCost), f.isPartial ? "true" : "false"])
        }
        return s
    }

    /// Every round trip with its symbol, in the order they closed (open ones last): rows of the
    /// clock and the symbol's own bars, then `bt run`'s columns, the buys and sells in it and how
    /// it ended (`exit_kind`: `rebalance` when the planner rotated it out).
    func tradesCSV() -> String {
        var s = CSV.row(["symbol", "side", "entry_time", "exit_time", "entry_index", "exit_index", "entry_bar", "exit_bar",
                         "bars_held", "quantity", "entry_price", "exit_price", "slippage_bps", "fees", "pnl", "return", "buys",
                         "sells", "is_open", "exit_kind"])
        for pt in portfolio.trades {
            let t = pt.trade
            s += CSV.row([CSV.text(portfolio.symbols[pt.symbol]), CSV.text(t.side.rawValue), UTCTime.iso(t.entryTime),
                          UTCTime.iso(t.exitTime), String(t.entryIndex), String(t.exitIndex), String(pt.entryBar), String(pt.exitBar),
                          String(t.barsHeld), CSV.number(t.quantity), CSV.number(t.entryPrice), CSV.number(t.exitPrice),
                          CSV.number(t.slippageBps), CSV.number(t.fees), CSV.number(t.pnl), CSV.number(t.returnFraction),
                          String(pt.buys), String(pt.sells), t.isOpen ? "true" : "false", t.exitKind.rawValue])
        }
        return s
    }

    /// One row per symbol, in symbol order: what it added to the return and what it cost
    /// (`PortfolioStats.symbolsJSON`'s fields; cash and fractions). `pnl` sums to the
    /// portfolio's net PnL and `contribution` to its total return.
    func symbolsCSV() -> String {
        let f = portfolioStats
        var s = CSV.row(["symbol", "bars", "bars_held", "trades", "wins", "fills", "pnl", "contribution", "fees", "spread",
                         "impact", "costs", "cost_share", "traded", "exposure", "rejected", "skipped_entries"])
        for c in f.contributions {
            s += CSV.row([CSV.text(c.symbol), String(c.bars), String(c.rowsHeld), String(c.trades), String(c.wins), String(c.fills),
                          CSV.number(c.pnl), CSV.number(f.contribution(c)), CSV.number(c.fees), CSV.number(c.spread),
                          CSV.number(c.impact), CSV.number(f.costs(c)), CSV.number(f.costShare(c)), CSV.number(c.traded),
                          CSV.number(f.exposure(c)), String(c.rejected), String(c.skippedEntries)])
        }
        return s
    }
}
