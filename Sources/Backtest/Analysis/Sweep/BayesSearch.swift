import BacktestCore
import Foundation

/// A Bayesian search: `trials` distinct combinations of a `SearchSpace`, chosen one after another
/// by a Gaussian-process model of the objective (`GaussianProcess`) and its expected improvement.
///
/// The first `designSize` combinations are a random search's draws with the same seed
/// (`RandomSearch.values`); each next one is the candidate of highest expected improvement over
/// the best value so far. The candidates of a step are drawn from the same seeded generator:
/// `candidateCount` combinations not yet evaluated (at random from those of a finite space that
/// pass the filter, else drawn axis by axis), and `localCount` perturbations of the best one
/// (each axis moved by a normal step of `localStep` on the unit cube and snapped to the axis),
/// keeping those not evaluated that pass the filter. The model is fitted on the unit cube
/// (`SearchSpace.unit`); its hyperparameters are chosen again at every step up to
/// `refitEvery` x 8 evaluations, then every `refitEvery` steps (the grid search costs 28 Cholesky
/// factorisations). Everything depends only on the seed and the values the objective returns,
/// so a search is the same on every run and machine.
public struct BayesSearch: Sendable, Equatable {
    public var trials: Int
    public var seed: UInt32

    static let candidateCount = 512
    static let localCount = 64
    static let localStep = 0.05
    static let refitEvery = 8

    /// - Throws: `InputError` for `trials` outside 1 to `RandomSearch.maximumTrials`.
    public init(trials: Int, seed: UInt32 = 1) throws {
        self.init(try RandomSearch(trials: trials, seed: seed))
    }

    /// The search the options give: nil unless `search` is `bayes`.
    /// - Throws: `InputError` for `trials` missing, not a whole number or out of range, or a bad seed.
    public init?(search: String?, trials: String?, seed: String?) throws {
        guard search == "bayes" else { return nil }
        self.init(try RandomSearch(parsing: trials, seed: seed, needs: "a Bayesian search needs the number of combinations to evaluate"))
    }

    /// The trials and seed of `checked` (checked as a random search's are).
    private init(_ checked: RandomSearch) {
        trials = checked.trials
        seed = checked.seed
    }

    /// Combinations drawn at random before the model chooses: a quarter of the trials, at least
    /// 5 and at most 10 (all of them below 5).
    public var designSize: Int { min(trials, max(5, min(10, trials / 4))) }

    /// The report's account of the search.
    public func summary(of space: SearchSpace) -> String {
        let size = space.count.map { "\($0) combinations" } ?? "a continuous space"
        return "\(trials) combinations chosen by a Bayesian search (Gaussian process, expected improvement; the first "
            + "\(designSize) at random, seed \(seed)) from " + space.axes.map(\.spec).joined(separator: " ") + " (\(size))"
    }

    /// Refuses an axis a search cannot move along (a list of one value), and, before anything
    /// runs, trials whose distinct values on two real axes would exceed the heatmap's cells
    /// (`RandomSearch.index` would refuse them after the search).
    public func check(_ space: SearchSpace) throws {
        for axis in space.axes {
            if case .values(let v) = axis.domain, Set(v).count < 2 {
                throw InputError("'\(axis.name)' has one value: a Bayesian search needs at least two on every axis "
                                 + "(fix the value with \(Setting.parameter.mention) instead)", setting: .grid, value: axis.spec)
            }
        }
        let reals = space.axes.filter { $0.domain.count == nil }.count
        if reals >= 2, trials * trials > ParameterGrid.maximumCombinations {  // trials <= 10,000,000: no overflow
            throw InputError("\(trials) trials on two real axes hold \(trials) x \(trials) distinct values, more than the "
                             + "\(ParameterGrid.maximumCombinations) cells a sweep's heatmap holds; evaluate fewer trials, or give "
                             + "one of those axes as a list or stepped range", setting: .trials, value: String(trials))
        }
    }

    /// Why a Bayesian search is not split into shards (nor run by Slurm's array tasks).
    public static var notSharded: InputError {
        InputError("runs in one process: each combination it chooses depends on the results of all those before it, "
                   + "so it cannot be split into shards", setting: .search, value: "bayes")
    }

    /// What a search evaluated.
    public struct Result: Sendable, Equatable {
        /// The combinations, as values in axis order, in the order evaluated.
        public var points: [[Double]]
        /// The objective's value of each (as it returned them, non-finite ones included).
        public var values: [Double]
    }

