/// An L2 order book: price levels with resting quantity on each side.
///
/// `bids` are sorted by price descending and `asks` ascending, so index 0 of each side is the
/// touch (best bid, best ask). A level with quantity 0 does not exist: setting a level to 0
/// removes it, as exchange depth streams patch a book.
///
/// Levels live in two sorted contiguous arrays. Finding a level is a binary search, so changing
/// the quantity of an existing level is O(log n); adding or removing a level is the same search
/// plus a memmove of the levels behind it, which for books of a few hundred levels is cheaper than
/// any tree.
///
/// - Invariant: prices strictly ordered on each side (bids descending, asks ascending), every
///   quantity finite and > 0. Checked after each mutation in debug builds only.
public struct OrderBook: Sendable, Equatable {
    public private(set) var bids: [BookLevel] = []
    public private(set) var asks: [BookLevel] = []

    public init() {}

    /// A book from unsorted levels; levels with quantity <= 0 are dropped, duplicate prices summed.
    public init(bids: [BookLevel], asks: [BookLevel]) {
        for level in bids { add(.buy, price: level.price, quantity: level.quantity) }
        for level in asks { add(.sell, price: level.price, quantity: level.quantity) }
    }

    /// A book from levels already in side order with distinct prices and positive quantities.
    init(sortedBids: [BookLevel], sortedAsks: [BookLevel]) {
        bids = sortedBids
        asks = sortedAsks
        checkInvariants()
    }

    public var bestBid: Double? { bids.first?.price }
    public var bestAsk: Double? { asks.first?.price }
    public var isEmpty: Bool { bids.isEmpty && asks.isEmpty }

    /// Mid price, when both sides have a level.
    public var mid: Double? {
        guard let b = bestBid, let a = bestAsk else { return nil }
        return (a + b) / 2
    }

    // MARK: - Updates

    /// Sets the quantity resting at `price` on the bid side (`.buy`) or ask side (`.sell`).
    /// A quantity of 0 (or less) removes the level.
    /// - Complexity: O(log n) to find the level; O(n) memmove when a level is added or removed.
    public mutating func set(_ side: OrderSide, price: Double, quantity: Double) {
        precondition(price.isFinite && quantity.isFinite, "book levels need finite prices and quantities")
        switch side {
        case .buy: Self.set(&bids, price: price, quantity: quantity, descending: true)
        case .sell: Self.set(&asks, price: price, quantity: quantity, descending: false)
        }
        checkInvariants()
    }

    /// Applies one recorded depth message: a snapshot replaces the book, an update patches levels.
    public mutating func apply(_ event: BookEvent) {
        if event.kind == .snapshot {
            self = OrderBook(bids: event.bids, asks: event.asks)
            return
        }
        for level in event.bids { set(.buy, price: level.price, quantity: level.quantity) }
        for level in event.asks { set(.sell, price: level.price, quantity: level.quantity) }
    }

    private mutating func add(_ side: OrderSide, price: Double, quantity: Double) {
        guard quantity > 0 else { return }
        let existing = side == .buy ? bids : asks
        let i = Self.search(existing, price: price, descending: side == .buy)
        let current = i < existing.count && existing[i].price == price ? existing[i].quantity : 0
        set(side, price: price, quantity: current + quantity)
    }

