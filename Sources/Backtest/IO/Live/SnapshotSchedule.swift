/// When a live session may ask for the next REST depth snapshot. The first of each sync at
/// once; after one that could not be used (older than the stream, unreadable, an error answer)
/// the wait grows as the reconnection backoff does (`LiveSession.backoff`, capped by
/// `--max-backoff`) but never below `shortestWait`; the server's `Retry-After` and a spent
/// request-weight window (`BinanceFetch.weightWait`) push the next request further. A server
/// that never gives a usable snapshot is then asked about once a second at first and once per
/// cap later, instead of as fast as the loop turns.
package struct SnapshotSchedule: Sendable {
    /// The shortest wait after a refused snapshot, seconds: one snapshot of 1,000 levels weighs
    /// 50 of Binance's 6,000 a minute, so one a second stays within half the limit whatever the cap.
    package static let shortestWait = 1.0
    /// Binance's weight of `GET /api/v3/depth?limit=1000` (limits 501 to 1,000).
    package static let snapshotWeight = 50

    /// The longest wait after refusals, seconds (`--max-backoff`).
    package let cap: Double
    /// Refused snapshots since the last sync.
    package private(set) var refusals = 0
    /// The monotonic time (s) before which no snapshot is asked for.
    package private(set) var notBefore = -Double.infinity

    package init(cap: Double) {
        self.cap = cap
    }

    package func isDue(at now: Double) -> Bool { now >= notBefore }

    /// A snapshot was refused at `now`; returns the wait before the next one.
    @discardableResult
    package mutating func refused(at now: Double, jitter: Double = Double.random(in: 0.5...1)) -> Double {
        refusals += 1
        let wait = max(Self.shortestWait, LiveSession.backoff(attempt: refusals, cap: cap, jitter: jitter))
        postpone(until: now + wait)
        return wait
    }

    /// The book synced: the next sync's first snapshot is asked for at once.
    package mutating func synced() {
        refusals = 0
        notBefore = -Double.infinity
    }

    /// No snapshot before `time` (a `Retry-After`, a weight window), whatever else allows.
    package mutating func postpone(until time: Double) {
        notBefore = max(notBefore, time)
    }
}
