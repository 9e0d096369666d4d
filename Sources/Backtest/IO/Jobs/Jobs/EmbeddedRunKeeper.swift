import BacktestAnalysis
import BacktestCore
import BacktestPresentation
import Foundation

/// The runs a screen's page may embed, kept as the symbols finish so the page draws them
/// without running them again.
///
/// The page embeds every symbol that ran while their bars total at most
/// `ScreenReport.embeddedBarsBudget`, else the first `embeddedRowsBeyondBudget` in report order
/// (`Screen.precedes`). The keeper holds every run until the bars offered pass the budget, then
/// only the best that many: memory stays within the budget plus those runs, as the page does. A
/// run it misses (rows tied on everything) is run again by `ScreenRun.write`, to the same page.
final class EmbeddedRunKeeper: @unchecked Sendable {
    private let screen: Screen
    private let lock = NSLock()
    private var kept: [(row: Screen.Row, run: ChartedRun)] = []
    private var bars = 0

    init(screen: Screen) {
        self.screen = screen
    }

    /// Called from the screen's worker threads with a row that ran.
    @Sendable func offer(_ row: Screen.Row, _ result: BacktestResult, _ stats: Stats) {
        let run = ChartedRun(result, drawdowns: stats.drawdowns ?? DrawdownEpisodes(result))
        lock.lock()
        defer { lock.unlock() }
        bars += row.bars
        kept.append((row, run))
        let limit = ScreenReport.embeddedRowsBeyondBudget
        if bars > ScreenReport.embeddedBarsBudget, kept.count > limit {
            kept.sort { screen.precedes($0.row, $1.row) }
            kept.removeLast(kept.count - limit)
        }
    }

    /// The runs kept, by series (`Screen.Row.series`).
    var runs: [String: ChartedRun] {
        lock.lock()
        defer { lock.unlock() }
        var out: [String: ChartedRun] = [:]
        for k in kept { out[k.row.series] = k.run }
        return out
    }
}
