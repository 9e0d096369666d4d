#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One side of a model order book, continuous in quantity: what a market order pays beyond the
/// reference price P for each unit it takes.
///
/// The touch, `halfSpread` from P, holds `touchQuantity`; beyond it the distance of the u-th unit
/// grows as `shape` says. Distances are fractions of P (1e-4 = 1 bp); a buy's u-th unit costs
/// P(1 + d(u)), a sell's P(1 − d(u)). The book never runs dry for buys, so a model fill is
/// partial only when the participation cap or the cash budget stops it (sells stop where the
/// price would reach 0).
///
/// - `.flat`: every unit at the touch (impact off).
/// - `.squareRoot(coefficient: c, volume: V)`: d(u) = h + c √((u − q_touch)/V) beyond the touch.
///   With c = 1.5 Y σ the average over an order of Q units is h + Y σ (Q − q_touch)^{3/2}/(Q √V),
///   the square-root law beyond the touch (see `SyntheticDepth`).
/// - `.powerLaw(a:, b:)`: cumulative depth Q(x) = a x^b units within x **bps** of P, with the
///   depth inside the half spread resting at the touch (q_touch = a h^b, h in bps); the average
///   over Q > q_touch units is [h q_touch + a b/(b+1)(x*^{b+1} − h^{b+1})]/Q bps, x* = (Q/a)^{1/b}
///   (the calibrated profile of `bt calibrate`).
///
/// `scale` multiplies every distance (the cost-sensitivity table's depth multiplier).
public struct DepthCurve: Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        case flat
        case squareRoot(coefficient: Double, volume: Double)
        case powerLaw(a: Double, b: Double)
    }

    public var halfSpread: Double
    public var touchQuantity: Double
    public var shape: Shape
    public var scale: Double

    /// A flat or square-root book.
    public init(halfSpread: Double, touchQuantity: Double, shape: Shape, scale: Double = 1) {
        self.halfSpread = halfSpread
        self.touchQuantity = shape == .flat ? .infinity : touchQuantity
        self.shape = shape
        self.scale = scale
        if case .powerLaw(let a, let b) = shape { self.touchQuantity = a * pow(halfSpread * 10_000, b) }
    }

    /// A power-law book from a calibrated side: Q(x) = a x^b within x bps, touch at `halfSpread`.
    public static func powerLaw(a: Double, b: Double, halfSpread: Double, scale: Double = 1) -> DepthCurve {
        DepthCurve(halfSpread: halfSpread, touchQuantity: 0, shape: .powerLaw(a: a, b: b), scale: scale)
    }

    /// The distance (fraction of P) of the u-th unit taken.
    public func marginal(_ u: Double) -> Double {
        guard u > touchQuantity else { return scale * halfSpread }
        switch shape {
        case .flat:
            return scale * halfSpread
        case .squareRoot(let c, let v):
            return scale * (halfSpread + c * ((u - touchQuantity) / v).squareRoot())
        case .powerLaw(let a, let b):
            return scale * pow(u / a, 1 / b) / 10_000
        }
    }

    /// The summed distance of the first `q` units, ∫₀^q d(u) du (fraction of P × units).
    public func cumulative(_ q: Double) -> Double {
        guard q > touchQuantity else { return scale * halfSpread * q }
        switch shape {
        case .flat:
            return scale * halfSpread * q
        case .squareRoot(let c, let v):
            let beyond = q - touchQuantity
            return scale * (halfSpread * q + c * 2 / 3 * beyond * (beyond / v).squareRoot())
        case .powerLaw(let a, let b):
            let h = halfSpread * 10_000
            let x = pow(q / a, 1 / b)
            let bps = h * touchQuantity + a * b / (b + 1) * (x * pow(x, b) - h * pow(h, b))
            return scale * bps / 10_000
        }
    }

    /// The average distance (fraction of P) of a market order of `q` units when `taken` units are
    /// still missing from earlier orders: the units (taken, taken + q].
    public func cost(_ q: Double, after taken: Double = 0) -> Double {
        guard q > 0, taken + q > touchQuantity else { return scale * halfSpread }
        return (cumulative(taken + q) - cumulative(taken)) / q
    }

    /// The part of `cost` that is the half spread: `scale · halfSpread` (every unit pays it).
    public var spreadPart: Double { scale * halfSpread }

    /// Units available before the distance reaches `limit` (a sell's prices stay above 0).
    func quantity(belowDistance limit: Double) -> Double {
        let d = limit / scale
        guard d > halfSpread else { return 0 }
        switch shape {
        case .flat: return .infinity
        case .squareRoot(let c, let v):
            guard c > 0 else { return .infinity }
            let y = (d - halfSpread) / c
            return touchQuantity + v * y * y
        case .powerLaw(let a, let b):
            return max(touchQuantity, a * pow(d * 10_000, b))
        }
    }
}
