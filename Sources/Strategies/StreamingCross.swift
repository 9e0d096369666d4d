import Backtest

/// `Cross` one bar at a time: the crossing and level tests of the built-ins' incremental forms,
/// the same predicates on the same values (so the same truth, NaN included).
struct StreamingCross: Sendable {
    private var previous: (a: Double, b: Double)?

    /// Whether `a` crossed above and below `b` at this bar (`Cross.both`); false at the first.
    mutating func next(_ a: Double, _ b: Double) -> (above: Bool, below: Bool) {
        defer { previous = (a, b) }
        guard let (a0, b0) = previous else { return (false, false) }
        return (a > b && a0 <= b0, a < b && a0 >= b0)
    }
}

/// The value of the bar before (`Array.laggedOneBar`): NaN at the first bar.
struct OneBarLag: Sendable {
    private var last = Double.nan

    mutating func next(_ x: Double) -> Double {
        defer { last = x }
        return last
    }
}
