/// The series of the expression language that read the run's open position at a bar's close
/// (after that bar's fills): known only bar by bar inside a run, so they cannot feed anything
/// that needs their past (an indicator, a window, an offset, a crossing, `bars_since`).
/// Conventions: docs/design/orders.md, "Position-aware series".
public enum PositionSeries: String, CaseIterable, Sendable, Hashable {
    case position
    case entryPrice = "entry_price"
    case barsInTrade = "bars_in_trade"
    case tradeReturn = "trade_return"
    case highestSinceEntry = "highest_since_entry"
    case lowestSinceEntry = "lowest_since_entry"

    /// The series' value in `state`.
    @inline(__always)
    public func value(in state: PositionState) -> Double {
        switch self {
        case .position: state.position
        case .entryPrice: state.entryPrice
        case .barsInTrade: state.barsInTrade
        case .tradeReturn: state.tradeReturn
        case .highestSinceEntry: state.highestSinceEntry
        case .lowestSinceEntry: state.lowestSinceEntry
        }
    }

    /// One line on what the series is, its unit and its value when flat (`bt help expressions`).
    var summary: String {
        switch self {
        case .position: "1 long, -1 short, 0 flat"
        case .entryPrice: "average entry fill price (a price); NaN when flat"
        case .barsInTrade: "bars since the entry fill bar, 0 on it; NaN when flat"
        case .tradeReturn: "close / entry_price - 1, short 1 - close / entry_price (0.05 is 5%); NaN when flat"
        case .highestSinceEntry: "max of the fill price and the position's highs (a price); NaN when flat"
        case .lowestSinceEntry: "min of the fill price and the position's lows (a price); NaN when flat"
        }
    }
}
