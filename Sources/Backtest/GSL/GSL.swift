import CGSL

/// The one place bt calls the GNU Scientific Library.
///
/// GSL's default error handler aborts the process; `GSL.prepare()` turns it off once, and every
/// call that returns a status is checked and mapped to `GSLError`.
public enum GSL {
    /// Turns off GSL's aborting error handler. Idempotent; called by every entry point below.
    @inline(__always)
    static func prepare() { _ = handlerOff }

    private static let handlerOff: Void = { _ = gsl_set_error_handler_off() }()

    /// Throws `GSLError` when `status` is not `GSL_SUCCESS`.
    static func check(_ status: Int32, _ what: String) throws {
        guard status == GSL_SUCCESS else {
            throw GSLError(status: status, function: what)
        }
    }

    // MARK: - Descriptive statistics

    /// Arithmetic mean (`gsl_stats_mean`); NaN for an empty sample.
    public static func mean(_ x: [Double]) -> Double {
        prepare()
        guard !x.isEmpty else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
    }

    /// Sample standard deviation with the n-1 denominator (`gsl_stats_sd`); NaN below two values.
    public static func standardDeviation(_ x: [Double]) -> Double {
        prepare()
        guard x.count > 1 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_sd($0.baseAddress, 1, $0.count) }
    }

    // MARK: - Random numbers

    /// A seeded Mersenne Twister (`gsl_rng_mt19937`): the same seed gives the same numbers everywhere.
    public final class Random {
        private let rng: UnsafeMutablePointer<gsl_rng>

        public init(seed: UInt) {
            GSL.prepare()
            guard let r = gsl_rng_alloc(bt_gsl_rng_mt19937()) else { fatalError("gsl_rng_alloc failed") }
            rng = r
            gsl_rng_set(r, seed)
        }

        deinit { gsl_rng_free(rng) }

        /// Uniform on [0, 1).
        public func uniform() -> Double { gsl_rng_uniform(rng) }

        /// Uniform integer in 0..<n.
        public func int(below n: Int) -> Int { Int(gsl_rng_uniform_int(rng, UInt(n))) }

        /// Gaussian with mean 0 and standard deviation `sigma` (Box-Muller-free ziggurat).
        public func gaussian(sigma: Double = 1) -> Double { gsl_ran_gaussian_ziggurat(rng, sigma) }

        /// Student-t with `nu` degrees of freedom: fat-tailed shocks.
        public func studentT(nu: Double) -> Double { gsl_ran_tdist(rng, nu) }

        /// Lognormal: `exp(zeta + sigma * N(0, 1))` (`gsl_ran_lognormal`).
        public func lognormal(zeta: Double, sigma: Double) -> Double { gsl_ran_lognormal(rng, zeta, sigma) }

        /// True with probability `p` (`gsl_ran_bernoulli`).
        public func bernoulli(_ p: Double) -> Bool { gsl_ran_bernoulli(rng, p) == 1 }
    }
}

/// A GSL call failed with a status code.
public struct GSLError: Error, CustomStringConvertible, Sendable {
    public var status: Int32
    public var function: String
    public var description: String {
        let text = gsl_strerror(status).map { String(cString: $0) } ?? "status \(status)"
        return "\(function): \(text)"
    }
}
