/// The open position as the position-aware series read it at a bar's close (after that bar's fills).
///
/// Equal when every field is equal or both are NaN, so `state == .flat` holds for a flat state.
public struct PositionState: Sendable, Equatable {
    public var position: Double           // 1 long, -1 short, 0 flat
    public var entryPrice: Double         // NaN when flat
    public var barsInTrade: Double        // NaN when flat
    public var tradeReturn: Double        // NaN when flat
    public var highestSinceEntry: Double  // NaN when flat
    public var lowestSinceEntry: Double   // NaN when flat

    public init(position: Double, entryPrice: Double, barsInTrade: Double, tradeReturn: Double,
                highestSinceEntry: Double, lowestSinceEntry: Double) {
        self.position = position
        self.entryPrice = entryPrice
        self.barsInTrade = barsInTrade
        self.tradeReturn = tradeReturn
        self.highestSinceEntry = highestSinceEntry
        self.lowestSinceEntry = lowestSinceEntry
    }

    /// No position: `position` 0, every other field NaN.
    public static let flat = PositionState(position: 0, entryPrice: .nan, barsInTrade: .nan, tradeReturn: .nan,
                                           highestSinceEntry: .nan, lowestSinceEntry: .nan)

    public static func == (a: PositionState, b: PositionState) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return same(a.position, b.position) && same(a.entryPrice, b.entryPrice) && same(a.barsInTrade, b.barsInTrade)
            && same(a.tradeReturn, b.tradeReturn) && same(a.highestSinceEntry, b.highestSinceEntry)
            && same(a.lowestSinceEntry, b.lowestSinceEntry)
    }
}
