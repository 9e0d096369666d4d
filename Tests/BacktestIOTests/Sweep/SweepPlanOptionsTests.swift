import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestJobs

/// The sweep's search and objectives read from their texts once, for `bt sweep` and btcore
/// (`SweepPlan+Options.swift`).
@Suite("SweepPlan's search and objectives from their texts")
struct SweepPlanOptionsTests {
    static func strategy() throws -> Strategy {
        try Strategy.expressions([.entry: "cross_above(sma(close, $fast), sma(close, $slow))",
                                  .exit: "cross_below(sma(close, $fast), sma(close, $slow))"],
                                 swept: [("fast", 5), ("slow", 20)])
    }

    @Test("the search by its name: none or grid every combination, random and bayes with their trials and seed")
    func searches() throws {
        let specs = ["fast=5,10,15", "slow=20,40"]
        for name in [nil, "grid"] {
            let plan = try SweepPlan(strategy: Self.strategy(), specs: specs, searchNamed: name, trials: nil, seed: nil)
            #expect(plan.search == nil && plan.bayes == nil && plan.combos.count == 6)
        }
        let random = try SweepPlan(strategy: Self.strategy(), specs: specs, searchNamed: "random", trials: "4", seed: "7")
        #expect(random.search?.search.trials == 4 && random.search?.search.seed == 7 && random.bayes == nil)
        #expect(random.combos.count == 4)
        let bayes = try SweepPlan(strategy: Self.strategy(), specs: specs, searchNamed: "bayes", trials: "5", seed: "3")
        #expect(bayes.bayes?.search.trials == 5 && bayes.bayes?.search.seed == 3 && bayes.search == nil)
    }

    @Test("a bad search is an InputError naming its setting", arguments: [
        ("annealing", "5", nil, Setting.search), ("random", nil, nil, .trials), ("bayes", "x", nil, .trials),
        ("random", "3", "-1", .seed), (nil, "3", nil, .trials), ("grid", nil, "2", .seed),
    ] as [(String?, String?, String?, Setting)])
    func badSearch(search: String?, trials: String?, seed: String?, setting: Setting) throws {
        let error = #expect(throws: InputError.self) {
            try SweepPlan(strategy: Self.strategy(), specs: ["fast=5:40", "slow=20,40"], searchNamed: search, trials: trials, seed: seed)
        }
        #expect(error?.setting == setting)
    }

    @Test("the objective: --objective, else --rank, else the front's first, else sharpe")
    func objectives() throws {
        #expect(try SweepPlan.objectives(objective: nil, rank: nil, front: nil) == (.sharpe, []))
        #expect(try SweepPlan.objectives(objective: "calmar", rank: nil, front: nil) == (.calmar, []))
        #expect(try SweepPlan.objectives(objective: nil, rank: "sortino", front: nil) == (.sortino, []))
        #expect(try SweepPlan.objectives(objective: "calmar", rank: "calmar", front: nil) == (.calmar, []))
        #expect(try SweepPlan.objectives(objective: nil, rank: nil, front: "calmar, sharpe") == (.calmar, [.calmar, .sharpe]))
        #expect(try SweepPlan.objectives(objective: "sortino", rank: nil, front: "calmar,sharpe") == (.sortino, [.calmar, .sharpe]))
    }

    @Test("bad objectives: an unknown name, a front of one or with a repeat, objective and rank that differ")
    func badObjectives() throws {
        for (objective, rank, front, setting) in [("sharp", nil, nil, Setting.objective), (nil, "sharp", nil, .rank),
                                                  (nil, nil, "sharpe", .objectives), (nil, nil, "sharpe,sharpe", .objectives),
                                                  (nil, nil, "sharpe,drawdown", .objectives)] as [(String?, String?, String?, Setting)] {
            let error = #expect(throws: InputError.self) { try SweepPlan.objectives(objective: objective, rank: rank, front: front) }
            #expect(error?.setting == setting)
        }
        #expect(throws: SweepPlan.Problem.objectiveAndRank(objective: .sharpe, rank: .calmar)) {
            try SweepPlan.objectives(objective: "sharpe", rank: "calmar", front: nil)
        }
    }
}
