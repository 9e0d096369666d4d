import Backtest
import Foundation

/// The events of a `SyntheticMarket` made `chunk` at a time into a buffer, the making timed
/// apart (`makingNs`), so a benchmark's clock can leave out the cost of the synthetic source and
/// keep only the replay's: the buffer's events are handed out one at a time, as any source's.
/// Memory is one chunk of events, whatever their number; a chunk small enough to stay in the
/// cache, as events made one at a time would be.
struct PrefetchedEvents: MarketEventSource {
    private var market: SyntheticMarket
    private let chunk: Int
    private var buffer: [MarketEvent] = []
    private var index = 0
    /// Time spent making and releasing the events so far, nanoseconds.
    private(set) var makingNs: UInt64 = 0

    init(_ market: SyntheticMarket, chunk: Int = 1024) {
        precondition(chunk > 0, "a chunk holds at least one event")
        self.market = market
        self.chunk = chunk
    }

    mutating func next() -> MarketEvent? {
        if index == buffer.count {
            refill()
            guard !buffer.isEmpty else { return nil }
        }
        defer { index += 1 }
        return buffer[index]
    }

    /// Replaces the buffer's events (released here, inside the making time) with the next chunk.
    @inline(never)
    private mutating func refill() {
        let start = DispatchTime.now().uptimeNanoseconds
        buffer.removeAll(keepingCapacity: true)
        index = 0
        while buffer.count < chunk, let e = market.next() { buffer.append(e) }
        makingNs += DispatchTime.now().uptimeNanoseconds - start
    }
}
