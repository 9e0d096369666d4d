/// A perpetual's funding rows as a run walks its bars (docs/design/orders.md, "Funding"): on bar
/// t, after its open fills, the rows with a time in [time[t], end of bar t) are settled on the
/// position held then. Rows are visited once, in time order.
struct FundingSchedule {
    private let rows: [FundingRate]
    /// The first row not yet settled or passed.
    private var next = 0

    /// `rows` in time order (as the store gives them).
    init(_ rows: [FundingRate]) {
        self.rows = rows
    }

    /// The amount a position of `quantity` pays for the rows in [startMs, endMs) (negative: it
    /// receives), each at its mark price, else at `lastClose`; rows before `startMs` are passed
    /// over unpaid (no position was held then). A row whose amount is not finite (no mark and no
    /// close before it) pays nothing. `quantity` is in units of the underlying (contracts ×
    /// multiplier); `inverse`: they are quote units, and the position pays quantity / mark ×
    /// rate coins (Binance COIN-M: the position's value in the coin at the mark price × rate).
    mutating func settle(quantity: Double, startMs: Int64, endMs: Int64, lastClose: Double, inverse: Bool = false) -> Double {
        var paid = 0.0
        while next < rows.count, rows[next].timeMs < endMs {
            let row = rows[next]
            next += 1
            guard row.timeMs >= startMs else { continue }
            let mark = row.markPrice ?? lastClose
            let amount = inverse ? quantity / mark * row.rate : quantity * mark * row.rate
            if amount.isFinite { paid += amount }
        }
        return paid
    }

    /// The rows with a time in [firstMs, endMs).
    func count(from firstMs: Int64, to endMs: Int64) -> Int {
        rows.lazy.filter { $0.timeMs >= firstMs && $0.timeMs < endMs }.count
    }
}
