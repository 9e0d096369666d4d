import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestPresentation

/// A replay's chart points (`ReplayDisplay`): each column of the trace drawn as its lowest and
/// highest value of every series in time order, and every fill on the point it falls on.
@Suite("Replay chart points")
struct ReplayDisplayTests {
    @Test("each column's points hold every series' lowest and highest value, the earlier first; each fill on the last point at or before it",
          arguments: [(UInt64(1), 50, 64), (2, 5_000, 64), (3, 70_000, 512), (4, 3, 2)])
    func points(seed: UInt64, count: Int, capacity: Int) {
        var rng = SplitMix64(seed: seed)
        var trace = ReplayTrace(capacity: capacity)
        var mid = 100.0, position = 0.0
        let t0: Int64 = 1_700_000_000_000_000_000
        for k in 0..<count {
            mid += Double(rng.int(-3...3)) / 4 + (rng.unit() < 0.001 ? 25 : 0)
            position += Double(rng.int(-1...1))
            trace.record(at: t0 + Int64(k) * 100_000_000, (mid, rng.unit() < 0.2 ? .nan : mid - 0.5, mid + 0.5, position))
        }
        // Fills in time order (as a replay hears them), from before the first step to after the last.
        let span = Int64(count) * 100_000_000
        let times: [Int64] = (0..<40).map { (k: Int) -> Int64 in
            let jitter = Int64(rng.int(0...99)) * 1_000_000
            return t0 - 50_000_000 + Int64(k) * span / 40 + jitter
        }.sorted()
        let fills = times.enumerated().map { k, ns in
            ReplayFill(orderID: k + 1, side: k % 2 == 0 ? .buy : .sell, price: 100, quantity: 1, arrivalNs: 0, exchangeNs: ns,
                       localNs: 0, maker: true, queueAhead: 0, entryLatencyNs: 0, responseLatencyNs: 0, fee: 0)
        }
        let display = ReplayDisplay(trace: trace, fills: fills)
        #expect(display.thinned == (count > capacity) && display.steps == count)
        var point = 0
        for column in trace.columns {
            let n = column.steps == 1 ? 1 : 2
            #expect(display.time[point] == Double(column.firstNs) / 1e9 && display.time[point + n - 1] == Double(column.lastNs) / 1e9)
            for series in ReplayTrace.Series.allCases {
                let e = column[series], drawn = Array(display.values[series.rawValue][point..<(point + n)])
                let want = n == 1 ? [e.min] : e.minStep <= e.maxStep ? [e.min, e.max] : [e.max, e.min]
                let same = zip(drawn, want).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
                #expect(same, "column at step \(column.firstStep), \(series): \(drawn) vs \(want)")
            }
            point += n
        }
        #expect(point == display.time.count && display.values.allSatisfy { $0.count == point })
        #expect(display.time.count <= 2 * capacity)
        #expect(display.fillIndex.count == fills.count)
        for (k, fill) in fills.enumerated() {
            let i = display.fillIndex[k], t = Double(fill.exchangeNs) / 1e9
            #expect(i == 0 || display.time[i] <= t, "fill \(k)")
            #expect(i == display.time.count - 1 || display.time[i + 1] > t, "fill \(k)")
        }
        #expect(display.fillIndex == display.fillIndex.sorted())
    }
}
