@testable import BacktestCore
@testable import BacktestData
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

    /// `CandleSeries.copying` (the C library's one pass that copies a backtest's bars and checks
    /// them four at a time) against `firstUnstorableBar` of the same bars: never passes a series
    /// with a bar bt could not store, passes ordinary ones, and copies every value.
    @Test("the copying check never passes an unstorable series and copies every value")
    func copyingCheck() {
        let edges: [Double] = [0, -0, 1, 100, 1e-300, 1e250, 1e251, -5, 100 * (1 - 1e-10), 100 * (1 - 1e-8), 99, 101,
                               1e-12, 1e-12.nextDown, 1e12, 1e12.nextUp, .nan, .infinity, -.infinity]
        let volumes: [Double] = [0, 1, -1, .nan, .infinity, 1e250, 1e251]
        var rng = SplitMix64(seed: 22)
        var passed = 0, refused = 0
        for round in 0..<3000 {
            let n = 1 + Int(rng.next() % 5000)
            var t = [Int64](), o = [Double](), h = [Double](), l = [Double](), c = [Double](), v = [Double]()
            var price = 100.0
            for i in 0..<n {
                let open = price
                price *= 1 + (Double(rng.next() % 1000) / 1000 - 0.5) * 0.01
                t.append(1_700_000_000 + 60 * Int64(i))
                o.append(open); c.append(price)
                h.append(max(open, price) * (1 + Double(rng.next() % 10) * 1e-4))
                l.append(min(open, price) * (1 - Double(rng.next() % 10) * 1e-4))
                v.append(Double(rng.next() % 100))
            }
            // Two rounds in three, one or two bars spoiled: a field set to an edge value, or a time
            // that does not increase, at any bar (often the first, the last or a block's edge).
            if round % 3 != 0 {
                for _ in 0..<(1 + Int(rng.next() % 2)) {
                    let spots = [0, n - 1, min(n - 1, 2047), min(n - 1, 2048), Int(rng.next() % UInt64(n))]
                    let i = spots[Int(rng.next() % UInt64(spots.count))]
                    let e = edges[Int(rng.next() % UInt64(edges.count))]
                    switch rng.next() % 7 {
                    case 0: o[i] = e
                    case 1: h[i] = e
                    case 2: l[i] = e
                    case 3: c[i] = e
                    case 4: v[i] = volumes[Int(rng.next() % UInt64(volumes.count))]
                    case 5: if i > 0 { t[i] = t[i - 1] - Int64(rng.next() % 2) }
                    default: t[i] = [-1, UTCTime.supportedRange.upperBound + 1, Int64.min][Int(rng.next() % 3)]
                    }
                }
            }
            let whole = CandleSeries(symbol: "X", timeframe: .minute1, time: t, open: o, high: h, low: l, close: c, volume: v)
            let (copy, storable) = round % 5 == 4
                ? CandleSeries.copying(symbol: "X", timeframe: .minute1, count: n, time: t, open: o, high: h, low: l, close: c, volume: nil)
                : CandleSeries.copying(symbol: "X", timeframe: .minute1, count: n, time: t, open: o, high: h, low: l, close: c, volume: v)
            let expected = round % 5 == 4
                ? CandleSeries(symbol: "X", timeframe: .minute1, time: t, open: o, high: h, low: l, close: c,
                               volume: [Double](repeating: 0, count: n))
                : whole
            let bad = expected.firstUnstorableBar
            #expect(!(storable && bad != nil), "round \(round): passed a series with bar \(bad?.index ?? -1) unstorable")
            #expect(!(round % 3 == 0 && !storable), "round \(round): refused ordinary bars")
            #expect(copy.time == expected.time && copy.volume.elementsEqual(expected.volume) { $0.bitPattern == $1.bitPattern })
            for (a, b) in [(copy.open, o), (copy.high, h), (copy.low, l), (copy.close, c)] {
                #expect(a.elementsEqual(b) { $0.bitPattern == $1.bitPattern })
            }
            if storable { passed += 1 } else { refused += 1 }
        }
        #expect(passed > 1000 && refused > 500)
    }

    @Test("a long series, copied and checked in parts on several cores, finds a bad bar at any part's edge")
    func longSeriesInParts() {
        let n = 600_000, blocks = (n + 2047) / 2048
        var t = [Int64](), o = [Double](), h = [Double](), l = [Double](), c = [Double](), v = [Double]()
        for i in 0..<n {
            let p = 100 + Double(i % 1000) / 100
            t.append(1_600_000_000 + 60 * Int64(i)); o.append(p); h.append(p + 0.5); l.append(p - 0.5); c.append(p); v.append(1)
        }
        let (whole, good) = CandleSeries.copying(symbol: "X", timeframe: .minute1, count: n, time: t, open: o, high: h, low: l,
                                                 close: c, volume: v)
        #expect(good && whole.time == t && whole.close == c && whole.volume == v)
        // The first bar of each part, and the last of the part before, for two to four parts.
        let edges = Set((2...4).flatMap { parts in (1..<parts).map { k in k * ((blocks + parts - 1) / parts) * 2048 } })
        for edge in edges.sorted() where edge < n {
            for (spot, spoil) in [(edge, 0), (edge - 1, 1), (edge, 2)] {
                var (t2, h2) = (t, h)
                switch spoil {
                case 0: t2[spot] = t2[spot - 1]  // a time that does not follow the part before's last
                case 1: h2[spot] = .nan
                default: h2[spot] = l[spot] - 1
                }
                let (_, storable) = CandleSeries.copying(symbol: "X", timeframe: .minute1, count: n, time: t2, open: o, high: h2,
                                                         low: l, close: c, volume: v)
                #expect(!storable, "bar \(spot), spoiled \(spoil)")
            }
        }
    }
}
