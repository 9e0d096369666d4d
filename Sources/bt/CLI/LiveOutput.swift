import Backtest
import Foundation

/// `bt live`'s running output: one line on stderr per warm-up, connection, closed bar, fill,
/// disconnect, resync and skipped frame (the dashboard's fallback, and what a log keeps).
/// Frames skipped for the same reason are reported once per 100 after the first 10.
final class LiveLines {
    let symbol: String
    private var skippedLines = 0

    init(symbol: String) { self.symbol = symbol }

    func report(_ event: LiveEvent) {
        switch event {
        case .warmUp(let bars, let stored):
            Diagnostics.line("live \(symbol): warm-up loaded \(bars) new bar\(bars == 1 ? "" : "s") (\(stored) stored)")
        case .resumed(let journal, let fills):
            Diagnostics.line("live \(symbol): resuming journal '\(journal)' (\(fills) fill\(fills == 1 ? "" : "s") so far)")
        case .connected(let address):
            Diagnostics.line("live \(symbol): connected to \(address)")
        case .synced(let id):
            Diagnostics.line("live \(symbol): book synced at update \(id)")
        case .bar(let bar, let source):
            let from = source == .trades ? "\(bar.trades) trade\(bar.trades == 1 ? "" : "s")" : "the exchange's kline"
            Diagnostics.line("bar \(UTCTime.iso(bar.time)) o=\(NumberText.shortest(bar.open)) h=\(NumberText.shortest(bar.high)) "
                             + "l=\(NumberText.shortest(bar.low)) c=\(NumberText.shortest(bar.close)) "
                             + "v=\(NumberText.shortest(bar.volume)) (\(from))")
        case .fill(let f):
            Diagnostics.line("fill \(UTCTime.iso(f.time)) \(f.side.rawValue) \(NumberText.shortest(f.quantityFilled)) at "
                             + "\(NumberText.shortest(f.vwap)) fee \(NumberText.shortest(f.fee))"
                             + (f.isPartial ? " (partial of \(NumberText.shortest(f.quantityAsked)))" : ""))
        case .disconnected(let reason, let wait, let attempt):
            Diagnostics.line("live \(symbol): disconnected (\(reason)); reconnecting in \(String(format: "%.1f", wait)) s "
                             + "(attempt \(attempt))")
        case .gap(let expected):
            Diagnostics.line("live \(symbol): depth stream gap (expected update \(expected)): resyncing the book")
        case .skipped(let rejection):
            skippedLines += 1
            if skippedLines <= 10 || skippedLines % 100 == 0 {
                Diagnostics.line("warning: skipped a frame: \(rejection.reason)"
                                 + (skippedLines == 10 ? " (further ones are counted in the summary)" : ""))
            }
        case .warning(let text):
            Diagnostics.line("warning: " + text)
        }
    }
}

/// The summary `bt live` prints on stdout when the session ends.
enum LiveSummaryText {
    static func json(_ s: LiveSummary, replay: String) -> JSONValue { s.json(replay: replay) }

    static func text(_ s: LiveSummary, replay: String) -> String {
        var out = "live \(s.symbol) \(s.interval.rawValue) from \(UTCTime.iso(s.startTime))"
            + (s.journal.map { " (journal '\($0)')" } ?? "") + String(format: ", %.0f s\n", s.seconds)
        out += "bars: \(s.bars) (\(s.barsFromKlines) from klines, \(s.barsDropped) left out)\n"
        out += "fills: \(s.fills.count), trades: \(s.result?.trades.count ?? 0)"
        if let r = s.result {
            out += ", equity \(NumberText.shortest(r.finalEquity)) from \(NumberText.shortest(r.initialCash)) "
                + String(format: "(%+.2f%%)", (r.finalEquity / r.initialCash - 1) * 100)
        }
        out += "\n"
        for f in s.fills {
            out += "  \(UTCTime.iso(f.time)) \(f.side.rawValue) \(NumberText.shortest(f.quantityFilled)) at \(NumberText.shortest(f.vwap))\n"
        }
        if let stats = s.stats {
            let shown: [Metric] = [.totalReturn, .sharpe, .maxDrawdown, .winRate]
            out += "stats: " + shown.map { "\($0.name) \(stats.stat($0).formatted)" }.joined(separator: ", ") + "\n"
        }
        out += "stream: \(s.messages) messages, \(s.trades) trades, \(s.depthUpdates) depth updates, \(s.reconnects) reconnects, "
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
