import BacktestCore

/// The funding settlements a USD-M session sees in the mark price stream, as the funding rows a
/// batch run settles (`FundingRate`, docs/design/orders.md "Funding").
///
/// Each `markPriceUpdate` names the next funding time `T` with the rate announced for it. The
/// row of a settlement at `T` is its time, and the rate and mark price of the last update
/// naming `T` with an event time at or before `T` (the mark at, or just before, the
/// settlement). It is final once the stream has passed `T`: an update (or a trade) dated after
/// `T`, or an update at `T` naming a later funding time. An update naming another time while
/// still before `T` (the exchange moved its schedule) replaces the settlement waited for; one
/// naming a time at or before the last row recorded (or before its own time) is passed over, so
/// rows come once, in time order, across reconnects and resumes.
package struct LiveFunding: Sendable {
    /// The settlement waited for, with the last update naming it.
    private var pending: FundingRate?
    /// The time of the last row recorded (a resumed session's stored rows included), UTC ms.
    package private(set) var lastRecordedMs: Int64

    /// - Parameter lastRecordedMs: the last stored row's time; settlements at or before it are not recorded again.
    package init(lastRecordedMs: Int64 = .min) {
        self.lastRecordedMs = lastRecordedMs
    }

    /// Takes one update; returns the row of the settlement it shows passed, if any.
    package mutating func receive(_ update: MarkPriceUpdate) -> FundingRate? {
        var done: FundingRate?
        if let p = pending, update.eventMs > p.timeMs || (update.eventMs == p.timeMs && update.nextFundingMs > p.timeMs) {
            done = settle()
        }
        if update.eventMs <= update.nextFundingMs, update.nextFundingMs > lastRecordedMs {
            pending = FundingRate(timeMs: update.nextFundingMs, rate: update.rate, markPrice: update.markPrice)
        }
        return done
    }

    /// The row of the settlement waited for when `timeMs` (a trade's time, UTC ms) is after it.
    package mutating func passed(_ timeMs: Int64) -> FundingRate? {
        guard let p = pending, timeMs > p.timeMs else { return nil }
        return settle()
    }

    private mutating func settle() -> FundingRate? {
        guard let row = pending else { return nil }
        pending = nil
        lastRecordedMs = row.timeMs
        return row
    }
}
