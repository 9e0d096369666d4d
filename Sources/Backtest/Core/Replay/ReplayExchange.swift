/// The exchange side of a replay: the recorded book and the strategy's resting quotes, matched
/// as hftbacktest 2.4.4's `NoPartialFillExchange` (`--fills whole`) or `PartialFillExchange`
/// (`--fills partial`) matches them.
///
/// The book is the recorded one: the strategy's orders never change it (as in hftbacktest and
/// nautilus_trader). A resting quote fills, for what is left of it:
/// - when a trade print at a better price than the quote goes by (a taker buy above an ask
///   quote, a taker sell below a bid quote);
/// - when the opposite touch moves onto or through it (the best bid rising to an ask quote);
/// - when the trades at its price have passed the queue ahead of it (`QueueModel.executable`):
///   whole (`FillModel.whole`), or by the quantity they passed it by, in whole lots, when that
///   is no more than what is left (`FillModel.partial`; the rest stays at the front).
/// A quote ends when less than half a lot of it is left. (hftbacktest 2.4.4's partial exchange
/// keeps a quote whose piece was exactly what was left in its book, and stops with an error
/// when anything reaches it again; here it ends.) Prints without a taker side are not matched
/// against quotes.
struct ReplayExchange {
    struct Order {
        var id: Int
        var side: OrderSide
        var price: Double
        var quantity: Double
        /// What is left of it after the fills so far.
        var leaves: Double
        /// When it reached the book, UTC nanoseconds.
        var arrivalNs: Int64
        var queueAtPlacement: Double
        var queue: QueuePosition
    }

    /// What the exchange tells the strategy, seen after the response latency.
    enum Response {
        case accepted(Int)
        case rejected(Int)
        case cancelled(Int)
        case cancelFailed(Int)
        /// An execution of `quantity`; the order as it is after it (`done`: nothing left).
        case filled(Order, quantity: Double, exchangeNs: Int64, done: Bool)
    }

    let queueModel: QueueModel
    let fillModel: FillModel
    let lot: Double
    private(set) var book = OrderBook()
    /// Resting quotes, in the order they arrived.
    private(set) var resting: [Order] = []
    /// Price of the last print, NaN before the first.
    private(set) var lastTrade = Double.nan
    /// The answers made since the strategy's side last took them (`takeAnswers`).
    private var answers: [Response] = []

    private mutating func answer(_ response: Response) { answers.append(response) }

    /// Whether answers were made since the last `takeAnswers`.
    var hasAnswers: Bool { !answers.isEmpty }

    /// The answers made since the last call, in the order they were made.
    /// - Complexity: O(1) without answers (most events): no buffer is copied or allocated (keeping
    ///   the capacity of a buffer just handed out copied it, once per event).
    mutating func takeAnswers() -> [Response] {
        guard !answers.isEmpty else { return [] }
        defer { answers = [] }
        return answers
    }

    init(queueModel: QueueModel, fillModel: FillModel = .whole, lot: Double) {
        self.queueModel = queueModel
        self.fillModel = fillModel
        self.lot = lot
    }

