import BacktestCore

/// Whether a frame's exchange time is plausible, judged against the exchange's own clock: its
/// server time as last told (`/api/v3/time`) moved on by the monotonic time since, and the
/// stream so far (the latest time admitted). A frame more than `toleranceMs` ahead of both is
/// one no exchange sends (a glitch, a clock run wild): made into a bar it would open a bar in
/// the future, every later trade would count as late, and the stored series would end after
/// every later session's first trade.
///
/// A frame ahead of both is judged again after asking the server's time, so a stream that jumps
/// ahead (a reconnection after a pause, an exchange replayed faster than the wall clock, as the
/// tests' exchange is) is followed. The server is asked at most once per `refreshSeconds`,
/// which starts at `shortestRefresh`, doubles after each answer that leaves a frame implausible
/// (up to `longestRefresh`) and is reset by one that admits it: a stream of implausible frames
/// costs a request of weight 1 every 10 s at most. Frames behind the clock are not judged here:
/// a trade of a bar already held counts as late where bars are built.
package struct ExchangeClock: Sendable {
    /// How far ahead of the exchange's clock a frame may be: its latency and clock skew are
    /// milliseconds; a minute is room to spare and still far short of a bar in the future.
    package static let toleranceMs: Int64 = 60_000
    /// The shortest and longest wait between two requests for the server's time, seconds.
    package static let shortestRefresh = 0.1, longestRefresh = 10.0

    /// The server's time as last told, UTC ms, and the monotonic time it was told at (s).
    private var serverMs: Int64
    private var toldAt: Double
    /// The latest frame time admitted, UTC ms.
    private var streamMs = Int64.min
    /// When the server was last asked (monotonic s), and the wait before asking again.
    private var askedAt: Double
    package private(set) var refreshSeconds = ExchangeClock.shortestRefresh

    /// - Parameters:
    ///   - serverMs: the server's time, UTC ms.
    ///   - now: the monotonic time it was told at, seconds.
    package init(serverMs: Int64, at now: Double) {
        self.serverMs = serverMs
        toldAt = now
        askedAt = now
    }

    /// The exchange's time at monotonic `now` (UTC ms), as its server last told it and the time since.
    package func estimateMs(at now: Double) -> Int64 {
        serverMs.addingReportingOverflow(Int64(max(0, min(now - toldAt, 1e9)) * 1000)).partialValue
    }

    /// Whether a frame at `timeMs` (UTC ms) arriving at monotonic `now` is admitted; `ask` asks the
    /// server's time (UTC ms; nil when no answer came), called only for a frame ahead of what is
    /// known and at most once per `refreshSeconds`.
    package mutating func admit(_ timeMs: Int64, at now: Double, ask: () -> Int64?) -> Bool {
        if isWithin(timeMs, at: now) {
            streamMs = max(streamMs, timeMs)
            return true
        }
        guard now - askedAt >= refreshSeconds else { return false }
        askedAt = now
        if let ms = ask() {
            serverMs = ms
            toldAt = now
        }
        guard isWithin(timeMs, at: now) else {
            refreshSeconds = min(Self.longestRefresh, refreshSeconds * 2)
            return false
        }
        refreshSeconds = Self.shortestRefresh
        streamMs = max(streamMs, timeMs)
        return true
    }

    private func isWithin(_ timeMs: Int64, at now: Double) -> Bool {
        timeMs <= max(estimateMs(at: now), streamMs).addingReportingOverflow(Self.toleranceMs).partialValue
    }
}
