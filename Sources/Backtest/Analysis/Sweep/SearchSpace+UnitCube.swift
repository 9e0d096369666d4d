import BacktestCore
import Foundation

/// A search space's points on the unit cube, where a Bayesian search models them: each axis
/// mapped linearly from its smallest to its largest value onto 0...1 (a list by its values, so
/// `5,10,40` are not evenly spaced there; integers and reals by their range).
extension SearchSpace.Domain {
    /// The smallest and largest value.
    var bounds: (lower: Double, upper: Double) {
        switch self {
        case .values(let v): (v.min()!, v.max()!)
        case .integers(let lower, let upper): (Double(lower), Double(upper))
        case .reals(let lower, let upper): (lower, upper)
        }
    }

    /// `value`'s position on 0...1 (0 for an axis of one value).
    func unit(_ value: Double) -> Double {
        let (lower, upper) = bounds
        return upper > lower ? (value - lower) / (upper - lower) : 0
    }

    /// The axis's value nearest to position `u` (clamped to 0...1): a list's nearest value (the
    /// first on a tie), the nearest whole number, or a real kept to 12 significant digits as a
    /// random draw keeps it.
    func value(atUnit u: Double) -> Double {
        let (lower, upper) = bounds
        let x = lower + min(1, max(0, u)) * (upper - lower)
        switch self {
        case .values(let v): return v.min { abs($0 - x) < abs($1 - x) }!
        case .integers: return min(upper, max(lower, x.rounded()))
        case .reals: return min(upper, max(lower, NumberText.twelveSignificantDigits(x)))
        }
    }
}

extension SearchSpace {
    /// `point` (one value per axis) on the unit cube.
    func unit(_ point: [Double]) -> [Double] {
        zip(axes, point).map { $0.domain.unit($1) }
    }

    /// The point of the space nearest to `u` on the unit cube, axis by axis.
    func point(atUnit u: [Double]) -> [Double] {
        zip(axes, u).map { $0.domain.value(atUnit: $1) }
    }
}
