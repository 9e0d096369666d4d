/// What a quoting strategy sees at a replay step: the book as of the step's local time, the last
/// trade print and the position counting the fills seen so far.
package struct BookState: Sendable {
    package var book: OrderBook
    /// Price of the last trade print seen, NaN before the first.
    package var lastTrade: Double
    /// Position counting the fills seen so far (negative: short).
    package var position: Double

    package init(book: OrderBook, lastTrade: Double = .nan, position: Double = 0) {
        self.book = book
        self.lastTrade = lastTrade
        self.position = position
    }

    package var bestBid: Double { book.bestBid ?? .nan }
    package var bestAsk: Double { book.bestAsk ?? .nan }
    /// (best bid + best ask) / 2, NaN while a side is empty.
    package var mid: Double { (bestBid + bestAsk) / 2 }
    package var spread: Double { bestAsk - bestBid }

    /// Quantity resting at the `k`-th level (1: the touch) of the bid side (`.buy`) or ask side
    /// (`.sell`), 0 when the side has fewer levels.
    package func quantity(_ side: OrderSide, level k: Int) -> Double {
        var seen = 0, quantity = 0.0
        book.visitLevels(side) { level in
            seen += 1
            if seen == k { quantity = level.quantity }
            return seen < k
        }
        return quantity
    }

    /// (bid quantity - ask quantity) / (bid quantity + ask quantity) over the first `k` levels of
    /// each side, from -1 (all asks) to 1 (all bids); NaN when both are empty.
    package func imbalance(levels k: Int) -> Double {
        func total(_ side: OrderSide) -> Double {
            var seen = 0, sum = 0.0
            book.visitLevels(side) { level in
                seen += 1
                sum += level.quantity
                return seen < k
            }
            return sum
        }
        let b = total(.buy), a = total(.sell)
        return (b - a) / (b + a)
    }

    /// The touch's prices weighted by the opposite side's size: (bid x ask qty + ask x bid qty) /
    /// (bid qty + ask qty), NaN while a side is empty.
    package var microprice: Double {
        let b = quantity(.buy, level: 1), a = quantity(.sell, level: 1)
        return (bestBid * a + bestAsk * b) / (a + b)
    }
}
