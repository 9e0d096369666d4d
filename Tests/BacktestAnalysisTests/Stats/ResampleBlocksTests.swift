import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

/// Blocks drawn once (`ResampleBlocks`, `SharedResamples`) give the interval that drawing them
/// for each series gives, bit for bit.
@Suite("Sharpe bootstrap with shared blocks")
struct ResampleBlocksTests {
    static func same(_ a: (low: Double, high: Double), _ b: (low: Double, high: Double)) -> Bool {
        func eq(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
        return eq(a.low, b.low) && eq(a.high, b.high)
    }

    static let settings: [Uncertainty.Bootstrap] = [
        .standard, .init(resamples: 300, seed: 7), .init(resamples: 200, meanBlockLength: 1),
        .init(resamples: 200, seed: 3, confidence: 0.9, meanBlockLength: 50),
    ]

    @Test("drawn once, the blocks give the interval drawn per series", arguments: [3, 4, 17, 100, 1_000, 5_000])
    func blocksEqualDrawing(n: Int) {
        for (k, bootstrap) in Self.settings.enumerated() {
            let r = SharpeBootstrapTests.gaussian(n, mean: 0.0004, sigma: 0.01, seed: UInt(n + k))
            let blocks = Uncertainty.ResampleBlocks(seriesCount: n, bootstrap: bootstrap)
            let shared = Uncertainty.sharpeInterval(r, periodsPerYear: 252, blocks: blocks)
            let drawn = Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: bootstrap)
            #expect(Self.same(shared, drawn), "n \(n), settings \(k): \(shared) vs \(drawn)")
            // The same blocks serve another series of that length.
            let other = SharpeBootstrapTests.gaussian(n, mean: -0.0002, sigma: 0.02, seed: UInt(900 + n))
            #expect(Self.same(Uncertainty.sharpeInterval(other, periodsPerYear: 12, blocks: blocks),
                              Uncertainty.sharpeInterval(other, periodsPerYear: 12, bootstrap: bootstrap)))
        }
    }

    @Test("both paths are the one-block-at-a-time reference")
    func equalsReference() {
        for n in [50, 5_000] {
            let r = SharpeBootstrapTests.gaussian(n, mean: 0.0003, sigma: 0.01, seed: 11)
            let reference = SharpeBootstrapTests.oneBlockAtATime(r, periodsPerYear: 252, resamples: 400, seed: 42)
            let bootstrap = Uncertainty.Bootstrap(resamples: 400)
            #expect(Self.same(Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: bootstrap), reference))
            #expect(Self.same(Uncertainty.sharpeInterval(r, periodsPerYear: 252,
                                                         blocks: .init(seriesCount: n, bootstrap: bootstrap)), reference))
        }
    }

    @Test("each resample's blocks lie in the series and add up to its length")
    func blocksCoverTheSeries() {
        let n = 997, bootstrap = Uncertainty.Bootstrap(resamples: 50, meanBlockLength: 30)
        let blocks = Uncertainty.ResampleBlocks(seriesCount: n, bootstrap: bootstrap)
        #expect(blocks.run.ends.count == 50)
        var b = 0, lengths: [Int] = []
        for end in blocks.run.ends {
            var filled = 0
            while b < end {
                #expect(blocks.run.blocks[b][0] < UInt32(n) && blocks.run.blocks[b][1] >= 1)
                filled += Int(blocks.run.blocks[b][1]); lengths.append(Int(blocks.run.blocks[b][1])); b += 1
            }
            #expect(filled == n)
        }
        #expect(b == blocks.run.blocks.count)
        // Mean block length near 30 (blocks cut at the end are shorter).
        let mean = Double(lengths.reduce(0, +)) / Double(lengths.count)
        #expect(mean > 20 && mean < 35, "mean block \(mean)")
        #expect(blocks.run.blocks.count <= Uncertainty.ResampleBlocks.expectedBlocks(seriesCount: n, bootstrap: bootstrap) * 2)
    }

    @Test("constant and non-finite series have no interval with shared blocks either")
    func degenerate() {
        let blocks = Uncertainty.ResampleBlocks(seriesCount: 5)
        #expect(Uncertainty.sharpeInterval([0, 0, 0, 0, 0], periodsPerYear: 252, blocks: blocks).low.isNaN)
        #expect(Uncertainty.sharpeInterval([0.1, .nan, 0.2, 0.1, 0], periodsPerYear: 252, blocks: blocks).high.isNaN)
        let shared = Uncertainty.SharedResamples()
        #expect(shared.sharpeInterval([0.1, 0.2], periodsPerYear: 252).low.isNaN)
        #expect(shared.keptLengths == 0)
    }

    @Test("blocks are kept for lengths asked for again, within the budget, and give the same intervals from parallel jobs")
    func sharedAcrossJobs() {
        let lengths = [400, 400, 900, 400, 900, 1_300]
        let series = lengths.enumerated().map { SharpeBootstrapTests.gaussian($1, mean: 0.0005, sigma: 0.01, seed: UInt($0 + 1)) }
        let expected = series.map { Uncertainty.sharpeInterval($0, periodsPerYear: 252) }
        let shared = Uncertainty.SharedResamples()
        let got = Locked([(low: Double, high: Double)?](repeating: nil, count: series.count))
        DispatchQueue.concurrentPerform(iterations: series.count) { i in
            let ci = shared.sharpeInterval(series[i], periodsPerYear: 252)
            got.withLock { $0[i] = ci }
        }
        let intervals = got.withLock { $0 }
        for i in series.indices { #expect(Self.same(intervals[i]!, expected[i]), "series \(i)") }
        #expect(shared.keptLengths == 2)   // 400 and 900, asked for again; 1,300 once
        // A budget too small for any length keeps none, with the same intervals.
        let none = Uncertainty.SharedResamples(budget: 1_000)
        for i in series.indices { #expect(Self.same(none.sharpeInterval(series[i], periodsPerYear: 252), expected[i])) }
        #expect(none.keptLengths == 0)
        // Room for the first length only: later lengths are bootstrapped as single series.
        let one = Uncertainty.SharedResamples(budget: Uncertainty.ResampleBlocks(seriesCount: 400).byteCount + 16)
        for i in series.indices { #expect(Self.same(one.sharpeInterval(series[i], periodsPerYear: 252), expected[i])) }
        #expect(one.keptLengths == 1)
    }

    @Test("statistics computed with shared blocks are the statistics, every value bit for bit")
    func statsSharing() throws {
        let shared = Uncertainty.SharedResamples()
        for curve in ["goog_buy_hold", "goog_buy_hold"] {
            let result = try StatsFixtures.result(curve: curve, initial: 10_000)
            let a = Stats(result, periodsPerYear: 252), b = Stats(result, periodsPerYear: 252, sharing: shared)
            for (x, y) in zip(a.all, b.all) {
                #expect(x.value.bitPattern == y.value.bitPattern || (x.value.isNaN && y.value.isNaN), "\(x.stat)")
            }
            #expect(a[.sharpeCILow].isFinite)
        }
        #expect(shared.keptLengths == 1)
    }

    @Test("a tape of the generator's outputs reads as the generator, from parallel readers too")
    func tapeIsTheGenerator() {
        let tape = GSL.DrawTape(seed: 42)
        let rng = GSL.Random(seed: 42)
        let expected = (0..<200_000).map { _ in rng.next32() }
        let got = Locked([[UInt32]](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            var reader = RawDraws(tape)
            let values = (0..<(50_000 * (i + 1))).map { _ in reader.next() }
            got.withLock { $0[i] = values }
        }
        for (i, values) in got.withLock({ $0 }).enumerated() {
            #expect(values == Array(expected.prefix(values.count)), "reader \(i)")
        }
        #expect(tape.count >= 200_000)
    }

    @Test("read from one tape, series of every length get the interval drawn per series", arguments: [3, 17, 999, 5_000, 40_000])
    func tapeEqualsDrawing(n: Int) {
        for (k, bootstrap) in Self.settings.enumerated() {
            let tape = GSL.DrawTape(seed: bootstrap.seed)
            let r = SharpeBootstrapTests.gaussian(n, mean: 0.0003, sigma: 0.01, seed: UInt(7 * n + k))
            let drawn = Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: bootstrap)
            #expect(Self.same(Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: bootstrap, tape: tape), drawn),
                    "n \(n), settings \(k)")
            // The tape read again, by blocks drawn from it and by a shorter series.
            let blocks = Uncertainty.ResampleBlocks(seriesCount: n, bootstrap: bootstrap, tape: tape)
            #expect(Self.same(Uncertainty.sharpeInterval(r, periodsPerYear: 252, blocks: blocks), drawn))
            let shorter = Array(r.prefix(max(3, n / 2)))
            #expect(Self.same(Uncertainty.sharpeInterval(shorter, periodsPerYear: 252, bootstrap: bootstrap, tape: tape),
                              Uncertainty.sharpeInterval(shorter, periodsPerYear: 252, bootstrap: bootstrap)))
        }
    }

    @Test("lengths whose blocks are not kept read the tape, and long series draw their own: the same intervals")
    func sharedTape() {
        let lengths = [400, 700, 1_000, 1_300, 400, 2_000]
        let series = lengths.enumerated().map { SharpeBootstrapTests.gaussian($1, mean: 0.0005, sigma: 0.01, seed: UInt($0 + 50)) }
        let expected = series.map { Uncertainty.sharpeInterval($0, periodsPerYear: 252) }
        // No room for blocks: every series reads the tape.
        let tapeOnly = Uncertainty.SharedResamples(budget: 0)
        let got = Locked([(low: Double, high: Double)?](repeating: nil, count: series.count))
        DispatchQueue.concurrentPerform(iterations: series.count) { i in
            let ci = tapeOnly.sharpeInterval(series[i], periodsPerYear: 252)
            got.withLock { $0[i] = ci }
        }
        for (i, ci) in got.withLock({ $0 }).enumerated() { #expect(Self.same(ci!, expected[i]), "series \(i)") }
        #expect(tapeOnly.keptLengths == 0 && tapeOnly.tapeDraws > 0)
        // Room for neither: drawn per series, nothing kept.
        let neither = Uncertainty.SharedResamples(budget: 0, tapeBudget: 0)
        for i in series.indices { #expect(Self.same(neither.sharpeInterval(series[i], periodsPerYear: 252), expected[i])) }
        #expect(neither.tapeDraws == 0 && neither.keptLengths == 0)
    }
}
