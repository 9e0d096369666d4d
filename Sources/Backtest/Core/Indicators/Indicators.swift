/// Technical indicators computed the way TA-Lib 0.6 (the `ta-lib` 0.8 Python package) computes them.
///
/// Every function returns arrays of the input's length. The first `lookback` values are NaN
/// (the warm-up); `Indicators.Lookback` gives that length for each indicator and it equals
/// TA-Lib's `TA_<NAME>_Lookback` for the same parameters (unstable periods 0, TA-Lib's default).
/// After the warm-up, values agree with TA-Lib within 1e-9 relative (see the golden tests).
///
/// Gaps: a NaN or infinite input value splits the series into runs. Each run is computed on its
/// own, as if it were a separate series, so the warm-up restarts after a gap; outputs at the gap
/// and in the restarted warm-up are NaN. (TA-Lib instead lets a NaN poison running sums and
/// smoothers for the rest of the series.)
///
/// Bad parameters throw `InputError`: a period below its minimum, a period longer than the
/// series, `fast >= slow` for MACD, a non-finite or negative band width.
///
/// For parameter sweeps, `Indicators.Kernel` offers the same computations writing into
/// caller-owned buffers without allocating.
public enum Indicators {
    /// MACD line, signal line and histogram (`macd - signal`).
    public struct MACD: Sendable, Equatable {
        public var macd: [Double]
        public var signal: [Double]
        public var histogram: [Double]
    }

    /// Upper, middle and lower lines (Bollinger Bands, Donchian channels).
    public struct Bands: Sendable, Equatable {
        public var upper: [Double]
        public var middle: [Double]
        public var lower: [Double]
    }

    /// Slow %K and slow %D of the stochastic oscillator.
    public struct Stochastic: Sendable, Equatable {
        public var k: [Double]
        public var d: [Double]
    }

    // MARK: - Parameter validation

    /// Throws unless `minimum <= value <= count`.
    static func checkPeriod(
        _ value: Int, _ name: String = "period", of indicator: String, count: Int, minimum: Int = 1
    ) throws {
        if value < minimum {
            throw InputError("\(indicator): \(name) must be at least \(minimum) (got \(value))")
        }
        if value > count {
            throw InputError("\(indicator): \(name) \(value) is longer than the series (\(count) bars)")
        }
    }

    /// Throws unless all columns have the same length.
    static func checkLengths(_ counts: [Int], of indicator: String) throws {
        guard let first = counts.first, counts.allSatisfy({ $0 == first }) else {
            throw InputError("\(indicator): input columns differ in length (\(counts.map(String.init).joined(separator: ", ")))")
        }
    }
}
