/// The market as the strategy sees it in a replay of a `bt live` recording: each event at its
/// local receive time (`MarketEvent.seenNs`), while the exchange takes it at its exchange time.
/// The book and last print the steps read are this view's, not the exchange's.
///
/// Events arrive in exchange-time order and wait here until a step at or after their local
/// time; they are applied in local-time order (ties in the order they arrived). A step at `t`
/// can see every event it should once the replay has read the events before `t` in exchange
/// time: an event's local time is never before its exchange time (`seenNs`), so none read
/// later has a local time at or before `t`.
/// - Complexity: O(1) amortised per event when the local times come nearly in order (a
///   recording's: one receive clock), O(k) for an event k places out of order.
struct LocalMarketView {
    /// The book and the last print, as an exchange without quotes keeps them.
    private var market: ReplayExchange
    /// Events read and not yet seen, in local-time order from `head`.
    private var waiting: [(ns: Int64, event: MarketEvent)] = []
    private var head = 0

    init(lot: Double) { market = ReplayExchange(queueModel: .riskAverse, lot: lot) }

    /// Takes an event the replay has read; the strategy sees it from its local time on.
    mutating func read(_ event: MarketEvent) {
        let ns = event.seenNs
        waiting.append((ns, event))
        var i = waiting.count - 1
        while i > head, waiting[i - 1].ns > ns {
            waiting.swapAt(i - 1, i)
            i -= 1
        }
    }

    /// What a step at local time `ns` sees, every event seen at or before `ns` applied.
    mutating func state(at ns: Int64, position: Double) -> BookState {
        while head < waiting.count, waiting[head].ns <= ns {
            market.apply(waiting[head].event, at: waiting[head].ns)
            head += 1
        }
        if head > 1024, head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
        return BookState(book: market.book, lastTrade: market.lastTrade, position: position)
    }
}
