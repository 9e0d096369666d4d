import Foundation

/// Where a resting quote stands in the queue at its price.
package struct QueuePosition: Equatable, Sendable {
    /// Quantity resting ahead of the quote at its price.
    package var ahead: Double
    /// Quantity traded at the price since the level last changed (the probability models take it
    /// out of the level's next decrease, which the trades caused).
    package var tradedSinceChange = 0.0
}

/// How a quote's place in the queue at its price moves as the recorded book and trades go by,
/// after hftbacktest's queue models (`hftbacktest/src/backtest/models/queue.rs`, 2.4.4).
package enum QueueModel: Equatable, Sendable {
    /// hftbacktest's `RiskAverseQueueModel`: the queue ahead falls only by trades at the price;
    /// when the level shrinks it is capped at the level's new size (a cancel is assumed to have
    /// been ahead of the quote).
    case riskAverse
    /// hftbacktest's `ProbQueueModel` with `PowerProbQueueFunc` (f(x) = x^n): a decrease of the
    /// level not explained by trades is a cancel ahead of the quote with probability
    /// f(back) / (f(back) + f(front)).
    case power(Double)
    /// `ProbQueueModel` with `LogProbQueueFunc` (f(x) = log(1 + x)).
    case log

    /// The queue at placement: the quantity resting at the price when the order arrives.
    func placed(levelQuantity: Double) -> QueuePosition {
        QueuePosition(ahead: levelQuantity)
    }

    /// A trade of `quantity` at the quote's price.
    func traded(_ q: inout QueuePosition, quantity: Double) {
        q.ahead -= quantity
        if self != .riskAverse { q.tradedSinceChange += quantity }
    }

    /// The level at the quote's price changed from `previous` to `quantity` (0: removed).
    func levelChanged(_ q: inout QueuePosition, previous: Double, quantity: Double) {
        guard self != .riskAverse else {
            q.ahead = Swift.min(q.ahead, quantity)
            return
        }
        // The part of the decrease the trades since the last change did not already take.
        let change = previous - quantity - q.tradedSinceChange
        q.tradedSinceChange = 0
        // A growing level grows behind the quote.
        guard change >= 0 else {
            q.ahead = Double.minimum(q.ahead, quantity)
            return
        }
        let front = q.ahead, back = previous - front
        var p = probability(front: front, back: back)
        if p.isInfinite { p = 1 }
        let estimate = front - (1 - p) * change + Double.minimum(back - p * change, 0)
        // IEEE minNum, as Rust's f64::min: a NaN estimate (0 / 0 with nothing ahead or behind)
        // gives the level's size.
        q.ahead = Double.minimum(estimate, quantity)
    }

    /// The probability that a cancel of the level was behind the quote.
    private func probability(front: Double, back: Double) -> Double {
        func f(_ x: Double) -> Double {
            switch self {
            case .power(let n): Foundation.pow(x, n)
            case .log: Foundation.log(1 + x)
            case .riskAverse: 0
            }
        }
        return f(back) / (f(back) + f(front))
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

    /// The model's name as `--queue` takes it.
    package var name: String {
        switch self {
        case .riskAverse: "riskaverse"
        case .power(let n): "prob:" + NumberText.shortest(n)
        case .log: "logprob"
        }
    }
}

extension QueueModel {
    /// Parses a `--queue` value: `riskaverse`, `prob:N` (N > 0) or `logprob`.
    /// - Throws: `InputError` (setting `.queue`) for anything else.
    package init(parsing text: String) throws {
        let t = text.trimmingWhitespace().lowercased()
        switch t {
        case "riskaverse": self = .riskAverse
        case "logprob": self = .log
        default:
            guard t.hasPrefix("prob:") else {
                throw InputError("expected riskaverse, prob:N or logprob", setting: .queue, value: text)
            }
            guard let n = Double(t.dropFirst(5)), n.isFinite, n > 0 else {
                throw InputError("prob:N takes a power N above 0 (hftbacktest's PowerProbQueueFunc, e.g. prob:2)", setting: .queue, value: text)
            }
            self = .power(n)
        }
    }
}
