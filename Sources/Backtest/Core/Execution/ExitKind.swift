/// How a trade ended: the kind of the fill that closed it (docs/design/orders.md).
public enum ExitKind: String, Sendable, CaseIterable, Codable {
    /// An exit rule's signal, filled at the next open (or at the signal bar's close).
    case signal
    /// The stop-loss level, reached inside the bar: filled at the level.
    case stop
    /// The bar opened through the stop-loss level: filled at the open.
    case stopGap = "stop-gap"
    /// A take-profit level reached inside the bar: filled at the level.
    case target
    /// The bar opened through a take-profit level: filled at the open.
    case targetGap = "target-gap"
    /// The trailing stop (inside the bar at its level, or at the open through it).
    case trail
    /// `--exit-after N`: N bars after the entry bar, at the open.
    case time
    /// Still open at the end of the data, marked to the last close.
    case end
    /// A portfolio's planner sold it: rotated out of the top K.
    case rebalance
    /// A margin account's position taken by the exchange: its backing equity fell below the
    /// maintenance margin (docs/design/orders.md, "Margin").
    case liquidation
}
