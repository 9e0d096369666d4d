/// An event-level replay of a quoting strategy against recorded trades and depth: quotes wait
/// in the book behind the queue at their price, and reach it (and are heard from) after a
/// latency, as in hftbacktest.
///
/// **Time.** Market events are read in exchange-time order (`MergedMarketEvents`: the prints of
/// a millisecond before its depth messages); with one timestamp per event the strategy sees an
/// event when the exchange makes it. When the first event read has a local receive time (a
/// `bt live` recording), the strategy sees each event at its local time instead
/// (`LocalMarketView`), while the exchange still takes it at its exchange time. Steps fall at
/// t0 + k x `every` (t0: the exchange time of the first event at or after `startMs`, as
/// hftbacktest starts its clock) while an event with a later exchange time exists; a step sees
/// every event, acknowledgement and fill with a local time at or before it. After the last step
/// the replay runs to the end of the data and hears every answer still on its way. At one instant the exchange applies the
/// market events before the orders that reach it then (as hftbacktest orders them).
///
/// **Quotes.** One working quote per side: kept while its price is unchanged, else cancelled
/// and the new one sent in the same step; a quote not yet acknowledged is left until a later
/// step (hftbacktest refuses to cancel an order whose request is in flight). A side is quoted
/// only while the position after a fill of the quote size, counting the fills seen so far,
/// stays within the maximum; NaN quotes nothing. Quotes are post-only: one that crosses the
/// book the step sees is not sent (counted), one that crosses the book when it arrives is
/// refused by the exchange (counted).
///
/// - Complexity: O(1) per event besides the book's O(log n) per level and the resting quotes
///   (at most a few per side); memory is the book and the messages in flight, whatever the
///   number of events.
package struct EventReplay {
    package let settings: ReplaySettings
    package let bidQuote: QuoteExpression?
    package let askQuote: QuoteExpression?
    /// Whether the result keeps the state at every step (`ReplayResult.trace`, report.html's
    /// chart); off, a step costs nothing more.
    package var tracesSteps = false

    package init(settings: ReplaySettings, bidQuote: QuoteExpression?, askQuote: QuoteExpression?) {
        self.settings = settings
        self.bidQuote = bidQuote
        self.askQuote = askQuote
    }

    /// Replays `events` to their end.
    /// - Throws: what reading `events` throws; `InputError` (`.missingBook`) when no depth
    ///   message falls at or after the start.
    package func run(_ events: inout some MarketEventSource) throws -> ReplayResult {
        var run = Run(settings: settings, bidQuote: bidQuote, askQuote: askQuote)
        if tracesSteps { run.trace = ReplayTrace() }
        guard let first = try events.next() else { return try run.finish() }
        if first.localNs != nil {
            // A recording: the strategy's view waits for each event's local time.
            run.local = LocalMarketView(lot: settings.lot)
            run.local?.read(first)
            run.take(first)
            while let e = try events.next() {
                run.local?.read(e)
                run.take(e)
            }
        } else {
            run.take(first)
            while let e = try events.next() { run.take(e) }
        }
        return try run.finish()
    }

    /// What is sent to the exchange and answered, with when it arrives.
    private enum Request {
        case place(id: Int, side: OrderSide, price: Double, quantity: Double)
        case cancel(id: Int)
    }

    /// A quote as the strategy knows it: sent and not yet acknowledged, working, or being
    /// cancelled. Quotes known to have ended (filled, refused, cancelled) are dropped.
    private enum LocalState { case pendingNew, working, pendingCancel }

    private struct LocalOrder {
        var id: Int
        var price: Double
        var state: LocalState
        /// When the strategy sent it, UTC nanoseconds.
        var sentNs: Int64
    }

    /// A first-in first-out queue of timed messages. A message is never delivered before one
    /// sent earlier: its time is raised to the last waiting message's (as hftbacktest's
    /// `OrderBus` does when the latency varies).
    private struct Inbox<Message> {
        private var items: [(ns: Int64, message: Message)] = []
        private var head = 0
        var nextNs: Int64? { head < items.count ? items[head].ns : nil }
        /// Whether a message is due at or before `ns`.
        func due(through ns: Int64) -> Bool { head < items.count && items[head].ns <= ns }
        /// Appends `message`, due at `ns` or at the last waiting message's time, whichever is
        /// later; returns the time it is due.
        @discardableResult
        mutating func append(_ message: Message, at ns: Int64) -> Int64 {
            let due = head < items.count ? Swift.max(ns, items[items.count - 1].ns) : ns
            items.append((due, message))
            return due
        }
        mutating func pop() -> Message {
            let m = items[head].message
            head += 1
            if head > 1024 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return m
        }
    }

    private struct Run {
        let settings: ReplaySettings
        /// The quotes, evaluated at every step (their series functions sample every step).
        var bidQuote: QuoteExpression?
        var askQuote: QuoteExpression?
        var exchange: ReplayExchange
        var toExchange = Inbox<Request>()
        var toLocal = Inbox<ReplayExchange.Response>()
        /// The quotes not known to have ended: a few (a working quote per side and those being
        /// cancelled), so found by a scan rather than hashed.
        var orders: [LocalOrder] = []
        /// The working quote of each side (not yet done nor being cancelled).
        var bidSlot: Int?
        var askSlot: Int?
        var result = ReplayResult(fills: [], events: 0, steps: 0, ordersSent: 0, cancelsSent: 0, rejectedPostOnly: 0,
                                  notPlacedCrossing: 0, stepsQuotedBid: 0, stepsQuotedAsk: 0, firstMs: 0, lastMs: 0,
                                  finalPosition: 0, cash: 0, finalMid: .nan)
        var nextStepNs: Int64?
        var sawBook = false
        /// The state at every step, when asked (`tracesSteps`).
        var trace: ReplayTrace?
        /// The strategy's view of a recording's events at their local times; nil: the
        /// exchange's book (events without local times).
        var local: LocalMarketView?

        init(settings: ReplaySettings, bidQuote: QuoteExpression?, askQuote: QuoteExpression?) {
            self.settings = settings
            self.bidQuote = bidQuote
            self.askQuote = askQuote
            exchange = ReplayExchange(queueModel: settings.queue, fillModel: settings.fills, lot: settings.lot)
        }

        mutating func take(_ event: MarketEvent) {
            result.events += 1
            let ns = event.timeMs * 1_000_000
            if nextStepNs == nil {
                guard event.timeMs >= (settings.startMs ?? .min) else {
                    // Before the start: the book is built, nothing is quoted.
                    exchange.apply(event, at: ns)
                    _ = exchange.takeAnswers()
                    return
                }
                nextStepNs = ns
                result.firstMs = event.timeMs
            }
            if case .book = event { sawBook = true }
            result.lastMs = event.timeMs
            // The steps before this event (one later exists), then the messages before it.
            while let step = nextStepNs, step < ns {
                deliver(through: step)
                self.step(at: step)
                nextStepNs = step + settings.everyNs
            }
            // Most events find nothing due and make no answer: no call for them.
            if toLocal.due(through: ns - 1) || toExchange.due(through: ns - 1) { deliver(through: ns - 1) }
            exchange.apply(event, at: ns)
            if exchange.hasAnswers { respond(at: ns) }
        }

        mutating func finish() throws -> ReplayResult {
            guard sawBook else {
                throw InputError(.missingBook, "no recorded depth at or after the start of the range")
            }
            deliver(through: .max)
            result.finalMid = exchange.book.mid ?? .nan
            result.trace = trace
            return result
        }

        /// Delivers every message due at or before `ns`, in time order (the strategy's first on
        /// a tie: it changes nothing at the exchange).
        mutating func deliver(through ns: Int64) {
            while true {
                let local = toLocal.nextNs.flatMap { $0 <= ns ? $0 : nil }
                let remote = toExchange.nextNs.flatMap { $0 <= ns ? $0 : nil }
                if let l = local, remote.map({ l <= $0 }) ?? true {
                    hear(toLocal.pop(), at: l)
                } else if let r = remote {
                    let request = toExchange.pop()
                    switch request {
                    case .place(let id, let side, let price, let quantity):
                        exchange.place(id: id, side: side, price: price, quantity: quantity, at: r)
                    case .cancel(let id):
                        exchange.cancel(id: id)
                    }
                    respond(at: r)
                } else {
                    return
                }
            }
        }

        /// Sends the exchange's answers made at `ns` on their way to the strategy.
        mutating func respond(at ns: Int64) {
            guard exchange.hasAnswers else { return }
            let latency = settings.latency.response(exchangeNs: ns)
            for response in exchange.takeAnswers() { toLocal.append(response, at: ns + latency) }
        }

        /// The strategy hears an answer of the exchange.
        mutating func hear(_ response: ReplayExchange.Response, at ns: Int64) {
            switch response {
            case .accepted(let id):
                if let i = index(of: id), orders[i].state == .pendingNew { orders[i].state = .working }
            case .rejected(let id):
                result.rejectedPostOnly += 1
                end(id)
            case .cancelled(let id):
                end(id)
            case .cancelFailed:
                // The quote filled first; its fill was answered before.
                break
            case .filled(let order, let quantity, let exchangeNs, let done):
                // Every execution counts, a partial piece included (hftbacktest 2.4.4's local
                // state counts a partially filled order only by its last piece).
                let sign: Double = order.side == .buy ? 1 : -1
                let fee = order.price * quantity * settings.makerBps / 10_000
                guard let sentNs = index(of: order.id).map({ orders[$0].sentNs }) else {
                    preconditionFailure("a fill is heard before its order's end (answers keep their order)")
                }
                result.finalPosition += sign * quantity
                result.cash -= sign * order.price * quantity + fee
                result.fills.append(ReplayFill(
                    orderID: order.id, side: order.side, price: order.price, quantity: quantity,
                    arrivalNs: order.arrivalNs, exchangeNs: exchangeNs, localNs: ns, maker: true, queueAhead: order.queueAtPlacement,
                    entryLatencyNs: order.arrivalNs - sentNs, responseLatencyNs: ns - exchangeNs, fee: fee))
                if done { end(order.id) }
            }
        }

        mutating func end(_ id: Int) {
            if bidSlot == id { bidSlot = nil }
            if askSlot == id { askSlot = nil }
            if let i = index(of: id) { orders.remove(at: i) }
        }

        /// Where the quote `id` is in `orders`, nil when it has ended.
        func index(of id: Int) -> Int? {
            orders.firstIndex { $0.id == id }
        }

        /// The state of the quote `id`, nil when it has ended.
        func quoteState(of id: Int) -> LocalState? {
            index(of: id).map { orders[$0].state }
        }

        /// The price of the quote `id`, nil when it has ended.
        func quotePrice(_ id: Int) -> Double? {
            index(of: id).map { orders[$0].price }
        }

        /// One strategy step at local time `ns`.
        mutating func step(at ns: Int64) {
            result.steps += 1
            let state = local?.state(at: ns, position: result.finalPosition)
                ?? BookState(book: exchange.book, lastTrade: exchange.lastTrade, position: result.finalPosition)
            if let id = bidSlot, quoteState(of: id) == .working { result.stepsQuotedBid += 1 }
            if let id = askSlot, quoteState(of: id) == .working { result.stepsQuotedAsk += 1 }
            let bid = bidQuote?.next(state) ?? .nan, ask = askQuote?.next(state) ?? .nan
            quote(.buy, bid, state, at: ns)
            quote(.sell, ask, state, at: ns)
            if trace != nil {
                // The quotes in force after the step: sent or working, not being cancelled.
                let bidPrice = bidSlot.flatMap(quotePrice) ?? .nan, askPrice = askSlot.flatMap(quotePrice) ?? .nan
                trace?.record(at: ns, (state.mid, bidPrice, askPrice, result.finalPosition))
            }
        }

        mutating func quote(_ side: OrderSide, _ wanted: Double, _ state: BookState, at ns: Int64) {
            let size = settings.quoteSize
            let after = state.position + (side == .buy ? size : -size)
            let allowed = wanted.isFinite && Swift.abs(settings.lots(after)) <= settings.lots(settings.maxPosition)
            let price: Double? = allowed ? wanted : nil
            if let id = side == .buy ? bidSlot : askSlot, let i = index(of: id) {
                if orders[i].state == .pendingNew || orders[i].price == price { return }
                orders[i].state = .pendingCancel
                setSlot(side, nil)
                result.cancelsSent += 1
                toExchange.append(.cancel(id: id), at: ns + settings.latency.entry(sentNs: ns))
            }
            guard let price else { return }
            let crosses = side == .buy ? state.bestAsk <= price : state.bestBid >= price
            if crosses {
                result.notPlacedCrossing += 1
                return
            }
            result.ordersSent += 1
            let id = result.ordersSent
            orders.append(LocalOrder(id: id, price: price, state: .pendingNew, sentNs: ns))
            setSlot(side, id)
            toExchange.append(.place(id: id, side: side, price: price, quantity: size), at: ns + settings.latency.entry(sentNs: ns))
        }

        mutating func setSlot(_ side: OrderSide, _ id: Int?) {
            if side == .buy { bidSlot = id } else { askSlot = id }
        }
    }
}
