import Backtest
import Strategies

/// How `bt run` prints a result: a short human summary or one JSON object.
struct RunReport {
    let strategy: String
    let symbol: String
    let timeframe: String?
    let parameters: StrategyParameters
    let config: ExecutionConfig
    let result: BacktestResult
    var summary: RunSummary { RunSummary(result) }

    func json() -> String {
        let s = summary
        let params = parameters.values.map { name, value -> String in
            let v: String
            switch value {
            case .int(let i): v = String(i)
            case .double(let d): v = JSONText.number(d)
            case .string(let text): v = JSONText.string(text)
            }
            return "\(JSONText.string(name)):\(v)"
        }
        let reasons = s.rejectedByReason.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\(JSONText.string($0.key.rawValue)):\($0.value)" }
        let candles = result.candles
        var out = "{\"strategy\":\(JSONText.string(strategy)),\"symbol\":\(JSONText.string(symbol)),"
        out += "\"timeframe\":\(timeframe.map(JSONText.string) ?? "null"),"
        out += "\"params\":{\(params.joined(separator: ","))},"
        out += "\"execution\":{\"fill\":\(JSONText.string(config.fill.rawValue)),\"depth\":\(JSONText.string(config.depth.name)),"
        out += "\"short\":\(config.allowShort),\"fee_bps\":\(JSONText.number(config.feeBps))},"
        out += "\"bars\":\(candles.count),"
        out += "\"first\":\(candles.time.first.map { JSONText.string(UTCTime.iso($0)) } ?? "null"),"
        out += "\"last\":\(candles.time.last.map { JSONText.string(UTCTime.iso($0)) } ?? "null"),"
        out += "\"stats\":{"
        out += "\"initial_cash\":\(JSONText.number(s.initialCash)),"
        out += "\"final_equity\":\(JSONText.number(s.finalEquity)),"
        out += "\"total_return\":\(JSONText.number(s.totalReturn)),"
        out += "\"trades\":\(s.trades),"
        out += "\"fees_paid\":\(JSONText.number(s.feesPaid)),"
        out += "\"max_drawdown\":\(JSONText.number(s.maxDrawdown)),"
        out += "\"avg_slippage\":\(JSONText.number(s.averageSlippageBps / 10_000)),"
        out += "\"fills\":\(s.fills),"
        out += "\"partial_fills\":\(s.partialFills),"
        out += "\"rejected_orders\":\(s.rejectedOrders),"
        out += "\"rejected_by_reason\":{\(reasons.joined(separator: ","))},"
        out += "\"ambiguous_exit_bars\":\(s.ambiguousExitBars)}}\n"
        return out
    }

    func text() -> String {
        let s = summary
        let params = parameters.values.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        let candles = result.candles
        var head = "\(strategy) \(params) on \(symbol)"
        if let timeframe { head += " \(timeframe)" }
        if let first = candles.time.first, let last = candles.time.last {
            head += ", \(UTCTime.iso(first)) to \(UTCTime.iso(last)) (\(candles.count) bars)"
        }
        head += "\nfill \(config.fill.rawValue), depth \(config.depth.name)\(config.allowShort ? ", shorts allowed" : "")\n\n"
        var rejected = String(s.rejectedOrders)
        if !s.rejectedByReason.isEmpty {
            rejected += " (" + s.rejectedByReason.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")"
        }
        var rows: [[String]] = [
            ["Initial cash", money(s.initialCash)],
            ["Final equity", money(s.finalEquity)],
            ["Total return", percent(s.totalReturn)],
            ["Trades", String(s.trades)],
            ["Fees paid", money(s.feesPaid)],
            ["Max drawdown", percent(-s.maxDrawdown)],
            ["Avg slippage", fixed(s.averageSlippageBps, 2) + " bps"],
            ["Fills", String(s.fills)],
            ["Partial fills", String(s.partialFills)],
            ["Rejected orders", rejected],
        ]
        if config.stopLoss != nil && config.takeProfit != nil {
            rows.append(["SL/TP ambiguous bars", String(s.ambiguousExitBars)])
        }
        return head + TextTable.render(rows)
    }

    private func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (abs(v) * scale).rounded() / scale
        var text = String(Int(r))
        if digits > 0 {
            let frac = Int(((r - r.rounded(.down)) * scale).rounded())
            let f = String(frac)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return (v < 0 && r != 0 ? "-" : "") + text
    }

    private func money(_ v: Double) -> String { fixed(v, 2) }
    private func percent(_ v: Double) -> String { fixed(v * 100, 2) + "%" }
}
