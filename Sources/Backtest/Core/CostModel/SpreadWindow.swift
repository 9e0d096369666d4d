/// The spread estimate kept incrementally as fills move forward through the bars: the pairs of
/// the window are read from a column (`SpreadPairs`: the series', computed once, or the run's
/// own, which the window fills as it reaches the pairs), and the window's sum and sum of squares
/// follow the window, re-summed from the column after every 8 `window` additions so rounding
/// never accumulates (the sums then carry at most a few thousand roundings of values near the
/// spread).
///
/// The sums add the pairs in runs that never cross a multiple of `window` (where the ring that
/// once held the window's pairs wrapped), each run with `totals`: the grouping, and so the bits,
/// of every estimate bt has made.
/// - Complexity: O(1) amortized per bar the window passes; O(min(gap, window)) per fill.
struct SpreadWindow {
    let window: Int
    /// The pair ending at the run's bar k at `pairs[k]`; `column` keeps them alive.
    private let column: SpreadPairs
    private let pairs: UnsafePointer<Double>
    /// True when the window computes its column's pairs as it reaches them.
    private let fills: Bool
    /// The pairs in the window are those ending at bars start..<end.
    private var start = 1, end = 1
    private var sum = 0.0, squares = 0.0
    private var added = 0

    /// A window of `window` bars (at least 1) over a run of `bars` bars, the last bars of the
    /// series whose pairs `column` holds.
    init(window: Int, pairs column: SpreadPairs, bars: Int) {
        precondition(window >= 1, "spread window must be at least one bar")
        precondition(column.count >= bars, "the pairs must end with the run's bars")
        precondition(!column.isReached || column.count == bars, "a column computed as reached is the run's own")
        self.window = window
        self.column = column
        pairs = UnsafePointer(column.values + (column.count - bars))
        fills = column.isReached
    }

    /// A window of `window` bars (at least 1) over `candles`, computing their pairs into a
    /// column of its own as it reaches them: the pairs of the windows before the fills, each
    /// once, none of the bars the windows skip.
    init(window: Int, filling candles: CandleSeries) {
        self.init(window: window, pairs: SpreadPairs(reaching: candles, window: window), bars: candles.count)
    }

    /// The pairs' mean and its standard error for a fill on bar `t` (t never decreases between
    /// calls), as `CandleEstimators.spreadSample` (to rounding: the standard error comes from
    /// the running sum of squares); nil with fewer than two bars before `t`.
    mutating func sample(before t: Int) -> CandleEstimators.SpreadSample? {
        let lo = max(0, t - window)
        guard t - lo >= 2 else { return nil }
        let first = lo + 1  // pairs first..<t
        if first >= end || t < end {
            start = first; end = first; sum = 0; squares = 0; added = 0
        }
        let w = window, p = pairs
        // Pairs leaving the window, in at most two runs.
        var slot = start % w
        while start < first {
            let count = min(first - start, w - slot)
            let run = Self.totals(p + start, count)
            sum -= run.sum
            squares -= run.squares
            start += count
            slot += count
            if slot == w { slot = 0 }
        }
        if end < t {
            if fills { column.compute(from: end, to: t) }
            // New pairs end..<t, in at most two runs.
            slot = end % w
            var k = end
            while k < t {
                let count = min(t - k, w - slot)
                let run = Self.totals(p + k, count)
                sum += run.sum
                squares += run.squares
                k += count
                slot += count
                if slot == w { slot = 0 }
            }
            added += t - end
            end = t
            if added >= 8 * w {
                let count = t - start, head = min(count, w - start % w)
                let a = Self.totals(p + start, head), b = Self.totals(p + (start + head), count - head)
                sum = a.sum + b.sum
                squares = a.squares + b.squares
                added = 0
            }
        }
        return CandleEstimators.SpreadSample(sum: sum, squares: squares, pairs: end - start)
    }

    /// The sum of `count` values and the sum of their squares, each with four accumulators (no
    /// serial chain of additions) in one pass: accumulator j takes the values i ≡ j (mod 4) in
    /// order, then the sum is (s0 + s1) + (s2 + s3); the accumulators are the lanes of two
    /// vectors, so each adds the same terms in the same order as four scalars would.
    @inline(__always)
    static func totals(_ p: UnsafePointer<Double>, _ count: Int) -> (sum: Double, squares: Double) {
        typealias V = Lanes.V
        var s01 = V(repeating: 0), s23 = V(repeating: 0), q01 = V(repeating: 0), q23 = V(repeating: 0)
        var i = 0
        while i &+ 4 <= count {
            let a = Lanes.load(p + i), b = Lanes.load(p + (i &+ 2))
            s01 += a; s23 += b
            q01 += a * a; q23 += b * b
            i &+= 4
        }
        var s0 = s01[0], q0 = q01[0]
        while i < count { let a = p[i]; s0 += a; q0 += a * a; i &+= 1 }
        return ((s0 + s01[1]) + (s23[0] + s23[1]), (q0 + q01[1]) + (q23[0] + q23[1]))
    }
}
