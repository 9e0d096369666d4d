import BacktestAnalysis
import BacktestCore
import Foundation

/// The summary `bt live` prints on stdout when the session ends.
package enum LiveSummaryText {
    package static func text(_ s: LiveSummary, replay: String) -> String {
        var out = "live \(s.symbol) \(s.interval.rawValue) from \(UTCTime.iso(s.startTime))"
            + (s.journal.map { " (journal '\($0)')" } ?? "") + String(format: ", %.0f s\n", s.seconds)
        out += "bars: \(s.bars) (\(s.barsFromKlines) from klines, \(s.barsDropped) left out)\n"
        for o in s.others { out += "  \(o.symbol) (read with @): \(o.bars) bars (\(o.fromKlines) from klines)\n" }
        out += "fills: \(s.fills.count), trades: \(s.result?.trades.count ?? 0)"
        if let r = s.result {
            out += ", equity \(NumberText.shortest(r.finalEquity)) from \(NumberText.shortest(r.initialCash)) "
                + String(format: "(%+.2f%%)", r.totalReturn * 100)
        }
        out += "\n"
        for f in s.fills {
            out += "  \(UTCTime.iso(f.time)) \(f.side.rawValue) \(NumberText.shortest(f.quantityFilled)) at \(NumberText.shortest(f.vwap))\n"
        }
        if let account = s.result?.account, account.instrument == .perp {
            out += "funding: \(s.funding.count) settlement\(s.funding.count == 1 ? "" : "s") recorded, "
                + "\(NumberText.shortest(account.fundingPaid)) paid (net); liquidations: \(account.liquidations)\n"
        }
        if let stats = s.stats {
            let shown: [Stat] = [.totalReturn, .sharpe, .maxDrawdown, .winRate]
            out += "stats: " + shown.map { "\($0.name) \($0.formatted(stats[$0]))" }.joined(separator: ", ") + "\n"
        }
        out += "stream: \(s.messages) messages, \(s.trades) trades, \(s.depthUpdates) depth updates, "
            + (s.markUpdates > 0 ? "\(s.markUpdates) mark updates, " : "") + "\(s.reconnects) reconnects, "
            + "\(s.syncs) book syncs, \(s.gaps) gaps, \(s.lateTrades) late trades"
        let skipped = s.skipped.filter { $0.key != "ignored" }
        if !skipped.isEmpty {
            out += ", skipped " + skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.replacingOccurrences(of: "_", with: " "))" }
                .joined(separator: ", ")
        }
        out += "\n"
        if s.divergences > 0 {
            out += "warning: \(s.divergences) run(s) did not reproduce the journal's fills (bars changed since they were reported)\n"
        }
        for w in s.warnings { out += "warning: \(w)\n" }
        out += "replay: \(replay)\n"
        return out
    }
}