    /// Runs the search on `space`, keeping combinations that pass `filter` (given each
    /// combination's values by name, with `defaults` for the parameters not swept).
    /// - Parameters:
    ///   - objective: the values to maximise of a batch of combinations (the random design at
    ///     once, then one at a time). A non-finite value (a combination that failed, or a
    ///     statistic undefined without trades) is modelled as the worst finite value seen so far
    ///     (0 in standardised units while there is none), so the search moves away from it.
    ///   - progress: called with the number of combinations evaluated.
    /// - Throws: `InputError` as `check` and `RandomSearch.values` do (more trials than a finite
    ///   space's combinations that pass the filter, saying how many), when an infinite space's
    ///   draws give no new candidate, and what `objective` throws.
    public func run(space: SearchSpace, where filter: (([String: Double]) -> Bool)?, defaults: [String: Double] = [:],
                    progress: ((Int) -> Void)? = nil, objective: ([[Double]]) throws -> [Double]) throws -> Result {
        try check(space)
        let random = GSL.Random(seed: UInt(seed))
        let finite = try RandomSearch.pool(of: space, trials: trials, where: filter, defaults: defaults)
        var candidates = Candidates(space: space, finite: finite, filter: filter, defaults: defaults)
        var result = Result(points: try RandomSearch(trials: designSize, seed: seed)
            .values(from: space, where: filter, defaults: defaults, random: random), values: [])
        result.values = try objective(result.points)
        precondition(result.values.count == result.points.count, "the objective must value every combination")
        result.points.forEach { candidates.remove($0) }
        progress?(result.points.count)
        var hyper: GaussianProcess.Hyperparameters?
        while result.points.count < trials {
            let y = Self.imputed(result.values)
            let steps = result.points.count - designSize
            let refit = hyper == nil || result.points.count <= 8 * Self.refitEvery || steps % Self.refitEvery == 0
            let units = result.points.map(space.unit)
            let model: GaussianProcess
            do {
                model = try GaussianProcess(points: units, values: y, hyper: refit ? nil : hyper)
            } catch {
                model = try GaussianProcess(points: units, values: y)  // the kept hyperparameters fail on the new point
            }
            hyper = model.hyper
            let bestIndex = y.indices.max { y[$0] < y[$1] || (y[$0] == y[$1] && $0 > $1) }!
            let pool = candidates.draw(random, around: units[bestIndex])
            guard !pool.isEmpty else {
                throw InputError("only \(result.points.count) distinct combinations found"
                                 + (filter != nil ? " passing \(Setting.where.mention)" : "") + "; evaluate fewer",
                                 setting: .trials, value: String(trials))
            }
            let best = model.standardised(y[bestIndex])
            let predictions = try model.predict(pool.map(space.unit))
            var pick = 0, pickEI = -Double.infinity
            for (k, p) in predictions.enumerated() {
                let ei = GaussianProcess.expectedImprovement(mean: p.mean, sd: p.sd, best: best)
                if ei > pickEI { pick = k; pickEI = ei }
            }
            let value = try objective([pool[pick]])
            precondition(value.count == 1, "the objective must value every combination")
            result.points.append(pool[pick])
            result.values.append(value[0])
            candidates.remove(pool[pick])
            progress?(result.points.count)
        }
        return result
    }

    /// The values with each non-finite one replaced by the smallest finite one (all 0 when none is finite).
    static func imputed(_ values: [Double]) -> [Double] {
        let worst = values.filter(\.isFinite).min() ?? 0
        return values.map { $0.isFinite ? $0 : worst }
    }
}

/// The combinations a Bayesian search may still evaluate, and each step's candidates among them.
private struct Candidates {
    let space: SearchSpace
    let finite: (grid: ParameterGrid, pool: [Int]?)?
    let filter: (([String: Double]) -> Bool)?
    let defaults: [String: Double]
    /// Of a finite space: the grid indexes not evaluated that pass the filter, and where each is.
    var remaining: [Int] = []
    var position: [Int: Int] = [:]
    /// Of any other space: the combinations evaluated.
    var seen = Set<[Double]>()

    init(space: SearchSpace, finite: (grid: ParameterGrid, pool: [Int]?)?, filter: (([String: Double]) -> Bool)?,
         defaults: [String: Double]) {
        self.space = space
        self.finite = finite
        self.filter = filter
        self.defaults = defaults
        if let finite {
            remaining = finite.pool ?? Array(0..<finite.grid.count)
            for (k, index) in remaining.enumerated() { position[index] = k }
        }
    }

    /// The grid index of `point` in a finite space.
    func index(of point: [Double]) -> Int {
        zip(finite!.grid.axes, point).reduce(0) { index, pair in
            index * pair.0.values.count + pair.0.values.firstIndex(of: pair.1)!
        }
    }

    func passes(_ point: [Double]) -> Bool {
        guard let filter else { return true }
        var values = defaults
        for (axis, v) in zip(space.axes, point) { values[axis.name] = v }
        return filter(values)
    }

    func isNew(_ point: [Double]) -> Bool {
        finite != nil ? position[index(of: point)] != nil : !seen.contains(point) && passes(point)
    }

    /// Marks `point` evaluated.
    mutating func remove(_ point: [Double]) {
        guard finite != nil else { seen.insert(point); return }
        let index = index(of: point)
        guard let k = position.removeValue(forKey: index) else { return }
        let last = remaining.removeLast()
        if k < remaining.count {
            remaining[k] = last
            position[last] = k
        }
    }

    /// A step's candidates: up to `candidateCount` not evaluated, drawn with `random`, then the
    /// new ones among `localCount` perturbations of `best` (on the unit cube); distinct, in that order.
    mutating func draw(_ random: GSL.Random, around best: [Double]) -> [[Double]] {
        var out: [[Double]] = []
        var chosen = Set<[Double]>()
        if let finite {
            // A partial Fisher-Yates shuffle of the remaining indexes (their order is the generator's).
            let m = min(BayesSearch.candidateCount, remaining.count)
            for i in 0..<m {
                let j = i + random.int(below: remaining.count - i)
                remaining.swapAt(i, j)
                position[remaining[i]] = i
                position[remaining[j]] = j
                let point = finite.grid.values(at: remaining[i])
                out.append(point)
                chosen.insert(point)
            }
        } else {
            var attempts = 0
            while out.count < BayesSearch.candidateCount && attempts < 20 * BayesSearch.candidateCount {
                attempts += 1
                let point = space.draw(random)
                if isNew(point), chosen.insert(point).inserted { out.append(point) }
            }
        }
        for _ in 0..<BayesSearch.localCount {
            let point = space.point(atUnit: best.map { $0 + random.gaussian(sigma: BayesSearch.localStep) })
            if isNew(point), chosen.insert(point).inserted { out.append(point) }
        }
        return out
    }
}
