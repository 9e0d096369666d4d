import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
import Foundation
import TestSupport

@Suite("Parameter grid and --where")
struct ParameterGridTests {
    @Test("start:stop:step includes the stop and does not drift")
    func ranges() throws {
        let grid = try ParameterGrid(parsing: ["fast=5:50:5", "k=0.1:0.3:0.1"])
        #expect(grid.axes[0].values == [5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
        #expect(grid.axes[1].values.count == 3)
        #expect(grid.axes[1].values == [0.1, 0.2, 0.3])
        #expect(grid.count == 30)
    }

    @Test("range values are rounded to 12 significant digits exactly as %.12g text is")
    func twelveDigits() throws {
        var rng = SplitMix64(seed: 12)
        var values: [Double] = [0.1 + 0.2, 1e-300, -2.5e-7, 999_999_999_999.5, 1e12 + 1, 123456.7890125, 0.30000000000000004]
        for _ in 0..<5_000 {
            let magnitude = Double(Int(rng.next() % 40)) - 20
            let x = (Double(rng.next() % 1_000_000_007) / 1_000_000_007) * pow(10, magnitude)
            values.append(rng.next() % 2 == 0 ? x : -x)
            values.append((Double(Int(rng.next() % 100_000)) * 0.001).nextUp)
        }
        for v in values {
            let text = Double(String(format: "%.12g", v))!
            #expect(NumberText.twelveSignificantDigits(v) == text, "\(v)")
        }
        // The fuzz input that timed out: a million values, now without text per value.
        let big = try ParameterGrid(parsing: ["ft=1:1000000:1"])
        #expect(big.axes[0].values.count == 1_000_000 && big.axes[0].values.last == 1_000_000)
    }

    @Test("lists and single values")
    func lists() throws {
        let grid = try ParameterGrid(parsing: ["type=1,2", "slow=30"])
        #expect(grid.axes.map(\.values) == [[1, 2], [30]])
    }

    @Test("flat index order: last axis fastest, coordinates agree")
    func indexing() throws {
        let grid = try ParameterGrid(parsing: ["a=1:3:1", "b=10,20"])
        #expect(grid.combination(at: 0) == ["a": 1, "b": 10])
        #expect(grid.combination(at: 1) == ["a": 1, "b": 20])
        #expect(grid.combination(at: 5) == ["a": 3, "b": 20])
        #expect(grid.coordinates(at: 3) == [1, 1])
        #expect(grid.values(at: 5) == [3, 20])
        for i in 0..<grid.count {
            #expect(grid.values(at: i) == grid.axes.map { grid.combination(at: i)[$0.name]! })
        }
    }

    @Test("bad grid specs are refused", arguments: [
        "fast", "=1:2:1", "fast=1:10:0", "fast=10:1:1", "fast=a:b:c", "fast=1:2", "fast=",
    ])
    func badSpecs(spec: String) {
        #expect(throws: InputError.self) { try ParameterGrid(parsing: [spec]) }
    }

    @Test("a parameter given twice is refused")
    func duplicate() {
        #expect(throws: InputError.self) { try ParameterGrid(parsing: ["a=1", "a=2"]) }
    }

    @Test("where: comparisons, arithmetic and conjunctions")
    func whereClause() throws {
        let names: Set = ["fast", "slow", "k"]
        let w = try WhereClause("fast<slow", names: names)
        #expect(w.matches(["fast": 5, "slow": 10]))
        #expect(!w.matches(["fast": 10, "slow": 10]))
        let w2 = try WhereClause("fast*2 <= slow and k>=1.5", names: names)
        #expect(w2.matches(["fast": 5, "slow": 10, "k": 1.5]))
        #expect(!w2.matches(["fast": 6, "slow": 10, "k": 2]))
        #expect(!w2.matches(["fast": 5, "slow": 10, "k": 1]))
        let w3 = try WhereClause("slow-fast>=10, k != 2", names: names)
        #expect(w3.matches(["fast": 5, "slow": 15, "k": 1]))
        #expect(!w3.matches(["fast": 5, "slow": 15, "k": 2]))
        let w4 = try WhereClause("k > -1 && fast == 3", names: names)
        #expect(w4.matches(["fast": 3, "slow": 0, "k": 0]))
    }

    @Test("where: unknown names and malformed text are refused", arguments: [
        "fats<slow", "fast", "fast<", "fast=<slow", "fast < slow and", "fast % 2 == 0",
    ])
    func badWhere(text: String) {
        #expect(throws: InputError.self) { try WhereClause(text, names: ["fast", "slow"]) }
    }

    @Test("walk-forward folds are contiguous and out-of-sample follows in-sample")
    func walkForward() throws {
        let wf = try WalkForward(bars: 1000, folds: 4)
        #expect(wf.steps.count == 3)
        #expect(wf.steps[0] == .init(inSample: 0..<250, outOfSample: 250..<500))
        #expect(wf.steps[2] == .init(inSample: 500..<750, outOfSample: 750..<1000))
        for s in wf.steps { #expect(s.inSample.upperBound == s.outOfSample.lowerBound) }
        #expect(throws: InputError.self) { try WalkForward(bars: 1000, folds: 1) }
        #expect(throws: InputError.self) { try WalkForward(bars: 30, folds: 3) }
    }
}
