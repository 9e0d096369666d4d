import BacktestCore
import Foundation

/// The space a random search draws from: one axis per swept parameter, each a list of values
/// (`k=1.5,2,2.5`, `fast=5:50:5` as a grid has them), a range of whole numbers (`fast=5:50`) or
/// a range of reals (`k=0.5:2.5`, `sl=1%:10%`, both ends included).
public struct SearchSpace: Sendable, Equatable {
    /// The values one axis may take.
    public enum Domain: Sendable, Equatable {
        /// These values, as a grid's axis has them.
        case values([Double])
        /// Every whole number from `lower` to `upper`.
        case integers(lower: Int, upper: Int)
        /// Any real from `lower` to `upper` (drawn values keep 12 significant digits).
        case reals(lower: Double, upper: Double)

        /// How many values the axis has; nil for reals.
        public var count: Int? {
            switch self {
            case .values(let v): v.count
            case .integers(let lower, let upper): upper - lower + 1
            case .reals: nil
            }
        }
    }

    public struct Axis: Sendable, Equatable {
        public var name: String
        public var domain: Domain
        /// The axis as typed (`fast=5:50`).
        public var spec: String
    }

    public var axes: [Axis]

    /// The most whole numbers a range may have (`gsl_rng_uniform_int` draws below 2^32).
    public static let maximumIntegers = 1_000_000_000

    /// Parses `--grid` specs: what `ParameterGrid(parsing:)` reads, and ranges without a step,
    /// `start:stop`: whole numbers when both ends are written as whole numbers without '%'
    /// (`fast=5:50`), reals otherwise (`k=0.5:2.5`, `sl=1%:10%` in fractions, 0.01 to 0.1).
    /// - Throws: `InputError` (setting `grid`) as `ParameterGrid` does, for a range whose stop
    ///   is not above its start, or one of more than `maximumIntegers` whole numbers.
    public init(parsing specs: [String]) throws {
        var axes: [Axis] = []
        for spec in specs {
            let (name, body) = try ParameterGrid.nameAndBody(spec)
            if axes.contains(where: { $0.name == name }) {
                throw InputError("parameter '\(name)' given twice", setting: .grid)
            }
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                axes.append(Axis(name: name, domain: .values(try ParameterGrid.parseAxis(spec).values()), spec: spec))
                continue
            }
            let (ends, percent) = try ParameterGrid.numbers(parts, spec: spec)
            guard ends[1] > ends[0] else { throw InputError("stop must be above start", setting: .grid, value: spec) }
            let whole = parts.map { Int(String($0).trimmingSpaces) }
            if !percent, let lower = whole[0], let upper = whole[1] {
                guard upper.subtractingReportingOverflow(lower).partialValue < Self.maximumIntegers,
                      abs(lower) < 1 << 53, abs(upper) < 1 << 53 else {
                    throw InputError("more than \(Self.maximumIntegers) whole numbers", setting: .grid, value: spec)
                }
                axes.append(Axis(name: name, domain: .integers(lower: lower, upper: upper), spec: spec))
            } else {
                let scale = percent ? 100.0 : 1
                axes.append(Axis(name: name, domain: .reals(lower: ends[0] / scale, upper: ends[1] / scale), spec: spec))
            }
        }
        self.axes = axes
    }

    /// How many combinations the space has: nil when an axis is real or the product does not
    /// fit in an `Int`.
    public var count: Int? {
        var n = 1
        for axis in axes {
            guard let c = axis.domain.count else { return nil }
            let (product, overflow) = n.multipliedReportingOverflow(by: c)
            if overflow { return nil }
            n = product
        }
        return n
    }

    /// The space as a grid, when every axis is finite and the grid is at most
    /// `ParameterGrid.maximumCombinations`.
    var grid: ParameterGrid? {
        guard let n = count, n <= ParameterGrid.maximumCombinations else { return nil }
        return ParameterGrid(axes: axes.map { axis in
            switch axis.domain {
            case .values(let v): ParameterGrid.Axis(name: axis.name, values: v)
            case .integers(let lower, let upper): ParameterGrid.Axis(name: axis.name, values: (lower...upper).map(Double.init))
            case .reals: preconditionFailure("a finite space has no real axis")
            }
        })
    }

    /// One value of each axis, drawn uniformly and independently, in axis order.
    func draw(_ random: GSL.Random) -> [Double] {
        axes.map { axis in
            switch axis.domain {
            case .values(let v): v[random.int(below: v.count)]
            case .integers(let lower, _): Double(lower + random.int(below: axis.domain.count!))
            case .reals(let lower, let upper): NumberText.twelveSignificantDigits(lower + random.uniform() * (upper - lower))
            }
        }
    }
}
