import Backtest
import Foundation

/// `bt live`'s running output: one line on stderr per warm-up, connection, closed bar, fill,
/// disconnect, resync and skipped frame (the dashboard's fallback, and what a log keeps).
/// Frames skipped for the same reason are reported once per 100 after the first 10.
final class LiveLines {
    private var skippedLines = 0

    func report(_ event: LiveEvent) {
        if case .skipped = event {
            skippedLines += 1
            guard skippedLines <= 10 || skippedLines % 100 == 0 else { return }
        }
        guard var line = Self.text(event) else { return }
        if case .skipped = event, skippedLines == 10 { line += " (further ones are counted in the summary)" }
        Diagnostics.line(line)
    }

    /// The line for `event`; nil for a status (drawn by the dashboard only).
    static func text(_ event: LiveEvent) -> String? {
        switch event {
        case .warmUp(let bars, let stored):
            return "warm-up: loaded \(bars) new bar\(bars == 1 ? "" : "s") (\(stored) stored)"
        case .resumed(let journal, let fills):
            return "resuming journal '\(journal)' (\(fills) fill\(fills == 1 ? "" : "s") so far)"
        case .connected(let address):
            return "connected to \(address)"
        case .synced(let id):
            return "book synced at update \(id)"
        case .bar(let bar, let source):
            let from = source == .trades ? "\(bar.trades) trade\(bar.trades == 1 ? "" : "s")" : "the exchange's kline"
            return "bar \(UTCTime.iso(bar.time)) o=\(NumberText.shortest(bar.open)) h=\(NumberText.shortest(bar.high)) "
                + "l=\(NumberText.shortest(bar.low)) c=\(NumberText.shortest(bar.close)) "
                + "v=\(NumberText.shortest(bar.volume)) (\(from))"
        case .fill(let f):
            return "fill \(UTCTime.iso(f.time)) \(f.side.rawValue) \(NumberText.shortest(f.quantityFilled)) at "
                + "\(NumberText.shortest(f.vwap)) fee \(NumberText.shortest(f.fee))"
                + (f.isPartial ? " (partial of \(NumberText.shortest(f.quantityAsked)))" : "")
        case .disconnected(let reason, let wait, let attempt):
            return "disconnected (\(reason)); reconnecting in \(String(format: "%.1f", wait)) s (attempt \(attempt))"
        case .gap(let expected):
            return "depth stream gap (expected update \(expected)): resyncing the book"
        case .skipped(let rejection):
            return "warning: skipped a frame: \(rejection.reason)"
        case .warning(let text):
            return "warning: " + text
        case .status:
            return nil
        }
    }
}

/// The summary `bt live` prints on stdout when the session ends.
enum LiveSummaryText {
    static func text(_ s: LiveSummary, replay: String) -> String {
        var out = "live \(s.symbol) \(s.interval.rawValue) from \(UTCTime.iso(s.startTime))"
            + (s.journal.map { " (journal '\($0)')" } ?? "") + String(format: ", %.0f s\n", s.seconds)
        out += "bars: \(s.bars) (\(s.barsFromKlines) from klines, \(s.barsDropped) left out)\n"
        out += "fills: \(s.fills.count), trades: \(s.result?.trades.count ?? 0)"
        if let r = s.result {
            out += ", equity \(NumberText.shortest(r.finalEquity)) from \(NumberText.shortest(r.initialCash)) "
                + String(format: "(%+.2f%%)", r.totalReturn * 100)
        }
        out += "\n"
        for f in s.fills {
            out += "  \(UTCTime.iso(f.time)) \(f.side.rawValue) \(NumberText.shortest(f.quantityFilled)) at \(NumberText.shortest(f.vwap))\n"
        }
        if let stats = s.stats {
            let shown: [Stat] = [.totalReturn, .sharpe, .maxDrawdown, .winRate]
            out += "stats: " + shown.map { "\($0.name) \($0.formatted(stats[$0]))" }.joined(separator: ", ") + "\n"
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
