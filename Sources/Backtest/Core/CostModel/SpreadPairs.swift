/// The Corwin-Schultz pairs of a candle series, the pair ending at bar k at `values[k]` (k ≥ 1;
/// `values[0]` is 0), as `CandleEstimators.pairs` computes them: the one place the pairs the
/// synthetic book's spread window reads (`SpreadWindow`) are computed, in one of two ways.
///
/// - Every pair at once (`init(_:)`), for the runs that share a series: a run's
///   `IndicatorCache` holds its series' column (`IndicatorCache.spreadPairs(of:)`), so a sweep's
///   combinations, a walk-forward step's, a cost table's runs and `bt run` with its cost table
///   read the pairs computed once.
/// - As one run's window reaches them (`init(reaching:window:)`, then `compute(from:to:)`): a
///   portfolio's symbol, whose fills are far apart, computes only the pairs of the windows
///   before its fills (all 500 symbols' whole columns took a third of `bt bench portfolio`).
final class SpreadPairs: @unchecked Sendable {
    /// Bars of the series.
    let count: Int
    let values: UnsafeMutablePointer<Double>
    /// The series while pairs remain to be computed as a window reaches them (nil: every pair
    /// is computed), and scratch for `CandleEstimators.pairs` to take `run` pairs at a time.
    private let reaching: CandleSeries?
    private let run: Int
    private let scratch: UnsafeMutablePointer<Double>?

    /// Every pair of `candles`.
    init(_ candles: CandleSeries) {
        count = candles.count
        values = .allocate(capacity: max(1, count))
        values[0] = 0
        reaching = nil
        run = max(1, min(count, Self.chunk))
        scratch = nil
        let s = UnsafeMutablePointer<Double>.allocate(capacity: 2 * run + 2)
        defer { s.deallocate() }
        Self.compute(candles, from: 1, to: count, into: values, run: run, scratch: s)
    }

    /// Room for the pairs of `candles`, none computed yet: a window of `window` bars computes
    /// those it reaches (`compute(from:to:)`).
    init(reaching candles: CandleSeries, window: Int) {
        count = candles.count
        values = .allocate(capacity: max(1, count))
        values[0] = 0
        reaching = candles
        run = max(1, min(window, Self.chunk))
        scratch = .allocate(capacity: 2 * run + 2)
    }

    deinit {
        values.deallocate()
        scratch?.deallocate()
    }

    /// Bars per call of `CandleEstimators.pairs` at most (its scratch stays in cache).
    static let chunk = 8192

    /// True when the pairs are computed as a window reaches them.
    var isReached: Bool { reaching != nil }

    /// Computes the pairs ending at bars `from..<to` (from ≥ 1) of a column made with
    /// `init(reaching:window:)`.
    func compute(from: Int, to: Int) {
        guard let reaching, let scratch else { preconditionFailure("the column holds every pair already") }
        Self.compute(reaching, from: from, to: to, into: values, run: run, scratch: scratch)
    }

    /// The pairs ending at bars `from..<to` of `candles` into `values`, `run` at a time with
    /// `scratch` of `2 * run + 2` Doubles.
    private static func compute(_ candles: CandleSeries, from: Int, to: Int, into values: UnsafeMutablePointer<Double>,
                                run: Int, scratch: UnsafeMutablePointer<Double>) {
        precondition(from >= 1 && to <= candles.count, "pairs out of range")
        guard from < to else { return }
        candles.high.withUnsafeBufferPointer { h in
            candles.low.withUnsafeBufferPointer { l in
                candles.close.withUnsafeBufferPointer { c in
                    var k = from
                    while k < to {
                        let n = min(to - k, run)
                        CandleEstimators.pairs(h.baseAddress!, l.baseAddress!, c.baseAddress!, from: k, count: n,
                                               into: values + k, own: scratch, flags: scratch + (run + 1))
                        k += n
                    }
                }
            }
        }
    }
}
