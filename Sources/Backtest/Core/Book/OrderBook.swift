/// An L2 order book: price levels with resting quantity on each side.
///
/// `bids` are sorted by price descending and `asks` ascending, so index 0 of each side is the
/// touch (best bid, best ask). A level with quantity 0 does not exist: setting a level to 0
/// removes it, as exchange depth streams patch a book.
///
/// Each side is a `PriceLevels` balanced tree in one contiguous array, so adding, changing or
/// removing a level is O(log n) and the touch is O(1). Copying a book is O(1); the first
/// mutation of a shared copy copies that side's storage, as with arrays.
///
/// - Invariant: prices strictly ordered on each side (bids descending, asks ascending), every
///   quantity finite and > 0, plus the tree invariants of `PriceLevels`. Checked after each
///   mutation in debug builds only.
public struct OrderBook: Sendable, Equatable {
    private(set) var bidLevels = PriceLevels(descending: true)
    private(set) var askLevels = PriceLevels(descending: false)

    /// Bid levels, best (highest) first.
    /// - Complexity: O(n): the array is built on each access.
    public var bids: [BookLevel] { Array(bidLevels) }
    /// Ask levels, best (lowest) first.
    /// - Complexity: O(n): the array is built on each access.
    public var asks: [BookLevel] { Array(askLevels) }

    public init() {}

    /// A book from unsorted levels; levels with quantity <= 0 are dropped, duplicate prices summed.
    /// - Complexity: O(n) when each side comes best first with distinct prices and positive
    ///   quantities (an exchange's snapshot), else O(n log n).
    public init(bids: [BookLevel], asks: [BookLevel]) {
        if Self.inSideOrder(bids, descending: true) && Self.inSideOrder(asks, descending: false) {
            bidLevels = PriceLevels(descending: true, sorted: bids)
            askLevels = PriceLevels(descending: false, sorted: asks)
        } else {
            add(bids: bids, asks: asks)
        }
        checkInvariants()
    }

    /// Whether `levels` are best first with strictly ordered prices and positive quantities:
    /// what `add` would make of them is then themselves, in order.
    private static func inSideOrder(_ levels: [BookLevel], descending: Bool) -> Bool {
        levels.withUnsafeBufferPointer { l in
            for i in l.indices {
                guard l[i].quantity > 0 else { return false }
                if i > 0 && !(descending ? l[i].price < l[i - 1].price : l[i].price > l[i - 1].price) { return false }
            }
            return true
        }
    }

    /// A book from levels already in side order with distinct prices and positive quantities.
    /// - Complexity: O(n).
    init(sortedBids: [BookLevel], sortedAsks: [BookLevel]) {
        bidLevels = PriceLevels(descending: true, sorted: sortedBids)
        askLevels = PriceLevels(descending: false, sorted: sortedAsks)
        checkInvariants()
    }

    /// - Complexity: O(1).
    public var bestBid: Double? { bidLevels.first?.price }
    /// - Complexity: O(1).
    public var bestAsk: Double? { askLevels.first?.price }
    public var isEmpty: Bool { bidLevels.isEmpty && askLevels.isEmpty }

    /// Mid price, when both sides have a level.
    public var mid: Double? {
        guard let b = bestBid, let a = bestAsk else { return nil }
        return (a + b) / 2
    }

    /// Number of levels on the bid side (`.buy`) or ask side (`.sell`).
    public func levelCount(_ side: OrderSide) -> Int {
        side == .buy ? bidLevels.count : askLevels.count
    }

    /// Calls `body` on the levels of the bid side (`.buy`) or ask side (`.sell`), best first,
    /// while it returns true.
    /// - Complexity: O(k + log n) for the k levels visited.
    public func visitLevels(_ side: OrderSide, _ body: (BookLevel) throws -> Bool) rethrows {
        if side == .buy { try bidLevels.visit(body) } else { try askLevels.visit(body) }
    }

    /// The quantity resting at `price` on the bid side (`.buy`) or ask side (`.sell`), nil when
    /// there is no level there.
    /// - Complexity: O(log n).
    public func quantity(_ side: OrderSide, at price: Double) -> Double? {
        side == .buy ? bidLevels.quantity(at: price) : askLevels.quantity(at: price)
    }

    // MARK: - Updates

    /// Sets the quantity resting at `price` on the bid side (`.buy`) or ask side (`.sell`).
    /// A quantity of 0 (or less) removes the level.
    /// - Complexity: O(log n) whether the level is changed, added or removed.
    public mutating func set(_ side: OrderSide, price: Double, quantity: Double) {
        setUnchecked(side, price: price, quantity: quantity)
        checkInvariants()
    }

