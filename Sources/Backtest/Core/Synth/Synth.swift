import Foundation

/// Deterministic synthetic markets for demos, screening and benchmarks (GSL's Mersenne Twister).
///
/// Model, per bar (σ̄ = 20%/yr scaled to the bar: `0.2 * sqrt(bar seconds / 365 days)`):
/// - Regimes: a Markov chain over bull (drift +0.04σ̄, vol x0.85), bear (drift -0.05σ̄, vol x1.4)
///   and range (drift 0, vol x0.9), leaving the current regime with probability 1/150 per bar.
/// - Volatility clustering: GARCH(1,1) on the unit variance `h`:
///   `h' = (1 - α - β) + α z² h + β h` with α = 0.08, β = 0.90 (long-run h = 1).
/// - Fat tails: shocks `z` are Student-t with ν = 4, scaled to unit variance (`/ sqrt(2)`).
/// - Log return `r = drift + κ (log p0 - log p) + σ z` with σ = σ̄ · regime vol · sqrt(h) and a
///   weak pull κ = 0.001 toward the starting price, so long series stay in a realistic range.
/// - Candle: open = previous close · exp(0.1 σ N); close = open · exp(r); the wicks extend
///   max/min(open, close) by `0.6 σ |N|` each; prices are rounded to 0.01 (never below 0.01)
///   and then high >= max(open, close), low <= min(open, close) hold exactly.
/// - Volume rises with volatility: `base · (σ/σ̄)^1.5 · (1 + |r|/σ̄) · lognormal(0, 0.3)`,
///   rounded to whole units.
///
/// Times start on Monday 2018-01-01 00:00 UTC and step by the timeframe (calendar months for
/// `1M`), every day of the week. Rounding to cents makes the bytes the same wherever GSL and
/// libm agree to within rounding, which holds on every mainstream platform.
package enum Synth {
    static let start = UTCTime.epoch(year: 2018, month: 1, day: 1)

    /// The most bars generated in one call, over all symbols (about a gigabyte of candles).
    package static let maximumBars = 20_000_000
    /// The most symbols of a universe.
    package static let maximumSymbols = 100_000

    /// Throws unless `symbols` series of `bars` bars fit: both at least 1, `symbols` at most
    /// `maximumSymbols`, `symbols x bars` at most `maximumBars` (counted without overflow), and
    /// the last bar no later than 9999-12-31.
    /// - Throws: `InputError` with setting `.bars` or `.symbolCount`.
    package static func validate(symbols: Int, bars: Int, timeframe: Timeframe) throws {
        guard symbols >= 1, symbols <= maximumSymbols else {
            throw InputError("the number of symbols must be between 1 and \(maximumSymbols)", setting: .symbolCount,
                             value: String(symbols))
        }
        guard bars >= 1 else { throw InputError("the number of bars must be at least 1", setting: .bars, value: String(bars)) }
        let (total, overflow) = symbols.multipliedReportingOverflow(by: bars)
        guard !overflow, total <= maximumBars else {
            throw InputError("at most \(maximumBars) bars in all (symbols x bars) can be generated", setting: .bars,
                             value: String(bars))
        }
        let last = timeframe == .month1
            ? UTCTime.epoch(year: 2018 + (bars - 1) / 12, month: 1 + (bars - 1) % 12, day: 1)
            : start + Int64(bars - 1) * timeframe.seconds
        guard last <= UTCTime.supportedRange.upperBound else {
            throw InputError("\(bars) \(timeframe.rawValue) bars from 2018-01-01 would run past the year 9999", setting: .bars,
                             value: String(bars))
        }
    }

    /// One synthetic series of `bars` candles.
    /// - Complexity: O(bars).
    package static func series(symbol: String, bars: Int, seed: UInt64, timeframe: Timeframe = .day1) -> CandleSeries {
        precondition(bars >= 0 && bars <= maximumBars, "bars must be in 0...maximumBars (see validate)")
        let rng = GSL.Random(seed: UInt(truncatingIfNeeded: mix(seed)))
        var out = CandleSeries(symbol: symbol, timeframe: timeframe)
        out.reserveCapacity(bars)
        let sigmaBar = 0.2 * (Double(timeframe.seconds) / (365 * 86_400)).squareRoot()
        let drift = [0.04 * sigmaBar, -0.05 * sigmaBar, 0]
        let volScale = [0.85, 1.4, 0.9]
        let alpha = 0.08, beta = 0.90, kappa = 0.001
        let p0 = rounded(20 + 480 * rng.uniform())
        let anchor = log(p0)
        let baseVolume = (100_000 + 4_900_000 * rng.uniform()).rounded()
        var regime = rng.int(below: 3)
        var h = 1.0, z = 0.0
        var close = p0
        var t = start
        for _ in 0..<bars {
            if rng.bernoulli(1.0 / 150) { regime = (regime + 1 + rng.int(below: 2)) % 3 }
            h = (1 - alpha - beta) + alpha * z * z * h + beta * h
            let sigma = sigmaBar * volScale[regime] * h.squareRoot()
            z = rng.studentT(nu: 4) / 2.0.squareRoot()
            let r = drift[regime] + kappa * (anchor - log(close)) + sigma * z
            let o = rounded(close * exp(0.1 * sigma * rng.gaussian()))
            let c = rounded(o * exp(r))
            let hi = max(rounded(max(o, c) * exp(0.6 * sigma * abs(rng.gaussian()))), max(o, c))
            let lo = min(rounded(min(o, c) * exp(-0.6 * sigma * abs(rng.gaussian()))), min(o, c))
            let volume = (baseVolume * pow(sigma / sigmaBar, 1.5) * (1 + abs(r) / sigmaBar)
                * rng.lognormal(zeta: 0, sigma: 0.3)).rounded()
            out.append(time: t, open: o, high: hi, low: lo, close: c, volume: volume)
            close = c
            t = next(t, timeframe)
        }
        return out
    }

    /// `symbols` independent series named `SYN0001`, `SYN0002`, ...; series `k` uses a seed
    /// derived from `seed` and `k`, so adding symbols never changes the earlier ones.
    package static func universe(symbols: Int, bars: Int, seed: UInt64, timeframe: Timeframe = .day1) -> [CandleSeries] {
        precondition(symbols >= 0, "symbols must not be negative")
        return (0..<symbols).map { k in
            series(symbol: name(k + 1), bars: bars, seed: mix(seed &+ 0x9E37_79B9 &* UInt64(k + 1)), timeframe: timeframe)
        }
    }

    /// `SYN0001` for 1; wider numbers keep all digits.
    package static func name(_ k: Int) -> String {
        let digits = String(k)
        return "SYN" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The bar time after `t`.
    static func next(_ t: Int64, _ timeframe: Timeframe) -> Int64 {
        guard timeframe == .month1 else { return t + timeframe.seconds }
        let c = UTCTime.civil(t)
        return c.month == 12 ? UTCTime.epoch(year: c.year + 1, month: 1, day: 1) : UTCTime.epoch(year: c.year, month: c.month + 1, day: 1)
    }

    /// Rounded to cents, at least 0.01.
    @inline(__always)
    static func rounded(_ x: Double) -> Double { max(0.01, (x * 100).rounded() / 100) }

    /// SplitMix64's finaliser: spreads nearby seeds over the whole seed space; `mix(s)` with `s`
    /// stepped by 0x9E3779B97F4A7C15 after each call is SplitMix64's sequence.
    package static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
