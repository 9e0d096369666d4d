import Foundation
import Testing
@testable import BacktestAnalysis
@testable import BacktestCore

@Suite("Random search: the space of --grid and its seeded draws")
struct RandomSearchTests {
    @Test("ranges without a step: whole numbers when both ends are, reals otherwise, percent as fractions; lists and steps as a grid")
    func space() throws {
        let space = try SearchSpace(parsing: ["fast=5:50", "k=0.5:2.5", "sl=1%:10%", "m=1,2,4", "slow=20:60:20", "x=1.0:3"])
        #expect(space.axes.map(\.domain) == [.integers(lower: 5, upper: 50), .reals(lower: 0.5, upper: 2.5),
                                             .reals(lower: 0.01, upper: 0.1), .values([1, 2, 4]), .values([20, 40, 60]),
                                             .reals(lower: 1, upper: 3)])
        #expect(space.count == nil)
        #expect(try SearchSpace(parsing: ["fast=5:50", "slow=20:60:20"]).count == 46 * 3)
        for bad in ["fast=50:5", "fast=5:5", "sl=1%:10", "fast=0:2000000000", "=1:2", "fast=a:3"] {
            #expect(throws: InputError.self, "\(bad)") { try SearchSpace(parsing: [bad]) }
        }
        #expect(throws: InputError.self) { try SearchSpace(parsing: ["fast=1:5", "fast=2:9"]) }
        // A grid still needs its step, and says where a range without one belongs.
        let e = try #require(throws: InputError.self) { try ParameterGrid(parsing: ["fast=5:50"]) }
        #expect(e.reason.contains("start:stop:step") && e.reason.contains(Setting.search.mention))
    }

    /// The draws as name -> value, in draw order.
    static func combinations(_ d: RandomSearch.Draws) -> [[Double]] { d.combos.map { d.grid.values(at: $0) } }

    @Test("draws are distinct, inside their axes, and the same for a seed; another seed draws others", arguments: [1, 7, 4_294_967_295] as [UInt32])
    func distinctInRange(seed: UInt32) throws {
        let space = try SearchSpace(parsing: ["fast=5:50", "k=0.5:2.5", "sl=1%:10%", "m=1,2,4"])
        let search = try RandomSearch(trials: 500, seed: seed)
        let draws = try search.draw(from: space, where: nil)
        let combos = Self.combinations(draws)
        #expect(combos.count == 500 && Set(combos).count == 500)
        for c in combos {
            #expect(c[0] >= 5 && c[0] <= 50 && c[0] == c[0].rounded())
            #expect(c[1] >= 0.5 && c[1] <= 2.5)
            #expect(c[2] >= 0.01 && c[2] <= 0.1)
            #expect([1, 2, 4].contains(c[3]))
        }
        // The integers and the list are covered end to end by 500 draws (46 and 3 values).
        #expect(Set(combos.map { $0[0] }) == Set((5...50).map(Double.init)))
        #expect(Set(combos.map { $0[3] }) == [1, 2, 4])
        #expect(try search.draw(from: space, where: nil) == draws)
        let other = try RandomSearch(trials: 500, seed: seed &+ 1).draw(from: space, where: nil)
        #expect(Self.combinations(other) != combos)
    }

    @Test("a finite grid: distinct draws up to its size (every combination once), more refused with the size")
    func finite() throws {
        let space = try SearchSpace(parsing: ["fast=5:10", "slow=20:60:20"])
        let all = try RandomSearch(trials: 18, seed: 3).draw(from: space, where: nil)
        #expect(Set(Self.combinations(all)).count == 18)
        #expect(Set(Self.combinations(all)) == Set((0..<18).map { try! ParameterGrid(parsing: ["fast=5:10:1", "slow=20:60:20"]).values(at: $0) }))
        let e = try #require(throws: InputError.self) { try RandomSearch(trials: 19, seed: 3).draw(from: space, where: nil) }
        #expect(e.setting == .trials && e.reason.contains("18 combinations"))
        // After a filter: the combinations that pass it.
        let filter: ([String: Double]) -> Bool = { $0["fast"]! * 5 < $0["slow"]! }  // 3 of slow 40, 6 of slow 60
        let kept = try RandomSearch(trials: 9, seed: 3).draw(from: space, where: filter)
        #expect(Self.combinations(kept).allSatisfy { $0[0] * 5 < $0[1] })
        #expect(Set(Self.combinations(kept)).count == 9)
        let f = try #require(throws: InputError.self) { try RandomSearch(trials: 10, seed: 3).draw(from: space, where: filter) }
        #expect(f.reason.contains("9 combinations") && f.reason.contains(Setting.where.mention))
    }

    @Test("a continuous space with a filter keeps only passing draws; an impossible filter stops after its bounded draws")
    func continuousFilter() throws {
        let space = try SearchSpace(parsing: ["fast=5:50", "k=0.5:2.5"])
        let draws = try RandomSearch(trials: 200, seed: 9).draw(from: space, where: { $0["k"]! < 1 && $0["fast"]! > $0["slow"]! },
                                                               defaults: ["slow": 20])
        #expect(Self.combinations(draws).allSatisfy { $0[1] < 1 && $0[0] > 20 })
        #expect(throws: InputError.self) { try RandomSearch(trials: 5, seed: 9).draw(from: space, where: { $0["k"]! > 3 }) }
        // A finite space above the listing limit is drawn axis by axis, distinct all the same.
        let big = try SearchSpace(parsing: ["a=1:100000", "b=1:100000"])
        let bigDraws = try RandomSearch(trials: 1_000, seed: 2).draw(from: big, where: nil)
        #expect(Set(Self.combinations(bigDraws)).count == 1_000)
    }

    @Test("draws whose two largest axes would need more than 10,000,000 heatmap cells are refused, not allocated")
    func heatmapBound() throws {
        let space = try SearchSpace(parsing: ["k=0.5:2.5", "m=1.0:9"])
        #expect(try RandomSearch(trials: 3_000, seed: 1).draw(from: space, where: nil).combos.count == 3_000)
        let e = try #require(throws: InputError.self) { try RandomSearch(trials: 3_200, seed: 1).draw(from: space, where: nil) }
        #expect(e.setting == .trials && e.reason.contains("3200 x 3200"))
    }

    @Test("seed 7 draws these combinations on every machine (GSL's mt19937)")
    func pinned() throws {
        let space = try SearchSpace(parsing: ["fast=5:50", "sl=1%:10%"])
        let draws = try RandomSearch(trials: 4, seed: 7).draw(from: space, where: nil)
        let listed = try RandomSearch(trials: 4, seed: 7).draw(from: try SearchSpace(parsing: ["fast=5:50", "slow=20:200:10"]), where: nil)
        // The first, axis by axis, as numpy's MT19937 seeded the way GSL seeds it
        // (`_legacy_seeding(7)`, then `gsl_rng_uniform_int`'s and `gsl_rng_uniform`'s formulas on
        // its raw outputs) draws them: the same numbers, so no platform's generator is involved.
        #expect(Self.combinations(draws) == [[8, 0.0304605167452], [40, 0.0387075004866], [25, 0.0980400606501], [38, 0.0510026416904]])
        // A listed grid (46 x 18) by the partial Fisher-Yates shuffle.
        #expect(Self.combinations(listed) == [[8, 110], [15, 110], [40, 190], [19, 160]])
    }

    @Test("the options: --search grid or random, --trials a whole number 1 to 10,000,000, --seed 0 to 2^32-1")
    func options() throws {
        #expect(try RandomSearch(search: nil, trials: nil, seed: nil) == nil)
        #expect(try RandomSearch(search: "grid", trials: nil, seed: nil) == nil)
        #expect(try RandomSearch(search: "random", trials: "20", seed: nil) == RandomSearch(trials: 20, seed: 1))
        #expect(try RandomSearch(search: "random", trials: "20", seed: "4294967295")?.seed == .max)
        let refused: [(String?, String?, String?, Setting)] = [
            ("bayes", "5", nil, .search), ("random", nil, nil, .trials), ("random", "0", nil, .trials),
            ("random", "10000001", nil, .trials), ("random", "x", nil, .trials), ("random", "5", "-1", .seed),
            ("random", "5", "4294967296", .seed), (nil, "5", nil, .trials), ("grid", nil, "3", .seed),
        ]
        for (search, trials, seed, setting) in refused {
            let e = try #require(throws: InputError.self, "\(search ?? "-") \(trials ?? "-") \(seed ?? "-")") {
                try RandomSearch(search: search, trials: trials, seed: seed)
            }
            #expect(e.setting == setting)
        }
    }
}
