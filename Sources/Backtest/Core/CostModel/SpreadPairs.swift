/// Every Corwin-Schultz pair of a candle series, the pair ending at bar k at `values[k]` (k ≥ 1;
/// `values[0]` is 0), as `CandleEstimators.pairs` computes them: what a run's spread window
/// would compute for itself, computed once for the runs that share a series. A sweep's
/// combinations at synthetic depth read them from their `IndicatorCache`
/// (`keepsSpreadPairs`).
final class SpreadPairs: @unchecked Sendable {
    /// Bars of the series.
    let count: Int
    let values: UnsafeMutablePointer<Double>

    /// Room for the pairs of `count` bars; none computed yet.
    init(count: Int) {
        self.count = count
        values = .allocate(capacity: max(1, count))
        values[0] = 0
    }

    /// Every pair of `candles`.
    convenience init(_ candles: CandleSeries) {
        self.init(count: candles.count)
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: 2 * Self.chunk + 2)
        defer { scratch.deallocate() }
        var k = 1
        while k < count {
            let end = min(count, k + Self.chunk)
            compute(candles, from: k, to: end, scratch: scratch)
            k = end
        }
    }

    deinit { values.deallocate() }

    /// Bars per call of `compute` that `scratch` must hold twice over (plus two).
    static let chunk = 8192

    /// Computes the pairs ending at bars `from..<to` (from ≥ 1, at most `chunk` of them) with
    /// `scratch` of `2 * chunk + 2` Doubles.
    func compute(_ candles: CandleSeries, from: Int, to: Int, scratch: UnsafeMutablePointer<Double>) {
        precondition(from >= 1 && to <= count && to - from <= Self.chunk, "pairs out of range")
        guard from < to else { return }
        candles.high.withUnsafeBufferPointer { h in
            candles.low.withUnsafeBufferPointer { l in
                candles.close.withUnsafeBufferPointer { c in
                    CandleEstimators.pairs(h.baseAddress!, l.baseAddress!, c.baseAddress!, from: from, count: to - from,
                                           into: values + from, own: scratch, flags: scratch + Self.chunk + 1)
                }
            }
        }
    }
}
