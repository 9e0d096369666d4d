@testable import BacktestCore
@testable import BacktestIO
import TestSupport
import Testing

/// The store's branch-free bar check (`ParsedCandles.accepts`) must say what the importer's
/// worded one (`problem`) says, or a damaged bar the importer refuses could load from a store.
@Suite("Bar check twins")
struct BarCheckTwinTests {
    @Test("accepts is 1 exactly when problem is nil, on edge and random bars with finite prices")
    func twinsAgree() {
        let edges: [Double] = [0, -0, 1, 100, 1e-300, 1e250, -1e250, 1e251, -5, 100 * (1 - 1e-10), 100 * (1 - 1e-8), 99, 101,
                               1e-12, 1e-12.nextDown, 1e12, 1e12.nextUp, 2e-12, 5e11, 100, 100, 101, 99]
        let volumes: [Double] = [0, 1, -1, .nan, .infinity, 1e250, 1e251]
        let times: [Int64] = [0, -1, 1_700_000_000, UTCTime.supportedRange.upperBound, UTCTime.supportedRange.upperBound + 1]
        var rng = SplitMix64(seed: 26)
        var checked = 0
        for _ in 0..<40_000 {
            func pick(_ a: [Double]) -> Double { a[Int(rng.next() % UInt64(a.count))] }
            let o = pick(edges), c = pick(edges), h = pick(edges), l = pick(edges)
            let v = pick(volumes), t = times[Int(rng.next() % UInt64(times.count))]
            let twin = ParsedCandles.accepts(time: t, open: o, high: h, low: l, close: c, volume: v)
            let worded = ParsedCandles.problem(time: t, open: o, high: h, low: l, close: c, volume: v)
            #expect(twin == (worded == nil ? 1 : 0), "t \(t) o \(o) h \(h) l \(l) c \(c) v \(v): \(worded ?? "accepted")")
            if twin != (worded == nil ? 1 : 0) { break }
            checked += Int(twin)
        }
        #expect(checked > 100, "the draws include accepted bars")
        // A flat bar without volume is a close-only bar: accepted by both.
        #expect(ParsedCandles.accepts(time: 0, open: 5, high: 5, low: 5, close: 5, volume: .nan) == 1)
    }

    @Test("a NaN or infinite price is never accepted", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinitePrices(bad: Double) {
        for k in 0..<4 {
            var p = [100.0, 101, 99, 100]
            p[k] = bad
            #expect(ParsedCandles.accepts(time: 0, open: p[0], high: p[1], low: p[2], close: p[3], volume: 1) == 0)
        }
    }
}
