/// One execution of a replayed quote.
package struct ReplayFill: Equatable, Sendable {
    /// The quote's order number (1, 2, ... in the order sent).
    package var orderID: Int
    package var side: OrderSide
    package var price: Double
    package var quantity: Double
    /// When the quote reached the book, when the exchange executed it and when the strategy saw
    /// it, UTC nanoseconds.
    package var arrivalNs: Int64
    package var exchangeNs: Int64
    package var localNs: Int64
    /// Whether the quote rested (maker); a post-only quote always does.
    package var maker: Bool
    /// Quantity resting ahead of the quote at its price when it reached the book.
    package var queueAhead: Double
    /// The entry and response latencies the order saw, nanoseconds.
    package var entryLatencyNs: Int64
    package var responseLatencyNs: Int64
    /// Fee paid (negative: a rebate received).
    package var fee: Double
}

/// What a replay did: its fills, its counts and its final state.
package struct ReplayResult: Sendable {
    package var fills: [ReplayFill]
    /// Market events read, book-building ones before the start included.
    package var events: Int
    /// Strategy steps taken.
    package var steps: Int
    package var ordersSent: Int
    package var cancelsSent: Int
    /// Quotes the exchange refused because they would have crossed when they arrived (post-only).
    package var rejectedPostOnly: Int
    /// Quotes not sent because they crossed the book the strategy saw.
    package var notPlacedCrossing: Int
    /// Steps at which a quote was working (acknowledged, not cancelled or filled) on each side.
    package var stepsQuotedBid: Int
    package var stepsQuotedAsk: Int
    /// First and last event of the replayed range, UTC milliseconds.
    package var firstMs: Int64
    package var lastMs: Int64
    /// Position and cash after every fill (fees included).
    package var finalPosition: Double
    package var cash: Double
    /// The book's mid after the last event (NaN when a side is empty).
    package var finalMid: Double
    /// The mid, the quotes in force and the position at every step, thinned to columns; nil
    /// unless the replay was asked for it (`EventReplay.tracesSteps`).
    package var trace: ReplayTrace? = nil

    /// Cash plus the position marked at the final mid.
    package var pnl: Double { cash + (finalPosition == 0 ? 0 : finalPosition * finalMid) }
    package var makerFills: Int { fills.filter(\.maker).count }
    /// Share of fills that rested, NaN without fills.
    package var makerShare: Double { fills.isEmpty ? .nan : Double(makerFills) / Double(fills.count) }
    /// Sum of the fills' notionals.
    package var turnover: Double { fills.reduce(0) { $0 + $1.price * $1.quantity } }
    package var fees: Double { fills.reduce(0) { $0 + $1.fee } }
    package var volume: Double { fills.reduce(0) { $0 + $1.quantity } }
}
