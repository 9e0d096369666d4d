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
        guard var line = LiveEventText.line(event) else { return }
        if case .skipped = event, skippedLines == 10 { line += " (further ones are counted in the summary)" }
        Diagnostics.line(line)
    }
}
