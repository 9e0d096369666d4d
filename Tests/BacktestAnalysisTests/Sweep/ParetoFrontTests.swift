import Foundation
import Testing
@testable import BacktestAnalysis
@testable import BacktestCore
import TestSupport

@Suite("Pareto front of a sweep: the combinations no other dominates, each objective in its direction")
struct ParetoFrontTests {
    /// The definition, checked pair by pair: a point with every value finite is on the front when
    /// no other such point is at least as good in every objective and strictly better in one.
    static func bruteForce(_ values: [Double], k: Int, higher: [Bool]) -> [Bool] {
        let n = values.count / k
        func v(_ p: Int, _ j: Int) -> Double { higher[j] ? values[p * k + j] : -values[p * k + j] }
        let defined = (0..<n).map { p in (0..<k).allSatisfy { values[p * k + $0].isFinite } }
        return (0..<n).map { p in
            guard defined[p] else { return false }
            return !(0..<n).contains { q in
                defined[q] && (0..<k).allSatisfy { v(q, $0) >= v(p, $0) } && (0..<k).contains { v(q, $0) > v(p, $0) }
            }
        }
    }

    @Test("equals the pairwise definition on random points with many ties, NaN and infinities, 2 to 4 objectives, either direction",
          arguments: Array(1...60) as [UInt64])
    func matchesDefinition(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let k = g.int(2...4), n = g.int(0...80)
        let higher = (0..<k).map { _ in g.int(0...1) == 1 }
        // Small integer values make ties (equal points, equal single objectives) common.
        let values: [Double] = (0..<(n * k)).map { _ in
            switch g.int(0...19) {
            case 0: .nan
            case 1: g.int(0...1) == 0 ? .infinity : -.infinity
            default: Double(g.int(-4...4))
            }
        }
        #expect(ParetoFront.members(values: values, count: k, higherIsBetter: higher) == Self.bruteForce(values, k: k, higher: higher),
                "seed \(seed): k=\(k) n=\(n)")
    }

    @Test("ties: equal non-dominated points are all on the front; NaN rows are never on it and dominate nothing")
    func tiesAndNaN() {
        // (sharpe, max_drawdown), both higher-is-better: (2, -0.1) twice; (1, -0.05); (1, -0.2) dominated;
        // (NaN, 0) would dominate everything in drawdown but is undefined; (3, NaN) likewise.
        let values: [Double] = [2, -0.1, 2, -0.1, 1, -0.05, 1, -0.2, .nan, 0, 3, .nan]
        #expect(ParetoFront.members(values: values, count: 2, higherIsBetter: [true, true])
                == [true, true, true, false, false, false])
        // Lower is better for the second (fees): (1, 5) beats (1, 7); (0, 1) stays.
        #expect(ParetoFront.members(values: [1, 5, 1, 7, 0, 1], count: 2, higherIsBetter: [true, false]) == [true, false, true])
    }

    @Test("a front over sweep rows reads each objective's direction from the statistics' table; failed rows stay off")
    func fromRows() throws {
        var front = try ParetoFront(objectives: [.sharpe, .feesPaid], combinations: 3)
        func row(_ combo: Int, sharpe: Double, fees: Double) -> Sweep.Row {
            var values = [Double](repeating: 0, count: SweepStats.columns.count)
            values[Stat.sharpe.sweepColumn!] = sharpe
            values[Stat.feesPaid.sweepColumn!] = fees
            return Sweep.Row(combo: combo, stats: SweepStats(values: values, periodSharpe: 0))
        }
        front.add([row(2, sharpe: 1, fees: 10), Sweep.Row(combo: 1, error: "failed")])
        front.add([row(0, sharpe: 1, fees: 12)])
        front.finish()
        #expect(front.members == [false, false, true])
        #expect(front.count == 1)
        #expect(front.values[2 * 2 ..< 3 * 2] == [1, 10])
    }

    @Test("objectives: two or more distinct sweep statistics; else InputError naming --objectives", arguments: [
        ("sharpe", "two or more"), ("sharpe,sharpe", "named twice"), ("sharpe,max_drawdwn", "did you mean 'max_drawdown'"),
        ("sharpe,psr", "unknown metric"), ("sharpe,", "unknown metric"),
    ])
    func badObjectives(text: String, reason: String) {
        let e = #expect(throws: InputError.self) { try ParetoFront.objectives(parsing: text) }
        #expect(e?.setting == .objectives)
        #expect("\(e.map { "\($0)" } ?? "")".contains(reason), "\(String(describing: e))")
    }

    @Test("objectives parse in order, spaces allowed")
    func objectives() throws {
        #expect(try ParetoFront.objectives(parsing: "sharpe, max_drawdown,fees_paid") == [.sharpe, .maxDrawdown, .feesPaid])
    }
}
