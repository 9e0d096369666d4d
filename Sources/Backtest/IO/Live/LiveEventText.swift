import BacktestCore
import Foundation

/// A live session's events as `bt live` writes them, one line each: warm-up, connection,
/// closed bar, fill, funding settlement, disconnect, resync, skipped frame (the dashboard's fallback, and what a log
/// keeps).
package enum LiveEventText {
    /// The line for `event`; nil for a status (drawn by the dashboard only).
    package static func line(_ event: LiveEvent) -> String? {
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
        case .funding(let row):
            return "funding \(UTCTime.isoMs(row.timeMs)) rate \(NumberText.shortest(row.rate))"
                + (row.markPrice.map { " mark \(NumberText.shortest($0))" } ?? "")
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
