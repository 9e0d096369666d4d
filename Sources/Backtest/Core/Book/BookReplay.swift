/// Replays recorded L2 events in time order at millisecond precision, keeping the book uncrossed.
///
/// **Stale levels.** A venue's book is never crossed or locked once a millisecond's messages are
/// applied: the matching engine would have traded. A recorded stream can still cross, when the
/// removal of a level was never recorded (an order cancelled between a REST snapshot and the
/// start of the stream, a dropped message). So after the events of each millisecond, while the
/// replayed book is crossed or locked (best bid >= best ask), the touch that was set by the
/// older event is stale and dropped; when one event set both touches, both are dropped. A later
/// event that sets a dropped price again brings it back. The rule never moves a price: fills only
/// ever walk levels that are on the right side of the opposite touch, so a crossed stream cannot
/// give a buy a price below the best bid or a sell one above the best ask.
///
/// - Complexity: O(k log n) per event of k levels; O(log n) per dropped level.
public struct BookReplay: Sendable {
    /// The events, sorted by time.
    public let events: [BookEvent]
    /// The book after every event applied so far (and after the liquidity a fill took).
    public internal(set) var book = OrderBook()
    /// Index of the next event to apply.
    public private(set) var nextEvent = 0
    /// Levels dropped by the stale-level rule so far.
    public private(set) var staleLevelsDropped = 0
    /// Index of the event that last set each resting price, per side.
    private var bidSetBy: [Double: Int] = [:]
    private var askSetBy: [Double: Int] = [:]

    public init(_ events: [BookEvent]) {
        self.events = events
    }

    /// Everything a replay holds besides its events: where it is and the book it made there.
    package struct State: Sendable {
        fileprivate var book: OrderBook
        fileprivate var nextEvent: Int
        fileprivate var staleLevelsDropped: Int
        fileprivate var bidSetBy: [Double: Int]
        fileprivate var askSetBy: [Double: Int]

        /// Index of the next event a replay resumed from it applies.
        package var position: Int { nextEvent }
    }

    /// The replay's state, to resume from later (`init(_:resuming:)`).
    package var state: State {
        State(book: book, nextEvent: nextEvent, staleLevelsDropped: staleLevelsDropped, bidSetBy: bidSetBy, askSetBy: askSetBy)
    }

    /// Whether a replay of `events` may resume from `state`, which applied exactly the events
    /// at or before `throughMs` of a prefix of them: true when the first event it has not
    /// applied is later than that (an event appended at an earlier millisecond would have been
    /// applied by a replay of `events` advanced as far).
    package static func canResume(_ events: [BookEvent], from state: State, throughMs: Int64) -> Bool {
        state.nextEvent <= events.count && (state.nextEvent == events.count || events[state.nextEvent].timeMs > throughMs)
    }

    /// A replay of `events` resumed from `state`, which a replay of the same events up to its
    /// position (a prefix of `events`) reached.
    package init(_ events: [BookEvent], resuming state: State) {
        precondition(state.nextEvent <= events.count, "a replay resumes over the events it came from")
        self.events = events
        book = state.book
        nextEvent = state.nextEvent
        staleLevelsDropped = state.staleLevelsDropped
        bidSetBy = state.bidSetBy
        askSetBy = state.askSetBy
    }

    /// True once at least one event has been applied.
    public var hasState: Bool { nextEvent > 0 }

    /// Time of the next event to apply, nil at the end.
    public var nextTimeMs: Int64? { nextEvent < events.count ? events[nextEvent].timeMs : nil }

    /// Applies every event with a time at or before `timeMs`, dropping stale levels after each
    /// millisecond.
    public mutating func advance(through timeMs: Int64) {
        var applied = false
        while nextEvent < events.count && events[nextEvent].timeMs <= timeMs {
            apply(events[nextEvent], index: nextEvent)
            nextEvent += 1
            if nextEvent == events.count || events[nextEvent].timeMs != events[nextEvent - 1].timeMs {
                uncross()
            }
            applied = true
        }
        if applied { book.checkInvariants() }
    }

    /// Applies the next event; when it is the last of its millisecond, drops stale levels too.
    /// The book after each call is the book as of that event (states inside one millisecond last
    /// no time).
    public mutating func advanceOne() {
        apply(events[nextEvent], index: nextEvent)
        nextEvent += 1
        if nextEvent == events.count || events[nextEvent].timeMs != events[nextEvent - 1].timeMs {
            uncross()
        }
        if nextEvent % 4096 == 0 || nextEvent == events.count { book.checkInvariants() }
    }

    /// Applies the next event only, without the stale-level rule (for counting raw states).
    mutating func applyNext() {
        apply(events[nextEvent], index: nextEvent)
        nextEvent += 1
        if nextEvent % 4096 == 0 || nextEvent == events.count { book.checkInvariants() }
    }

    private mutating func apply(_ event: BookEvent, index: Int) {
        if event.kind == .snapshot {
            book = OrderBook(bids: event.bids, asks: event.asks)
            bidSetBy.removeAll(keepingCapacity: true)
            askSetBy.removeAll(keepingCapacity: true)
            book.visitLevels(.buy) { bidSetBy[$0.price] = index; return true }
            book.visitLevels(.sell) { askSetBy[$0.price] = index; return true }
            return
        }
        for level in event.bids {
            book.setUnchecked(.buy, price: level.price, quantity: level.quantity)
            if level.quantity > 0 { bidSetBy[level.price] = index } else { bidSetBy[level.price] = nil }
        }
        for level in event.asks {
            book.setUnchecked(.sell, price: level.price, quantity: level.quantity)
            if level.quantity > 0 { askSetBy[level.price] = index } else { askSetBy[level.price] = nil }
        }
    }

    /// Drops the older touch while the book is crossed or locked.
    private mutating func uncross() {
        while let bid = book.bestBid, let ask = book.bestAsk, bid >= ask {
            let bidAge = bidSetBy[bid] ?? -1, askAge = askSetBy[ask] ?? -1
            if bidAge <= askAge {
                book.setUnchecked(.buy, price: bid, quantity: 0)
                bidSetBy[bid] = nil
                staleLevelsDropped += 1
            }
            if askAge <= bidAge {
                book.setUnchecked(.sell, price: ask, quantity: 0)
                askSetBy[ask] = nil
                staleLevelsDropped += 1
            }
        }
    }
}

/// What a recorded stream looks like when replayed as it is: for the import warning.
public struct BookStreamCheck: Sendable, Equatable {
    /// Update events after which the book, replayed without dropping anything, is crossed or
    /// locked (best bid >= best ask).
    public var crossedUpdates: Int
    /// Update events in the stream.
    public var updates: Int
    /// Levels the stale-level rule of `BookReplay` drops over the whole stream.
    public var staleLevels: Int

    /// Replays `events` twice: as recorded, counting crossed or locked states after each update,
    /// and with the stale-level rule, counting what it drops.
    /// - Complexity: O(total levels · log n).
    public init(_ events: [BookEvent]) {
        var raw = BookReplay(events)
        var crossed = 0, updates = 0
        while raw.nextEvent < events.count {
            let isUpdate = events[raw.nextEvent].kind == .update
            raw.applyNext()
            guard isUpdate else { continue }
            updates += 1
            if let bid = raw.book.bestBid, let ask = raw.book.bestAsk, bid >= ask { crossed += 1 }
        }
        var replay = BookReplay(events)
        replay.advance(through: .max)
        crossedUpdates = crossed
        self.updates = updates
        staleLevels = replay.staleLevelsDropped
    }
}
