import Foundation
import Testing
@testable import BacktestAnalysis
@testable import BacktestCore
import TestSupport

@Suite("CPCV selection: train winners, test ranks and recombined paths")
struct CPCVSelectionTests {
    /// Per-bar Sharpe of `x` straight from its values (mean over sample sd).
    static func sharpe(_ x: [Double]) -> Double {
        let mean = x.reduce(0, +) / Double(x.count)
        let variance = x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(x.count - 1)
        return mean / variance.squareRoot()
    }

    @Test("equals a direct computation on each split's and path's bars", arguments: [(300, 6, 2, 3, 2), (257, 5, 3, 0, 0), (400, 8, 4, 5, 7)])
    func direct(bars: Int, groups: Int, testGroups: Int, purge: Int, embargo: Int) throws {
        var rng = SplitMix64(seed: UInt64(bars))
        let trials = 7
        // Trial k drifts by k * 1e-4 per bar, with noise, in its own regime per group.
        var returns: [[Double]] = []
        for k in 0..<trials {
            var r: [Double] = []
            for i in 0..<bars {
                let drift: Double = Double(k) * 1e-4 * (i % 97 < 50 ? 1.0 : -1.0)
                let noise: Double = (Double(rng.next() % 10_000) / 10_000 - 0.5) * 0.02
                r.append(drift + noise)
            }
            returns.append(r)
        }
        let cv = try CombinatorialPurgedCV(bars: bars, groups: groups, testGroups: testGroups, purge: purge, embargo: embargo)
        var selection = CPCVSelection(cv)
        for (k, r) in returns.enumerated() {
            let (sums, squares) = r.withUnsafeBufferPointer { selection.segmentStatistics(returns: $0) }
            selection.add(combo: 100 + k, sums: sums, squares: squares)
        }
        let result = try #require(selection.evaluate())
        var chosen: [Int] = [], overfit = 0
        for split in cv.splits {
            let train = split.train.flatMap { Array($0) }, test = split.test.flatMap { Array(cv.groupBars[$0]) }
            let trainSharpes = returns.map { r in Self.sharpe(train.map { r[$0] }) }
            let best = trainSharpes.indices.max { trainSharpes[$0] < trainSharpes[$1] }!
            chosen.append(best)
            let oos = returns.map { r in Self.sharpe(test.map { r[$0] }) }
            let below = oos.filter { $0 < oos[best] }.count, equal = oos.filter { $0 == oos[best] }.count
            if (Double(below) + Double(equal + 1) / 2) / Double(trials + 1) <= 0.5 { overfit += 1 }
        }
        #expect(result.chosen == chosen.map { 100 + $0 })
        #expect(result.pbo == Double(overfit) / Double(cv.splits.count))
        #expect(result.pathSharpes.count == cv.paths.count)
        for (p, path) in cv.paths.enumerated() {
            var oos: [Double] = []
            for (g, split) in path.enumerated() {
                let trial: [Double] = returns[chosen[split]]
                for i in cv.groupBars[g] { oos.append(trial[i]) }
            }
            #expect(abs(result.pathSharpes[p] - Self.sharpe(oos)) < 1e-9)
        }
        #expect(result.positiveShare == Double(result.pathSharpes.filter { $0 > 0 }.count) / Double(cv.paths.count))
    }
}