    /// Applies one market event at `ns`; its fills go to the answers (`takeAnswers`).
    mutating func apply(_ event: MarketEvent, at ns: Int64) {
        switch event {
        case .trade(let t):
            lastTrade = t.price
            guard let taker = t.side, !resting.isEmpty else { return }
            // A taker buy meets the ask quotes, a taker sell the bid quotes.
            let quoteSide: OrderSide = taker == .buy ? .sell : .buy
            let model = queueModel, lot = lot, partial = fillModel == .partial
            fill(at: ns) { order in
                guard order.side == quoteSide else { return 0 }
                if quoteSide == .sell ? order.price < t.price : order.price > t.price { return order.leaves }
                guard order.price == t.price else { return 0 }
                model.traded(&order.queue, quantity: t.quantity)
                let executable = model.executable(&order.queue, lot: lot)
                guard executable > 0 else { return 0 }
                // hftbacktest: the executable quantity unless it exceeds what is left.
                return partial && executable <= order.leaves ? executable : order.leaves
            }
        case .book(let b):
            if b.kind == .snapshot {
                // A snapshot is the changes that make the book equal to it: per side, the levels
                // it no longer holds removed (best first), then its levels set in its order.
                for (side, levels) in [(OrderSide.buy, b.bids), (.sell, b.asks)] {
                    let kept = Set(levels.filter { ($0.quantity / lot).rounded() != 0 }.map(\.price))
                    var gone: [Double] = []
                    book.visitLevels(side) { level in
                        if !kept.contains(level.price) { gone.append(level.price) }
                        return true
                    }
                    for price in gone { set(side, price: price, quantity: 0, at: ns) }
                    for level in levels { set(side, price: level.price, quantity: level.quantity, at: ns) }
                }
            } else {
                for level in b.bids { set(.buy, price: level.price, quantity: level.quantity, at: ns) }
                for level in b.asks { set(.sell, price: level.price, quantity: level.quantity, at: ns) }
            }
        }
    }

    /// One level change: the queues at its price, then the quotes the moved touch reaches.
    /// A quantity of less than half a lot removes the level (as hftbacktest's depth does).
    private mutating func set(_ side: OrderSide, price: Double, quantity: Double, at ns: Int64) {
        let previousBest = side == .buy ? book.bestBid : book.bestAsk
        // |q / lot| < 0.5 is round(q / lot) == 0 (halves round away from zero), without a call.
        let previous = book.setUnchecked(side, price: price, quantity: Swift.abs(quantity / lot) < 0.5 ? 0 : quantity) ?? 0
        for i in resting.indices where resting[i].side == side && resting[i].price == price {
            queueModel.levelChanged(&resting[i].queue, previous: previous, quantity: quantity)
        }
        switch side {
        case .buy:
            guard let best = book.bestBid, previousBest.map({ best > $0 }) ?? true else { return }
            fill(at: ns) { $0.side == .sell && $0.price <= best ? $0.leaves : 0 }
        case .sell:
            guard let best = book.bestAsk, previousBest.map({ best < $0 }) ?? true else { return }
            fill(at: ns) { $0.side == .buy && $0.price >= best ? $0.leaves : 0 }
        }
    }

    /// Executes, in arrival order, what `executed` says of each resting quote (0: nothing, else
    /// at most what is left of it); a quote with less than half a lot left ends.
    private mutating func fill(at ns: Int64, _ executed: (inout Order) -> Double) {
        var i = 0
        while i < resting.count {
            let quantity = executed(&resting[i])
            guard quantity > 0 else {
                i += 1
                continue
            }
            resting[i].leaves -= quantity
            let order = resting[i]
            let done = (order.leaves / lot).rounded() <= 0
            if done { resting.remove(at: i) } else { i += 1 }
            answer(.filled(order, quantity: quantity, exchangeNs: ns, done: done))
        }
    }

    /// A new post-only quote reaching the book: refused when it would cross, else resting with
    /// the quantity at its price ahead of it.
    mutating func place(id: Int, side: OrderSide, price: Double, quantity: Double, at ns: Int64) {
        let crosses = side == .buy ? book.bestAsk.map { price >= $0 } : book.bestBid.map { price <= $0 }
        if crosses == true {
            answer(.rejected(id))
            return
        }
        let queue = queueModel.placed(levelQuantity: book.quantity(side, at: price) ?? 0)
        resting.append(Order(id: id, side: side, price: price, quantity: quantity, leaves: quantity, arrivalNs: ns, queueAtPlacement: queue.ahead, queue: queue))
        answer(.accepted(id))
    }

    /// A cancel reaching the book: it fails when the quote has filled already.
    mutating func cancel(id: Int) {
        if let i = resting.firstIndex(where: { $0.id == id }) {
            resting.remove(at: i)
            answer(.cancelled(id))
        } else {
            answer(.cancelFailed(id))
        }
    }
}
