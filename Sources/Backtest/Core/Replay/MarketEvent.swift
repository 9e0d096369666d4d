/// One recorded market event of an event-level replay: a trade print or a depth message.
///
/// Imported books and trades carry one timestamp, the exchange's, so the replay's feed latency
/// is 0: the strategy sees an event at the time the exchange made it. A `bt live` recording also
/// keeps when it received each event (`localNs`), and the strategy sees it then
/// (`LocalMarketView`).
package enum MarketEvent: Equatable, Sendable {
    case trade(TradePrint)
    case book(BookEvent)

    /// UTC milliseconds since the epoch.
    package var timeMs: Int64 {
        switch self {
        case .trade(let t): t.timeMs
        case .book(let b): b.timeMs
        }
    }

    /// When the recorder received it, UTC nanoseconds; nil for imported events.
    package var localNs: Int64? {
        switch self {
        case .trade(let t): t.localNs
        case .book(let b): b.localNs
        }
    }

    /// When the strategy sees it, UTC nanoseconds: its receive time, or its exchange time when it
    /// has none or the receive time is earlier (the two machines' clocks disagree): a feed latency
    /// is never negative.
    package var seenNs: Int64 {
        let exchangeNs = timeMs * 1_000_000
        return Swift.max(localNs ?? exchangeNs, exchangeNs)
    }

    /// `trades` and `books` (each in time order) merged as a replay reads them
    /// (`MergedMarketEvents`).
    package static func merged(trades: [TradePrint], books: [BookEvent]) -> [MarketEvent] {
        var t = trades.makeIterator(), b = books.makeIterator()
        var source = MergedMarketEvents(trades: { t.next() }, books: { b.next() })
        var out: [MarketEvent] = []
        out.reserveCapacity(trades.count + books.count)
        // The sources cannot throw.
        while let e = try? source.next() { out.append(e) }
        return out
    }
}

/// Where a replay reads its events from, in replay order: a whole array in memory, or the
/// store read in chunks (`CandleStore.replayEvents`).
package protocol MarketEventSource {
    /// The next event, nil at the end.
    /// - Throws: what reading the events throws (a damaged store).
    mutating func next() throws -> MarketEvent?
}

/// The events of an array, in its order.
package struct ArrayMarketEvents: MarketEventSource {
    private var iterator: IndexingIterator<[MarketEvent]>
    package init(_ events: [MarketEvent]) { iterator = events.makeIterator() }
    package mutating func next() -> MarketEvent? { iterator.next() }
}

/// Two time-ordered sources merged in time order, the trade prints of a millisecond before its
/// depth messages (as hftbacktest's converters sort them, and as its queue models assume), each
/// source keeping its own order within a millisecond. Each source is a function giving its next
/// item, nil at its end, read once per item (a store read in chunks, an array).
/// - Complexity: O(1) per event.
package struct MergedMarketEvents: MarketEventSource {
    private let nextTradeOf: () throws -> TradePrint?
    private let nextBookOf: () throws -> BookEvent?
    private var nextTrade: TradePrint?
    private var nextBook: BookEvent?
    private var started = false

    package init(trades: @escaping () throws -> TradePrint?, books: @escaping () throws -> BookEvent?) {
        nextTradeOf = trades
        nextBookOf = books
    }

    package mutating func next() throws -> MarketEvent? {
        if !started {
            started = true
            nextTrade = try nextTradeOf()
            nextBook = try nextBookOf()
        }
        if let trade = nextTrade, nextBook.map({ trade.timeMs <= $0.timeMs }) ?? true {
            nextTrade = try nextTradeOf()
            return .trade(trade)
        }
        guard let book = nextBook else { return nil }
        nextBook = try nextBookOf()
        return .book(book)
    }
}
