/// The Corwin-Schultz pairs of a candle series, the pair ending at bar k at `values[k]` (k ≥ 1;
/// `values[0]` is 0), as `CandleEstimators.pairs` computes them: the one place the pairs the
/// synthetic book's spread window reads (`SpreadWindow`) are computed, in one of two ways.
///
/// - Every pair at once (`init(_:)`), for the runs that share a series: a run's
///   `IndicatorCache` holds its series' column (`IndicatorCache.spreadPairs(of:)`), so a sweep's
///   combinations, a walk-forward step's, a cost table's runs and `bt run` with its cost table
///   read the pairs computed once.
/// - As one run's window reaches them (`init(count:)`, then `compute`): a portfolio's symbol,
///   whose fills are far apart, computes only the pairs of the windows before its fills (all
///   500 symbols' whole columns took a third of `bt bench portfolio`).
final class SpreadPairs: @unchecked Sendable {
    /// Bars of the series.
    let count: Int
    let values: UnsafeMutablePointer<Double>

    /// Room for the pairs of `count` bars, none computed yet (`compute` fills them).
    init(count: Int) {
        self.count = count
        values = .allocate(capacity: max(1, count))
        values[0] = 0
    }

    /// Every pair of `candles`.
    convenience init(_ candles: CandleSeries) {
        self.init(count: candles.count)
        guard count >= 2 else { return }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.scratch(run: min(count, Self.chunk))) {
            compute(candles, from: 1, to: count, scratch: $0)
        }
    }

    deinit { values.deallocate() }

    /// Bars per call of `CandleEstimators.pairs` at most (its scratch stays in cache).
    static let chunk = 8192

    /// The scratch `compute` needs to take pairs `run` at a time.
    static func scratch(run: Int) -> Int { 2 * run + 2 }

    /// Computes the pairs ending at bars `from..<to` of `candles` (the column's series;
    /// from ≥ 1), as many at a time as `scratch` (`scratch(run:)` Doubles) allows.
    func compute(_ candles: CandleSeries, from: Int, to: Int, scratch: UnsafeMutableBufferPointer<Double>) {
        let run = (scratch.count - 2) / 2
        precondition(from >= 1 && to <= count && candles.count == count && run >= 1, "pairs out of range")
        guard from < to else { return }
        let s = scratch.baseAddress!
        candles.high.withUnsafeBufferPointer { h in
            candles.low.withUnsafeBufferPointer { l in
                candles.close.withUnsafeBufferPointer { c in
                    var k = from
                    while k < to {
                        let n = min(to - k, run)
                        CandleEstimators.pairs(h.baseAddress!, l.baseAddress!, c.baseAddress!, from: k, count: n,
                                               into: values + k, own: s, flags: s + (run + 1))
                        k += n
                    }
                }
            }
        }
    }
}
