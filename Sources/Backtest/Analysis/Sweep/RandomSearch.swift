import BacktestCore
import Foundation

/// A random search: `trials` distinct combinations drawn from a `SearchSpace` with GSL's
/// Mersenne Twister (`gsl_rng_mt19937`) seeded with `seed`, so every machine, run and shard draws
/// the same ones.
public struct RandomSearch: Sendable, Equatable {
    public var trials: Int
    public var seed: UInt32

    /// The most trials a search may draw (a grid's most combinations).
    public static let maximumTrials = ParameterGrid.maximumCombinations

    public init(trials: Int, seed: UInt32 = 1) throws {
        guard trials >= 1, trials <= Self.maximumTrials else {
            throw InputError("must be 1 to \(Self.maximumTrials)", setting: .trials, value: String(trials))
        }
        self.trials = trials
        self.seed = seed
    }

    /// The search the options give: nil for `search` nil or `grid` (and no `trials`); the seed
    /// defaults to 1.
    /// - Throws: `InputError` for another `search`, `trials` missing, not a whole number or out
    ///   of range, a seed that is not a whole number from 0 to 2^32-1, or `trials` or `seed`
    ///   without a random search.
    public init?(search: String?, trials: String?, seed: String?) throws {
        switch search {
        case nil, "grid":
            if trials != nil || seed != nil {
                throw InputError("\(trials != nil ? Setting.trials.mention : Setting.seed.mention) is for "
                                 + "\(Setting.search.mention) random or bayes", setting: trials != nil ? .trials : .seed, value: trials ?? seed)
            }
            return nil
        case "random":
            try self.init(parsing: trials, seed: seed, needs: "a random search needs the number of combinations to draw")
        default:
            throw InputError("expected grid, random or bayes", setting: .search, value: search)
        }
    }

    /// `trials` and `seed` as the options give them; `needs` says why `trials` is required.
    init(parsing trials: String?, seed: String?, needs: String) throws {
        guard let trials else { throw InputError(.needsSetting, needs, setting: .trials) }
        guard let n = Int(trials) else { throw InputError("not a whole number", setting: .trials, value: trials) }
        try self.init(trials: n, seed: try Self.seed(parsing: seed))
    }

    /// A `--seed`: a whole number from 0 to 4294967295 (the Mersenne Twister keeps 32 bits of
    /// its seed), 1 when not given.
    public static func seed(parsing text: String?) throws -> UInt32 {
        UInt32(try Seed.parse(text, maximum: UInt64(UInt32.max)))
    }

    /// The report's account of the search: how many combinations were drawn, with which seed,
    /// from which axes, and how many the space has.
    public func summary(of space: SearchSpace) -> String {
        let size = space.count.map { "\($0) combinations" } ?? "a continuous space"
        return "\(trials) combinations drawn at random (seed \(seed)) from "
            + space.axes.map(\.spec).joined(separator: " ") + " (\(size))"
    }

    /// What a search drew: the distinct values of each axis as a grid, and each draw's flat
    /// index into it, in draw order (what `SweepPlan.combos` holds).
    public struct Draws: Sendable, Equatable {
        public var grid: ParameterGrid
        public var combos: [Int]
    }

    /// `trials` distinct combinations of `space` that pass `filter` (given each combination's
    /// values by name, with `defaults` for the parameters not swept).
    ///
    /// A finite space of at most `ParameterGrid.maximumCombinations` is listed (the combinations
    /// that pass the filter, in grid order) and `trials` of them taken by a partial Fisher-Yates
    /// shuffle; any other is drawn from axis by axis, a draw already made or filtered out drawn
    /// again, at most `100 * trials + 10_000` times.
    /// - Throws: `InputError` when `trials` is above the combinations of a finite space (after
    ///   the filter; the message says how many there are), when the draws run out before
    ///   `trials` distinct ones pass the filter, or when the distinct values drawn cannot be
    ///   indexed as one grid (more than `Int.max` combinations) or span more than
    ///   `ParameterGrid.maximumCombinations` heatmap cells on their two largest axes.
    public func draw(from space: SearchSpace, where filter: (([String: Double]) -> Bool)?,
                     defaults: [String: Double] = [:]) throws -> Draws {
        try Self.index(values(from: space, where: filter, defaults: defaults, random: GSL.Random(seed: UInt(seed))),
                       names: space.axes.map(\.name))
    }

