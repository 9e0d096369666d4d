/// How a resting quote's executions are counted (`--fills`), after hftbacktest 2.4.4's exchange
/// models. Both fill a quote whole when a print goes by at a better price or the opposite touch
/// moves onto or through it; they differ at the quote's own price.
package enum FillModel: Equatable, Sendable {
    /// `NoPartialFillExchange`: once the prints at the quote's price pass the queue ahead of it
    /// by half a lot or more, the whole quote fills.
    case whole
    /// `PartialFillExchange`: the prints at the quote's price execute, in whole lots, what they
    /// pass the queue ahead by (`QueueModel.executable`), up to what is left of the quote; the
    /// rest keeps resting at the front of the queue.
    case partial

    /// The model's name as `--fills` takes it.
    package var name: String {
        switch self {
        case .whole: "whole"
        case .partial: "partial"
        }
    }

    /// Parses a `--fills` value: `whole` or `partial`.
    /// - Throws: `InputError` (setting `.fills`) for anything else.
    package init(parsing text: String) throws {
        switch text.trimmingWhitespace().lowercased() {
        case "whole": self = .whole
        case "partial": self = .partial
        default: throw InputError("expected whole or partial", setting: .fills, value: text)
        }
    }
}
