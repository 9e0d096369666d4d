import BacktestCore
import Foundation

/// The Pareto front of a sweep over several objectives (`bt sweep --objectives sharpe,max_drawdown`):
/// the combinations no other combination dominates, each objective read in its direction
/// (`Stat.direction`: higher Sharpe is better, and a drawdown, a negative fraction, is better
/// nearer zero, so higher too; fees lower).
///
/// Dominance: `a` dominates `b` when `a` is at least as good as `b` in every objective and
/// strictly better in one. Hence:
/// - ties: equal points do not dominate each other, so every copy of a non-dominated point is on
///   the front;
/// - NaN: a combination that failed, or whose value of some objective is undefined (NaN or
///   infinite), is never on the front and dominates nothing: it is not compared at all.
public struct ParetoFront: Sendable {
    /// The objectives, in the order given (two or more, distinct, each with a sweep column).
    public let objectives: [Stat]
    /// Each combination's objective values, `objectives.count` per combination, in combination
    /// order (NaN where it failed or a value is undefined).
    public private(set) var values: [Double]
    /// Whether each combination is on the front; empty until `finish()`.
    public private(set) var members: [Bool] = []

    /// Why a list of objectives cannot make a front.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Fewer than two objectives.
        case tooFew(Int)
        /// An objective named twice.
        case repeated(Stat)

        public var description: String {
            switch self {
            case .tooFew(let n): "a Pareto front needs two or more objectives, \(n) given"
            case .repeated(let stat): "'\(stat)' is named twice"
            }
        }
    }

    /// A front over `objectives` for `combinations` combinations, their values to come (`add`).
    /// - Throws: `Problem` for fewer than two objectives or one named twice.
    public init(objectives: [Stat], combinations: Int) throws {
        guard objectives.count >= 2 else { throw Problem.tooFew(objectives.count) }
        if let twice = objectives.enumerated().first(where: { objectives[..<$0.offset].contains($0.element) }) {
            throw Problem.repeated(twice.element)
        }
        precondition(objectives.allSatisfy { $0.sweepColumn != nil }, "every objective needs a sweep column")
        self.objectives = objectives
        values = [Double](repeating: .nan, count: combinations * objectives.count)
    }

    /// The objectives named in `text` (`sharpe,max_drawdown`), each a sweep statistic.
    /// - Throws: `InputError` (setting `.objectives`) for an unknown name, too few or a repeat.
    public static func objectives(parsing text: String) throws -> [Stat] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let stats = try names.map { try SweepStats.stat(named: $0, setting: .objectives) }
        do {
            _ = try ParetoFront(objectives: stats, combinations: 0)
        } catch let problem as Problem {
            throw InputError("\(problem)", setting: .objectives, value: text)
        }
        return stats
    }

    /// Records the objective values of a chunk of a sweep's rows (any order; failed rows stay NaN).
    public mutating func add(_ rows: [Sweep.Row]) {
        let k = objectives.count
        for row in rows {
            guard let stats = row.stats else { continue }
            for (j, stat) in objectives.enumerated() { values[row.combo * k + j] = stats[stat] }
        }
    }

    /// Computes `members` from the values recorded.
    public mutating func finish() {
        members = Self.members(values: values, count: objectives.count, higherIsBetter: objectives.map(\.higherIsBetter))
    }

    /// Combinations on the front.
    public var count: Int { members.lazy.filter { $0 }.count }

    /// Whether each point (`count` values each, flattened) is on the front, reading objective `j`
    /// higher-is-better when `higherIsBetter[j]`, as the type's comment defines it.
    ///
    /// The points with every value finite are sorted best first lexicographically (objective 0,
    /// then 1, ...), so a point can be dominated only by one before it; and one dominated by an
    /// earlier point is dominated by an earlier point of the front (dominance is transitive), so
    /// each point is checked against the front found so far.
    /// - Complexity: O(n log n + n × front × objectives).
    public static func members(values: [Double], count k: Int, higherIsBetter: [Bool]) -> [Bool] {
        precondition(k > 0 && values.count % k == 0 && higherIsBetter.count == k, "values must hold k per point")
        let n = values.count / k
        // Oriented so higher is better in every objective.
        let oriented = values.enumerated().map { i, v in higherIsBetter[i % k] ? v : -v }
        let defined = (0..<n).filter { p in (0..<k).allSatisfy { oriented[p * k + $0].isFinite } }
        let order = defined.sorted { a, b in
            for j in 0..<k where oriented[a * k + j] != oriented[b * k + j] { return oriented[a * k + j] > oriented[b * k + j] }
            return a < b
        }
        func dominates(_ a: Int, _ b: Int) -> Bool {
            var strictly = false
            for j in 0..<k {
                let x = oriented[a * k + j], y = oriented[b * k + j]
                if x < y { return false }
                if x > y { strictly = true }
            }
            return strictly
        }
        var front: [Int] = []
        var members = [Bool](repeating: false, count: n)
        for p in order where !front.contains(where: { dominates($0, p) }) {
            front.append(p)
            members[p] = true
        }
        return members
    }
}