    /// The combinations `draw` makes, as values in axis order, in draw order, drawn with
    /// `random` (seeded with `seed` for `draw`; a Bayesian search goes on drawing from it).
    func values(from space: SearchSpace, where filter: (([String: Double]) -> Bool)?, defaults: [String: Double],
                random: GSL.Random) throws -> [[Double]] {
        var drawn: [[Double]] = []
        drawn.reserveCapacity(trials)
        if let (grid, pool) = try Self.pool(of: space, trials: trials, where: filter, defaults: defaults) {
            let available = pool?.count ?? grid.count
            // Partial Fisher-Yates over the pool, its swapped slots kept in a dictionary.
            var swapped: [Int: Int] = [:]
            for i in 0..<trials {
                let j = i + random.int(below: available - i)
                let picked = swapped[j] ?? j
                swapped[j] = swapped[i] ?? i
                drawn.append(grid.values(at: pool?[picked] ?? picked))
            }
        } else {
            var seen = Set<[Double]>()
            var values = defaults
            var attempts = 0
            let limit = 100 * trials + 10_000
            while drawn.count < trials {
                guard attempts < limit else {
                    throw InputError("only \(drawn.count) distinct combinations" + (filter != nil ? " passing \(Setting.where.mention)" : "")
                                     + " in \(limit) draws; draw fewer", setting: .trials, value: String(trials))
                }
                attempts += 1
                let draw = space.draw(random)
                guard !seen.contains(draw) else { continue }
                if let filter {
                    for (axis, v) in zip(space.axes, draw) { values[axis.name] = v }
                    guard filter(values) else { continue }
                }
                seen.insert(draw)
                drawn.append(draw)
            }
        }
        return drawn
    }

    /// The grid of a finite `space` of at most `ParameterGrid.maximumCombinations` and the
    /// indexes into it that pass `filter` (nil: all); nil for any other space.
    /// - Throws: `InputError` when `trials` is above the combinations of a finite space (after
    ///   the filter), saying how many there are.
    package static func pool(of space: SearchSpace, trials: Int, where filter: (([String: Double]) -> Bool)?,
                     defaults: [String: Double]) throws -> (grid: ParameterGrid, pool: [Int]?)? {
        guard let grid = space.grid else {
            if let n = space.count, trials > n {
                throw InputError("more than the \(n) combinations of the grid", setting: .trials, value: String(trials))
            }
            return nil
        }
        let pool = filter.map { grid.indexes(where: $0, defaults: defaults) }
        let available = pool?.count ?? grid.count
        guard trials <= available else {
            throw InputError("more than the \(available) combinations of the grid"
                             + (filter != nil ? " that pass \(Setting.where.mention)" : ""), setting: .trials, value: String(trials))
        }
        return (grid, pool)
    }

    /// The draws as a grid of each axis's distinct values (ascending) and their flat indexes.
    package static func index(_ drawn: [[Double]], names: [String]) throws -> Draws {
        let axes = names.indices.map { k in ParameterGrid.Axis(name: names[k], values: Array(Set(drawn.map { $0[k] })).sorted()) }
        let grid = ParameterGrid(axes: axes)
        // The heatmap's cells (`SweepHeatmapCells`) span the two axes with most values, densely.
        let largest = axes.map(\.values.count).sorted(by: >)
        if largest.count >= 2, largest[0] * largest[1] > ParameterGrid.maximumCombinations {
            throw InputError("the draws hold \(largest[0]) x \(largest[1]) distinct values on two axes, more than the "
                             + "\(ParameterGrid.maximumCombinations) cells a sweep's heatmap holds; draw fewer trials, or give "
                             + "one of those axes as a list or stepped range", setting: .trials)
        }
        guard grid.count < .max else {
            throw InputError("the draws hold " + axes.map { String($0.values.count) }.joined(separator: " x ")
                             + " distinct values, too many to index; draw fewer trials or sweep fewer axes", setting: .trials)
        }
        let combos = drawn.map { values in
            zip(axes, values).reduce(0) { index, pair in
                index * pair.0.values.count + pair.0.values.partitioningIndex(where: { $0 >= pair.1 })
            }
        }
        return Draws(grid: grid, combos: combos)
    }
}

extension Array where Element == Double {
    /// The first index whose element satisfies `belongs`, the elements being partitioned (those
    /// that do not, then those that do): a binary search.
    fileprivate func partitioningIndex(where belongs: (Double) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if belongs(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
