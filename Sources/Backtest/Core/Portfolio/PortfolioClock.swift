/// The portfolio's clock: the union of the symbols' bar times, each symbol trading on its own
/// calendar. A row is a time at which at least one symbol has a bar.
struct PortfolioClock {
    let time: [Int64]

    /// The union of `series` (each strictly increasing).
    /// - Complexity: O(symbols x rows) merging; O(bars) when every symbol has the same calendar.
    init(_ series: [[Int64]]) {
        guard var union = series.first else { time = []; return }
        for other in series.dropFirst() where other != union {
            union = Self.merge(union, other)
        }
        time = union
    }

    var count: Int { time.count }

    /// The sorted union of two strictly increasing arrays.
    static func merge(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        var out: [Int64] = []
        out.reserveCapacity(max(a.count, b.count))
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] { out.append(a[i]); i += 1 } else if b[j] < a[i] { out.append(b[j]); j += 1 } else {
                out.append(a[i]); i += 1; j += 1
            }
        }
        out += a[i...]
        out += b[j...]
        return out
    }

    /// The row holding time `t` (which must be one of the clock's times).
    func row(of t: Int64) -> Int {
        var lo = 0, hi = time.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if time[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        precondition(lo < time.count && time[lo] == t, "a symbol's bar time is not on the portfolio clock")
        return lo
    }

    /// Rows where target weights are restored: the first row of each new week or month (row 0
    /// excluded), or rows N, 2N, ... With next-open fills the decision is taken at the previous
    /// row's close and fills at this row's open; with close fills it is taken and filled at
    /// this row's close. Either way no row's time after the decision is read.
    func rebalanceRows(_ rebalance: PortfolioRules.Rebalance) -> [Bool] {
        let n = time.count
        var out = [Bool](repeating: false, count: n)
        guard n > 1 else { return out }
        switch rebalance {
        case .never: break
        case .weekly, .monthly:
            let frame: Timeframe = rebalance == .weekly ? .week1 : .month1
            var previous = frame.bucketStart(time[0])
            for r in 1..<n {
                let bucket = frame.bucketStart(time[r])
                if bucket != previous { out[r] = true }
                previous = bucket
            }
        case .bars(let k):
            for r in stride(from: k, to: n, by: k) { out[r] = true }
        }
        return out
    }
}

/// Signal events by row, in compressed rows: for row r, `symbol[start[r]..<start[r+1]]` (in
/// ascending symbol order) with the own bar that signalled.
struct PortfolioEvents {
    private(set) var start: [Int]
    private(set) var symbol: [Int32]
    private(set) var bar: [Int32]

    /// Events of `rows` rows from parallel arrays (one element per event, given in ascending
    /// symbol order): the symbol, its signal bar and the row the event acts on.
    init(rows: Int, symbols: [Int32], bars: [Int32], eventRows: [Int32]) {
        var count = [Int](repeating: 0, count: rows + 1)
        for r in eventRows { count[Int(r) + 1] += 1 }
        for r in 0..<rows { count[r + 1] += count[r] }
        start = count
        symbol = [Int32](repeating: 0, count: symbols.count)
        bar = [Int32](repeating: 0, count: symbols.count)
        var next = count
        for e in eventRows.indices {
            let r = Int(eventRows[e])
            let k = next[r]
            symbol[k] = symbols[e]
            bar[k] = bars[e]
            next[r] += 1
        }
    }

    /// The events of row `r`.
    @inline(__always) func range(_ r: Int) -> Range<Int> { start[r]..<start[r + 1] }

    /// The signal bar of symbol `j`'s event on row `r` (a symbol has one at most), or nil.
    func bar(of j: Int, row r: Int) -> Int? {
        range(r).first { symbol[$0] == Int32(j) }.map { Int(bar[$0]) }
    }
}
