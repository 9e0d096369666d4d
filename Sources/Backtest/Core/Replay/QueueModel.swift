/// Where a resting quote stands in the queue at its price: the quantity ahead of it.
package struct QueuePosition: Equatable, Sendable {
    /// Quantity resting ahead of the quote at its price.
    package var ahead: Double
}

/// How a quote's place in the queue at its price moves as the recorded book and trades go by,
/// after hftbacktest's `QueueModel` (`hftbacktest/src/backtest/models/queue.rs`).
package enum QueueModel: Equatable, Sendable {
    /// hftbacktest's `RiskAverseQueueModel`: the queue ahead falls only by trades at the price;
    /// when the level shrinks it is capped at the level's new size (a cancel is assumed to have
    /// been ahead of the quote).
    case riskAverse

    /// The queue at placement: the quantity resting at the price when the order arrives.
    func placed(levelQuantity: Double) -> QueuePosition {
        QueuePosition(ahead: levelQuantity)
    }

    /// A trade of `quantity` at the quote's price.
    func traded(_ q: inout QueuePosition, quantity: Double) {
        switch self {
        case .riskAverse: q.ahead -= quantity
        }
    }

    /// The level at the quote's price changed from `previous` to `quantity` (0: removed).
    func levelChanged(_ q: inout QueuePosition, previous: Double, quantity: Double) {
        switch self {
        case .riskAverse: q.ahead = Swift.min(q.ahead, quantity)
        }
    }

    /// The quantity the trades at the price have executed against the quote, in whole lots: the
    /// part of the trades beyond the queue ahead, `round(-ahead / lot)` lots when positive (as
    /// hftbacktest's `is_filled`, so a trade must pass the queue by half a lot); the queue ahead
    /// is then 0.
    func executable(_ q: inout QueuePosition, lot: Double) -> Double {
        let lots = (-q.ahead / lot).rounded()
        guard lots > 0 else { return 0 }
        q.ahead = 0
        return lots * lot
    }
}

extension QueueModel {
    /// Parses a `--queue` value: `riskaverse`.
    /// - Throws: `InputError` (setting `.queue`) for anything else.
    package init(parsing text: String) throws {
        switch text.trimmingWhitespace().lowercased() {
        case "riskaverse": self = .riskAverse
        default:
            throw InputError("expected riskaverse (the probability models prob:N and logprob are not replayed yet)",
                             setting: .queue, value: text)
        }
    }
}
