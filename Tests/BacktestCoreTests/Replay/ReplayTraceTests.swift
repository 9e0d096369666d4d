import Testing
import TestSupport
@testable import BacktestCore

/// The replay's trace for report.html: steps folded into at most `capacity` columns, each
/// holding the exact lowest and highest value of each series over its steps; and the replay
/// traced records, at every step, the book's mid, the quotes in force and the position, without
/// changing a fill.
@Suite("ReplayTrace")
struct ReplayTraceTests {
    /// Seeded steps: a random walk for the mid with rare spikes, quotes with gaps, a position.
    static func steps(seed: UInt64, count: Int) -> [(ns: Int64, values: [Double])] {
        var rng = SplitMix64(seed: seed)
        var mid = 1000.0, position = 0.0
        return (0..<count).map { k in
            mid += Double(rng.int(-2...2)) / 2 + (rng.unit() < 0.002 ? Double(rng.int(-60...60)) : 0)
            position += rng.unit() < 0.05 ? Double(rng.int(-2...2)) : 0
            let bid = rng.unit() < 0.1 ? Double.nan : mid - 1, ask = rng.unit() < 0.01 ? Double.nan : mid + 1
            return (1_700_000_000_000_000_000 + Int64(k) * 100_000_000, [mid, bid, ask, position])
        }
    }

    @Test("every column holds each series' exact lowest and highest value over its steps, at the steps they fell on",
          arguments: [(UInt64(1), 7, 16), (2, 16, 16), (3, 17, 16), (4, 1_000, 16), (5, 100_000, 4096), (6, 33_333, 64), (7, 5, 2)])
    func extremesKept(seed: UInt64, count: Int, capacity: Int) {
        let steps = Self.steps(seed: seed, count: count)
        var trace = ReplayTrace(capacity: capacity)
        for s in steps { trace.record(at: s.ns, (s.values[0], s.values[1], s.values[2], s.values[3])) }
        #expect(trace.steps == count)
        // Columns of equal width (a power of two) cover the steps in order; between half the
        // capacity and the capacity of them once the steps outnumber it.
        #expect(trace.columns.count <= capacity && (count <= capacity || trace.columns.count > capacity / 2))
        #expect(trace.stepsPerColumn == 1 || count > capacity)
        var next = 0
        for (k, column) in trace.columns.enumerated() {
            #expect(column.firstStep == next)
            #expect(column.steps == trace.stepsPerColumn || (k == trace.columns.count - 1 && column.steps < trace.stepsPerColumn))
            let range = column.firstStep..<(column.firstStep + column.steps)
            #expect(column.firstNs == steps[range.lowerBound].ns && column.lastNs == steps[range.upperBound - 1].ns)
            for series in ReplayTrace.Series.allCases {
                let e = column[series]
                let finite = range.filter { steps[$0].values[series.rawValue].isFinite }
                guard let lo = finite.min(by: { steps[$0].values[series.rawValue] < steps[$1].values[series.rawValue] }),
                      let hi = finite.max(by: { steps[$0].values[series.rawValue] < steps[$1].values[series.rawValue] }) else {
                    #expect(e.min.isNaN && e.max.isNaN && e.minStep == -1 && e.maxStep == -1)
                    continue
                }
                // Bools, so a failure names the column rather than printing every value.
                let exact = e.min == steps[lo].values[series.rawValue] && e.max == steps[hi].values[series.rawValue]
                let at = steps[e.minStep].values[series.rawValue] == e.min && steps[e.maxStep].values[series.rawValue] == e.max
                    && range.contains(e.minStep) && range.contains(e.maxStep)
                #expect(exact && at, "seed \(seed): column \(k), \(series)")
            }
            next = range.upperBound
        }
        #expect(next == count)
    }

    @Test("memory stays bounded: a day of 100 ms steps keeps at most the capacity of columns")
    func bounded() {
        var trace = ReplayTrace(capacity: 4096)
        for k in 0..<864_000 { trace.record(at: Int64(k) * 100_000_000, (Double(k % 977), .nan, 1, 0)) }
        #expect(trace.columns.count > 2048 && trace.columns.count <= 4096 && trace.stepsPerColumn == 256)
        #expect(trace.columns[0][.mid] == ReplayTrace.Extremes(min: 0, minStep: 0, max: 255, maxStep: 255))
        #expect(trace.columns[3][.mid] == ReplayTrace.Extremes(min: 0, minStep: 977, max: 976, maxStep: 976))
        #expect(trace.columns[0][.bidQuote].minStep == -1 && trace.columns.last?.lastNs == 863_999 * 100_000_000)
    }

    @Test("a traced replay: its fills and counts are the untraced one's; at each step the mid, the quote in force and the position seen",
          arguments: [UInt64(1), 2, 3])
    func tracedReplay(seed: UInt64) throws {
        let events = EventReplayTests.market(seed: seed)
        let settings = try ReplaySettings(everyNs: 9_000_000, quoteSize: 1, maxPosition: 3, latency: try ReplayLatency(entryNs: 0, responseNs: 0),
                                          lot: 0.001)
        func run(trace: Bool) throws -> ReplayResult {
            var replay = EventReplay(settings: settings, bidQuote: try QuoteExpression("best_bid", setting: .quoteBid),
                                     askQuote: try QuoteExpression("best_ask + 1", setting: .quoteAsk))
            replay.tracesSteps = trace
            var source = ArrayMarketEvents(events)
            return try replay.run(&source)
        }
        let plain = try run(trace: false), traced = try run(trace: true)
        #expect(plain.trace == nil)
        #expect(traced.fills == plain.fills && traced.steps == plain.steps && traced.ordersSent == plain.ordersSent)
        #expect(traced.pnl == plain.pnl && traced.events == plain.events && plain.fills.count > 10)
        let trace = try #require(traced.trace)
        // Fewer steps than the capacity: a column per step.
        #expect(trace.steps == traced.steps && trace.stepsPerColumn == 1 && trace.columns.count == traced.steps)

        // Restated independently: the book as of each step (every event at or before it), the
        // fills seen by then, and the quotes the strategy keeps with zero latency.
        var book = OrderBook(), next = 0, position = 0.0, fill = 0
        var quotedBid = 0, quotedAsk = 0
        for column in trace.columns {
            let ns = column.firstNs
            while next < events.count && events[next].timeMs * 1_000_000 <= ns {
                if case .book(let b) = events[next] { book.apply(b) }
                next += 1
            }
            while fill < traced.fills.count && traced.fills[fill].localNs <= ns {
                position += traced.fills[fill].side == .buy ? traced.fills[fill].quantity : -traced.fills[fill].quantity
                fill += 1
            }
            let mid = ((book.bestBid ?? .nan) + (book.bestAsk ?? .nan)) / 2
            #expect(column[.mid].min == mid || (mid.isNaN && column[.mid].min.isNaN), "step at \(ns)")
            #expect(abs(column[.position].min - position) < 1e-9, "step at \(ns)")
            let bid = column[.bidQuote].min, ask = column[.askQuote].min
            // A side is quoted at its price exactly while a fill keeps the position within 3.
            #expect(position + 1 <= 3 + 1e-9 ? bid == book.bestBid : bid.isNaN, "step at \(ns)")
            #expect(position - 1 >= -3 - 1e-9 ? ask == (book.bestAsk ?? .nan) + 1 : ask.isNaN, "step at \(ns)")
            if bid.isFinite { quotedBid += 1 }
            if ask.isFinite { quotedAsk += 1 }
        }
        #expect(quotedBid > 0 && quotedAsk > 0)
    }
}
