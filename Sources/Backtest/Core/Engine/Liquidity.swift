/// The engine's source of fills for one run: no depth, a synthetic book with depletion, or a
/// replay of recorded L2 events.
struct Liquidity {
    private enum Source { case none, synthetic, book }
    private let source: Source
    private let model: SyntheticDepth
    private let tick: Double?
    private let candles: CandleSeries

    /// Synthetic depletion per side: units still missing and the bar they were last updated.
    private var takenAsks = 0.0, takenBids = 0.0
    private var askBar = 0, bidBar = 0

    /// Recorded book replay: the events, the next one to apply, and the book so far.
    private let events: [BookEvent]
    private var cursor = 0
    private var replay = OrderBook()

    init(config: ExecutionConfig, candles: CandleSeries) {
        model = config.synthetic
        tick = config.tick
        self.candles = candles
        switch config.depth {
        case .none: source = .none; events = []
        case .synthetic: source = .synthetic; events = []
        case .book(let recorded): source = .book; events = recorded
        }
    }

    /// Executes a market order of up to `quantity` units spending at most `notionalLimit`
    /// (before fees) on bar `bar`, referencing `reference`; the book is taken as of `time`.
    /// With a `lot`, the filled quantity is a multiple of it.
    mutating func execute(_ side: OrderSide, quantity: Double, notionalLimit: Double, reference: Double,
                          bar: Int, time: Int64, lot: Double?) -> BookFill {
        switch source {
        case .none:
            var q = min(quantity, notionalLimit / reference)
            if let lot, q < quantity { q = (q / lot).rounded(.down) * lot }
            return BookFill(quantityAsked: quantity, quantityFilled: q, notional: q * reference,
                            levelsWalked: q > 0 ? 1 : 0, worstPrice: q > 0 ? reference : .nan,
                            depthAvailable: .infinity)
        case .synthetic:
            var book = syntheticBook(side, reference: reference, bar: bar)
            let fill = Self.walk(&book, side, quantity: quantity, notionalLimit: notionalLimit, lot: lot)
            if side == .buy { takenAsks += fill.quantityFilled } else { takenBids += fill.quantityFilled }
            return fill
        case .book:
            while cursor < events.count && events[cursor].time <= time {
                replay.apply(events[cursor])
                cursor += 1
            }
            return Self.walk(&replay, side, quantity: quantity, notionalLimit: notionalLimit, lot: lot)
        }
    }

    /// Walks `book`, rounds a partial fill down to the lot, and removes what was taken.
    private static func walk(_ book: inout OrderBook, _ side: OrderSide, quantity: Double,
                             notionalLimit: Double, lot: Double?) -> BookFill {
        var fill = side == .buy
            ? book.fill(marketBuy: quantity, notionalLimit: notionalLimit)
            : book.fill(marketSell: quantity, notionalLimit: notionalLimit)
        if let lot, fill.isPartial {
            let q = (fill.quantityFilled / lot).rounded(.down) * lot
            fill = side == .buy ? book.fill(marketBuy: q) : book.fill(marketSell: q)
            fill.quantityAsked = quantity
        }
        book.remove(side == .buy ? .sell : .buy, quantity: fill.quantityFilled)
        return fill
    }

    /// The synthetic book for `bar`, with liquidity still missing from earlier fills removed.
    private mutating func syntheticBook(_ side: OrderSide, reference: Double, bar: Int) -> OrderBook {
        let s = candles.high.withUnsafeBufferPointer { h in
            candles.low.withUnsafeBufferPointer { l in model.spread(high: h, low: l, at: bar) }
        }
        var book = model.book(reference: reference, high: candles.high[bar], low: candles.low[bar],
                              volume: candles.volume[bar], spread: s, tick: tick, only: side == .buy ? .sell : .buy)
        if side == .buy {
            takenAsks *= model.remaining(afterBars: bar - askBar)
            askBar = bar
            book.remove(.sell, quantity: takenAsks)
        } else {
            takenBids *= model.remaining(afterBars: bar - bidBar)
            bidBar = bar
            book.remove(.buy, quantity: takenBids)
        }
        return book
    }
}