    /// First index whose price is not better than `price` (lower bound in side order).
    static func search(_ levels: [BookLevel], price: Double, descending: Bool) -> Int {
        var lo = 0, hi = levels.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let before = descending ? levels[mid].price > price : levels[mid].price < price
            if before { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private static func set(_ levels: inout [BookLevel], price: Double, quantity: Double, descending: Bool) {
        let i = search(levels, price: price, descending: descending)
        let found = i < levels.count && levels[i].price == price
        switch (found, quantity > 0) {
        case (true, true): levels[i].quantity = quantity
        case (true, false): levels.remove(at: i)
        case (false, true): levels.insert(BookLevel(price: price, quantity: quantity), at: i)
        case (false, false): break
        }
    }

    // MARK: - Market orders

    /// What a market buy of `quantity` would get from the asks, without changing the book.
    /// `notionalLimit` caps the cash spent (price x quantity, before fees).
    /// - Complexity: O(levels walked).
    public func fill(marketBuy quantity: Double, notionalLimit: Double = .infinity) -> BookFill {
        Self.walk(asks, quantity: quantity, notionalLimit: notionalLimit)
    }

    /// What a market sell of `quantity` would get from the bids, without changing the book.
    public func fill(marketSell quantity: Double, notionalLimit: Double = .infinity) -> BookFill {
        Self.walk(bids, quantity: quantity, notionalLimit: notionalLimit)
    }

    /// Executes a market order: returns its fill and removes the liquidity it took.
    public mutating func take(_ side: OrderSide, quantity: Double, notionalLimit: Double = .infinity) -> BookFill {
        let result = side == .buy
            ? fill(marketBuy: quantity, notionalLimit: notionalLimit)
            : fill(marketSell: quantity, notionalLimit: notionalLimit)
        remove(side == .buy ? .sell : .buy, quantity: result.quantityFilled)
        return result
    }

    /// Removes `quantity` from the touch of `side` outward, as a market order would.
    public mutating func remove(_ side: OrderSide, quantity: Double) {
        guard quantity > 0 else { return }
        if side == .buy { Self.consume(&bids, quantity) } else { Self.consume(&asks, quantity) }
        checkInvariants()
    }

    private static func consume(_ levels: inout [BookLevel], _ quantity: Double) {
        var left = quantity
        var emptied = 0
        while emptied < levels.count && left > 0 {
            if levels[emptied].quantity <= left * (1 + 1e-12) {
                left -= levels[emptied].quantity
                emptied += 1
            } else {
                levels[emptied].quantity -= left
                left = 0
            }
        }
        levels.removeFirst(emptied)
    }

    private static func walk(_ levels: [BookLevel], quantity: Double, notionalLimit: Double) -> BookFill {
        precondition(quantity >= 0 && notionalLimit >= 0, "order quantity and notional limit must be >= 0")
        var filled = 0.0, notional = 0.0, walked = 0, available = 0.0
        var worst = Double.nan
        for level in levels {
            available += level.quantity
            let room = quantity - filled
            guard room > 0, notional < notionalLimit else { continue }
            var take = min(room, level.quantity)
            let budgetQty = (notionalLimit - notional) / level.price
            if budgetQty < take { take = budgetQty }
            guard take > 0 else { continue }
            filled += take
            notional += take * level.price
            worst = level.price
            walked += 1
        }
        return BookFill(quantityAsked: quantity, quantityFilled: filled, notional: notional,
                        levelsWalked: walked, worstPrice: worst, depthAvailable: available)
    }

    // MARK: - Invariants

    /// Traps when the ordering or quantity invariant is broken. Compiled out of release builds.
    @inline(__always)
    func checkInvariants() {
        #if DEBUG
        for side in [bids, asks] {
            for level in side {
                precondition(level.quantity > 0 && level.quantity.isFinite, "book level with quantity \(level.quantity)")
            }
        }
        for i in bids.indices.dropFirst() { precondition(bids[i - 1].price > bids[i].price, "bids not descending") }
        for i in asks.indices.dropFirst() { precondition(asks[i - 1].price < asks[i].price, "asks not ascending") }
        #endif
    }
}

/// The outcome of walking one side of a book with a market order.
public struct BookFill: Sendable, Equatable {
    public var quantityAsked: Double
    public var quantityFilled: Double
    /// Sum of price x quantity over the levels taken.
    public var notional: Double
    /// Number of levels the order took liquidity from.
    public var levelsWalked: Int
    /// Price of the last level taken (NaN when nothing filled).
    public var worstPrice: Double
    /// Total quantity resting on the walked side before the order.
    public var depthAvailable: Double

    /// Volume-weighted average price of what filled (NaN when nothing filled).
    public var vwap: Double { quantityFilled > 0 ? notional / quantityFilled : .nan }
    /// True when less than asked was filled.
    public var isPartial: Bool { quantityFilled < quantityAsked }
}
