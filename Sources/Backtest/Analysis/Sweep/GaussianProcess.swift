import BacktestCore
import Foundation

/// A Gaussian-process regression of observed values on points of the unit cube, the model of a
/// Bayesian search (`BayesSearch`), with its expected improvement.
///
/// The kernel is Matern 5/2, isotropic: k(r) = s^2 (1 + sqrt(5) r / l + 5 r^2 / (3 l^2))
/// exp(-sqrt(5) r / l), r the Euclidean distance, plus a nugget s^2 g on the diagonal (the
/// objective is deterministic, but a backtest's is rough: the nugget lets the model smooth it).
/// The observations are standardised (mean 0, standard deviation 1). The length scale l and the
/// nugget g are those of `lengthScales` x `nuggets` that maximise the marginal likelihood with
/// s^2 profiled out (its maximum-likelihood value y^T R^-1 y / n, R the correlation matrix):
/// -n/2 log(y^T R^-1 y / n) - 1/2 log det R (Rasmussen and Williams 2006, section 5.4.1),
/// the first of the grid on a tie. Linear algebra by GSL's Cholesky (`GSL.Cholesky`).
struct GaussianProcess {
    static let lengthScales = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2]
    static let nuggets = [1e-6, 1e-3, 1e-2, 1e-1]

    /// The chosen hyperparameters.
    struct Hyperparameters: Equatable {
        var lengthScale: Double
        var nugget: Double
    }

    let points: [[Double]]
    let hyper: Hyperparameters
    /// The observations' mean and standard deviation (standardising).
    private let mean: Double, scale: Double
    private let cholesky: GSL.Cholesky
    /// R^-1 y of the standardised observations.
    private let weights: [Double]
    /// s^2, the profiled signal variance (standardised units).
    private let variance: Double

    /// Fits the model to `values` (finite) at `points` (each in the unit cube), with `hyper`
    /// when given, else the best of the grid.
    /// - Throws: `GSLError` when no hyperparameters of the grid give a positive-definite matrix.
    init(points: [[Double]], values: [Double], hyper given: Hyperparameters? = nil) throws {
        precondition(!points.isEmpty && points.count == values.count, "a model needs as many values as points")
        precondition(values.allSatisfy(\.isFinite), "a model's values must be finite")
        self.points = points
        let n = points.count
        let m = values.reduce(0, +) / Double(n)
        let sd = n > 1 ? (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(n - 1)).squareRoot() : 0
        let scale = sd > 0 ? sd : 1
        (mean, self.scale) = (m, scale)
        let y = values.map { ($0 - m) / scale }
        let candidates = given.map { [$0] }
            ?? Self.lengthScales.flatMap { l in Self.nuggets.map { Hyperparameters(lengthScale: l, nugget: $0) } }
        var best: (hyper: Hyperparameters, likelihood: Double, cholesky: GSL.Cholesky, weights: [Double], variance: Double)?
        var lastError: Error?
        let distances = Self.distances(points)
        for h in candidates {
            do {
                let c = try GSL.Cholesky(symmetric: Self.correlations(distances, size: n, hyper: h), size: n)
                let w = try c.solve(y)
                let quadratic = max(zip(y, w).reduce(0) { $0 + $1.0 * $1.1 }, 1e-300)
                let likelihood = -Double(n) / 2 * Foundation.log(quadratic / Double(n)) - c.logDeterminant / 2
                guard likelihood.isFinite else { continue }
                if best == nil || likelihood > best!.likelihood {
                    best = (h, likelihood, c, w, quadratic / Double(n))
                }
            } catch {
                lastError = error
            }
        }
        guard let best else { throw lastError ?? InternalError("the search's model has no finite likelihood") }
        hyper = best.hyper
        cholesky = best.cholesky
        weights = best.weights
        variance = best.variance
    }

    /// Matern 5/2 correlation at distance `r` for length scale `l`.
    @inline(__always)
    static func matern52(_ r: Double, _ l: Double) -> Double {
        let a = 5.0.squareRoot() * r / l
        return (1 + a + a * a / 3) * Foundation.exp(-a)
    }

    @inline(__always)
    static func distance(_ a: [Double], _ b: [Double]) -> Double {
        var s = 0.0
        for k in a.indices { let d = a[k] - b[k]; s += d * d }
        return s.squareRoot()
    }

    /// The distances between `points`, below the diagonal of a row-major n x n matrix (0 elsewhere).
    static func distances(_ points: [[Double]]) -> [Double] {
        let n = points.count
        var d = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<i { d[i * n + j] = distance(points[i], points[j]) }
        }
        return d
    }

    /// R: the correlations of points `distances` apart with the nugget on the diagonal (row-major).
    static func correlations(_ distances: [Double], size n: Int, hyper: Hyperparameters) -> [Double] {
        var r = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            r[i * n + i] = 1 + hyper.nugget
            for j in 0..<i {
                let v = matern52(distances[i * n + j], hyper.lengthScale)
                r[i * n + j] = v
                r[j * n + i] = v
            }
        }
        return r
    }

    /// The posterior mean and standard deviation of the (noise-free) objective at each of
    /// `candidates`, in standardised units.
    func predict(_ candidates: [[Double]]) throws -> [(mean: Double, sd: Double)] {
        let n = points.count, m = candidates.count
        guard m > 0 else { return [] }
        // Row-major n x m: column j holds candidate j's correlations with the points.
        var k = [Double](repeating: 0, count: n * m)
        for i in 0..<n {
            for j in 0..<m { k[i * m + j] = Self.matern52(Self.distance(points[i], candidates[j]), hyper.lengthScale) }
        }
        let v = try cholesky.lowerSolve(k, columns: m)
        var out: [(mean: Double, sd: Double)] = []
        out.reserveCapacity(m)
        for j in 0..<m {
            var mu = 0.0, explained = 0.0
            for i in 0..<n {
                mu += k[i * m + j] * weights[i]
                explained += v[i * m + j] * v[i * m + j]
            }
            out.append((mu, (variance * max(0, 1 - explained)).squareRoot()))
        }
        return out
    }

    /// Expected improvement over `best` (standardised) by at least `margin`, for a prediction
    /// with `mean` and `sd`: (mean - best - margin) Phi(z) + sd phi(z), z = (mean - best - margin) / sd
    /// (Jones, Schonlau and Welch 1998); max(0, mean - best - margin) where sd is 0.
    static func expectedImprovement(mean: Double, sd: Double, best: Double, margin: Double = 0.01) -> Double {
        let gain = mean - best - margin
        guard sd > 1e-12 else { return max(0, gain) }
        let z = gain / sd
        return gain * GSL.normalCDF(z) + sd * GSL.normalPDF(z)
    }

    /// `value` (in the observations' units) standardised as the model's are.
    func standardised(_ value: Double) -> Double { (value - mean) / scale }
}
