import Foundation

/// Another symbol's bars as a live session holds them: its stored bars at the session's
/// interval, then each bar of its stream once final, in time order. Rules that read the symbol
/// with `@` (`close@ETHUSDT`) follow it bar by bar (`OtherSeriesStream`), each taking the bars
/// that closed at or before the close of the run bar it is at.
///
/// Shared by every copy of a stream (a provisional bar's signals run on a copy): bars are only
/// appended, and each reader keeps its own position, so a copy reads what the original would.
/// The session appends a bar only when it is final (`LiveOtherSymbol`): a bar read at a run
/// bar's close is never changed afterwards, which is what lets the replay read the stored bars.
package final class OtherBarFeed: @unchecked Sendable {
    package let symbol: String
    /// The bars' length: the session's interval.
    package let timeframe: Timeframe
    /// Held around every use of `bars`.
    private let lock = NSLock()
    private var bars: [Candle]

    /// - Parameter history: the symbol's stored bars at `timeframe`, ascending.
    package init(symbol: String, timeframe: Timeframe, history: CandleSeries) {
        self.symbol = symbol
        self.timeframe = timeframe
        bars = (0..<history.count).map { history[bar: $0] }
    }

    /// Appends a final bar, later than the last one held.
    package func append(_ bar: Candle) {
        lock.lock(); defer { lock.unlock() }
        precondition(bars.last.map { bar.time > $0.time } ?? true, "another symbol's bars come in time order")
        bars.append(bar)
    }

    /// The open time of the last bar held (UTC s), nil when none.
    package var lastTime: Int64? {
        lock.lock(); defer { lock.unlock() }
        return bars.last?.time
    }

    /// The bars from index `start` on whose close is at or before `close` (UTC s).
    func bars(from start: Int, closingBy close: Int64) -> ArraySlice<Candle> {
        lock.lock(); defer { lock.unlock() }
        var end = start
        while end < bars.count, timeframe.barEnd(bars[end].time) <= close { end += 1 }
        return bars[min(start, end)..<end]
    }
}