    /// `set` without the debug invariant check, for bulk replays that check once per batch
    /// (`BookReplay`, the live book of `bt live`): the check is O(n), and a recorded stream sets
    /// millions of levels.
    @inline(__always)
    /// - Returns: the quantity the level held before, nil when there was none.
    @discardableResult
    package mutating func setUnchecked(_ side: OrderSide, price: Double, quantity: Double) -> Double? {
        precondition(price.isFinite && quantity.isFinite, "book levels need finite prices and quantities")
        switch side {
        case .buy: return bidLevels.set(price, quantity: quantity)
        case .sell: return askLevels.set(price, quantity: quantity)
        }
    }

    /// Applies one recorded depth message: a snapshot replaces the book, an update patches levels.
    /// - Complexity: O(k log n) for k levels in the message.
    public mutating func apply(_ event: BookEvent) {
        if event.kind == .snapshot {
            bidLevels.removeAll(keepingCapacity: true)
            askLevels.removeAll(keepingCapacity: true)
            add(bids: event.bids, asks: event.asks)
        } else {
            for level in event.bids { setUnchecked(.buy, price: level.price, quantity: level.quantity) }
            for level in event.asks { setUnchecked(.sell, price: level.price, quantity: level.quantity) }
        }
        checkInvariants()
    }

    private mutating func add(bids: [BookLevel], asks: [BookLevel]) {
        for level in bids { add(.buy, price: level.price, quantity: level.quantity) }
        for level in asks { add(.sell, price: level.price, quantity: level.quantity) }
    }

    private mutating func add(_ side: OrderSide, price: Double, quantity: Double) {
        guard quantity > 0 else { return }
        let current = (side == .buy ? bidLevels : askLevels).quantity(at: price) ?? 0
        setUnchecked(side, price: price, quantity: current + quantity)
    }

    // MARK: - Market orders

    /// What a market buy of `quantity` would get from the asks, without changing the book.
    /// `notionalLimit` caps the cash spent (price x quantity, before fees).
    /// - Complexity: O(n) for n ask levels, since `depthAvailable` sums the whole side.
    public func fill(marketBuy quantity: Double, notionalLimit: Double = .infinity) -> BookFill {
        Self.walk(askLevels, quantity: quantity, notionalLimit: notionalLimit)
    }

    /// What a market sell of `quantity` would get from the bids, without changing the book.
    public func fill(marketSell quantity: Double, notionalLimit: Double = .infinity) -> BookFill {
        Self.walk(bidLevels, quantity: quantity, notionalLimit: notionalLimit)
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
    /// - Complexity: O(k log n) when k levels are emptied.
    public mutating func remove(_ side: OrderSide, quantity: Double) {
        guard quantity > 0 else { return }
        if side == .buy { Self.consume(&bidLevels, quantity) } else { Self.consume(&askLevels, quantity) }
        checkInvariants()
    }

    private static func consume(_ levels: inout PriceLevels, _ quantity: Double) {
        var left = quantity
        while left > 0, let best = levels.first {
            if best.quantity <= left * (1 + 1e-12) {
                left -= best.quantity
                levels.removeFirst()
            } else {
                levels.set(best.price, quantity: best.quantity - left)
                left = 0
            }
        }
    }

    /// Visits every level of the side: the fill stops growing where the order is done, but
    /// `depthAvailable` sums the whole side, best first.
    /// - Complexity: O(n).
    private static func walk(_ levels: PriceLevels, quantity: Double, notionalLimit: Double) -> BookFill {
        precondition(quantity >= 0 && notionalLimit >= 0, "order quantity and notional limit must be >= 0")
        var filled = 0.0, notional = 0.0, walked = 0, available = 0.0
        var worst = Double.nan
        levels.forEach { level in
            available += level.quantity
            let room = quantity - filled
            guard room > 0, notional < notionalLimit else { return }
            var take = min(room, level.quantity)
            let budgetQty = (notionalLimit - notional) / level.price
            if budgetQty < take { take = budgetQty }
            guard take > 0 else { return }
            filled += take
            notional += take * level.price
            worst = level.price
            walked += 1
        }
        return BookFill(quantityAsked: quantity, quantityFilled: filled, notional: notional,
                        levelsWalked: walked, worstPrice: worst, depthAvailable: available)
    }

    // MARK: - Invariants

    /// Traps when the ordering, quantity or tree invariants are broken. Compiled out of release builds.
    @inline(__always)
    package func checkInvariants() {
        #if DEBUG
        precondition(bidLevels.descending && !askLevels.descending, "book sides in the wrong order")
        bidLevels.checkInvariants()
        askLevels.checkInvariants()
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
    /// The part of the cost that is the half spread, in cash: quantity filled times the distance
    /// from the mid (or the reference price of a model book) to the touch. The engine fills it
    /// in; the book walk leaves it 0.
    public var spreadCost: Double = 0

    /// Volume-weighted average price of what filled (NaN when nothing filled).
    public var vwap: Double { quantityFilled > 0 ? notional / quantityFilled : .nan }
    /// True when less than asked was filled.
    public var isPartial: Bool { quantityFilled < quantityAsked }
}
