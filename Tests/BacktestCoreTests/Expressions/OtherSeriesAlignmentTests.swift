import Testing
import TestSupport
@testable import BacktestCore

/// The as-of join found by searching (`OtherSeriesAlignment`) equals the join done bar by bar:
/// each run bar sees the last bar closed at or before its close, none older than the limit.
@Suite("Other series: alignment")
struct OtherSeriesAlignmentTests {
    /// The join one run bar at a time: the index seen, or -1.
    static func barByBar(closes: [Int64], maxAge: Int64?, runCloses: [Int64]) -> [Int] {
        var j = -1
        return runCloses.map { close in
            while j + 1 < closes.count && closes[j + 1] <= close { j += 1 }
            return j >= 0 && close - closes[j] <= (maxAge ?? .max) ? j : -1
        }
    }

    /// Ascending times from `count` random steps of 0 to `step` (repeats included).
    static func times(_ count: Int, step: UInt64, start: Int64, rng: inout SplitMix64) -> [Int64] {
        var t = start
        return (0..<count).map { _ in t += Int64(rng.next() % (step + 1)); return t }
    }

    @Test("random series: every run bar sees what the bar-by-bar join sees, values and unseen bars too")
    func equalsBarByBar() {
        var rng = SplitMix64(seed: 2026)
        for trial in 0..<400 {
            let closes = Self.times(Int(rng.next() % 40), step: [1, 5, 60][trial % 3], start: Int64(rng.next() % 50), rng: &rng)
            let runCloses = Self.times(Int(rng.next() % 300), step: [1, 3, 20][trial % 3], start: 0, rng: &rng)
            let maxAge: Int64? = trial % 4 == 0 ? nil : Int64(rng.next() % 30)
            let expected = Self.barByBar(closes: closes, maxAge: maxAge, runCloses: runCloses)
            let alignment = OtherSeriesAlignment(closes: closes, maxAge: maxAge, count: runCloses.count) { runCloses[$0] }
            var seen = [Int](repeating: -1, count: runCloses.count)
            for span in alignment.spans { for i in span.bars { seen[i] = span.bar } }
            #expect(seen == expected, "trial \(trial): closes \(closes), run \(runCloses), maxAge \(String(describing: maxAge))")
            #expect(alignment.unseen == expected.indices.filter { expected[$0] < 0 })
            #expect(alignment.isEmpty == expected.allSatisfy { $0 < 0 })
            let own = closes.indices.map { Double($0) * 1.5 }
            let values = alignment.values(own)
            #expect(values.count == runCloses.count)
            #expect(zip(values, expected).allSatisfy { v, j in j < 0 ? v.isNaN : v == own[j] })
        }
    }

    @Test("a limit that would overflow is no limit, and an empty run or series sees nothing")
    func edges() {
        let far = OtherSeriesAlignment(closes: [10, 20], maxAge: .max, count: 3) { [5, 15, 1_000_000][$0] }
        #expect(far.spans == [.init(bars: 1..<2, bar: 0), .init(bars: 2..<3, bar: 1)])
        #expect(OtherSeriesAlignment(closes: [], maxAge: nil, count: 4) { Int64($0) }.unseen == [0, 1, 2, 3])
        #expect(OtherSeriesAlignment(closes: [1, 2], maxAge: nil, count: 0) { _ in 0 }.values([1, 2]).isEmpty)
    }
}
