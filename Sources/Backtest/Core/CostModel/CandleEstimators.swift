#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The candle-only estimators of the synthetic cost model: spread, volatility and volume from
/// the bars before a fill (never the fill bar itself, so nothing after the fill's time is used).
///
/// - **Spread**: Corwin and Schultz (2012) high-low estimator on each two-bar pair (k-1, k) after
///   their overnight adjustment, averaged **signed** over the pairs of the `window` bars before
///   the fill bar and clipped at 0 once (clipping each pair turns volatility into spread).
/// - **Volatility**: standard deviation (n − 1) of the log close-to-close returns of the `window`
///   bars before the fill bar (returns k = t−window ... t−1, so the close of bar t−window−1 is
///   read); at least two returns.
/// - **Volume**: mean volume of the `window` bars before the fill bar.
///
/// These are the reference implementations (direct sums); the engine keeps the spread's window
/// sum incrementally and agrees with them to rounding.
public enum CandleEstimators {
    /// With k = 3 − 2√2 = (√2 − 1)²: (√(2β) − √β)/k = (√2 + 1)√β and √(γ/k) = (√2 + 1)√γ, so
    /// α = (1 + √2)(√β − √γ), √γ = ln(max H / min L).
    @inline(__always) static var alphaFactor: Double { 2.414213562373095 }

    /// The Corwin-Schultz spread (a fraction, possibly negative) of the pair (bar 0, bar 1) after
    /// the overnight adjustment: when bar 1's low is above bar 0's close `close0`, bar 1's high
    /// and low move down by the gap; when its high is below that close, they move up by it.
    ///
    /// β = ln²(H₀/L₀) + ln²(H₁/L₁), γ = ln²(max(H₀, H₁)/min(L₀, L₁)),
    /// α = (√(2β) − √β)/(3 − 2√2) − √(γ/(3 − 2√2)), S = 2(e^α − 1)/(1 + e^α).
    /// A pair with a price that is not positive gives 0.
    @inline(__always)
    public static func corwinSchultz(high0: Double, low0: Double, close0: Double, high1: Double, low1: Double) -> Double {
        var h1 = high1, l1 = low1
        if l1 > close0 {
            h1 -= l1 - close0
            l1 = close0
        } else if h1 < close0 {
            l1 += close0 - h1
            h1 = close0
        }
        guard low0 > 0, l1 > 0 else { return 0 }
        return core(high0, low0, lnRatio(high0, low0), h1, l1, lnRatio(h1, l1))
    }

    /// S of a pair from the (adjusted) bars and their log ranges a = ln(H₀/L₀), b = ln(H₁/L₁):
    /// γ reuses a or b when one bar's range contains the other's.
    @inline(__always)
    static func core(_ h0: Double, _ l0: Double, _ a: Double, _ h1: Double, _ l1: Double, _ b: Double) -> Double {
        let g: Double
        if h0 >= h1 && l0 <= l1 { g = a } else if h1 >= h0 && l1 <= l0 { g = b } else {
            g = lnRatio(max(h0, h1), min(l0, l1))
        }
        let alpha = alphaFactor * ((a * a + b * b).squareRoot() - g)
        return twoTanhHalf(alpha)
    }

    /// The pairs ending at bars `from ..< from + count` into `out`, as `corwinSchultz` computes
    /// them. Two branch-free passes the compiler vectorizes: each bar's log range once
    /// (`lnSeries`), then per pair γ and α from the series; then the pairs the passes cannot
    /// take (an overnight adjustment, a term outside its series' range, a price that is not
    /// positive or not finite) again through `corwinSchultz`. On pairs without an adjustment the
    /// passes do exactly what `corwinSchultz` does, so the results are the same to the bit.
    /// `own` is scratch of `count + 1` Doubles, `flags` of `count`.
    /// - Complexity: O(count).
    static func pairs(_ h: UnsafePointer<Double>, _ l: UnsafePointer<Double>, _ c: UnsafePointer<Double>,
                      from: Int, count: Int, into out: UnsafeMutablePointer<Double>,
                      own: UnsafeMutablePointer<Double>, flags: UnsafeMutablePointer<Double>) {
        typealias V = Lanes.V
        let one = V(repeating: 1), two = V(repeating: 2), four = V(repeating: 4)
        let minusThird = V(repeating: -1.0 / 3), limit = V(repeating: 1e-4)
        let t2 = V(repeating: 2.0 / 15), t3 = V(repeating: -17.0 / 315), factor = V(repeating: alphaFactor)
        let zero = V(repeating: 0)
        var lowest = V(repeating: .infinity)
        // Local functions, not closures stored in constants: a stored `Lanes.lnSeries` was
        // called out of line (its registers spilled around each call), 23 instructions a call.
        @inline(__always) func load(_ p: UnsafePointer<Double>) -> V { Lanes.load(p) }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Double>) { Lanes.store(v, p) }
        @inline(__always) func series(_ x: V, _ y: V) -> (value: V, z2: V) { Lanes.lnSeries(x, y) }
        @inline(__always) func vmax(_ a: V, _ b: V) -> V { Lanes.max(a, b) }
        @inline(__always) func vmin(_ a: V, _ b: V) -> V { Lanes.min(a, b) }
        // Each bar's log range, bars from - 1 ..< from + count.
        var j = 0
        while j &+ 2 <= count &+ 1 {
            let k = from &- 1 &+ j
            let lk = load(l + k)
            store(series(load(h + k), lk).value, own + j)
            lowest = vmin(lowest, lk)
            j &+= 2
        }
        if j <= count {
            own[j] = lnSeries(h[from &- 1 &+ j], l[from &- 1 &+ j]).value
            lowest = vmin(lowest, V(repeating: l[from &- 1 &+ j]))
        }
        // The pairs, two lanes at a time, two steps per iteration (more independent divisions
        // and square roots in flight).
        @inline(__always) func pair(_ h0: V, _ l0: V, _ c0: V, _ h1: V, _ l1: V, _ a: V, _ b: V) -> (value: V, flag: V) {
            let g = series(vmax(h0, h1), vmin(l0, l1))
            let root: V = (a * a + b * b).squareRoot()
            let alpha: V = factor * (root - g.value)
            let u: V = alpha / two
            let u2: V = u * u
            let p0: V = u2 * minusThird + one
            let p1: V = u2 * t3 + t2
            let t: V = (u2 * u2) * p1 + p0
            // > 0 or NaN (kept by the first term) sends a pair to `corwinSchultz`: a term past
            // its series' range (a and b are at most g), or an overnight adjustment (a gap > 0).
            // The series is exact enough at its range's edge.
            return (two * u * t, vmax(g.z2 + four * u2 - limit, vmax(l1 - c0, c0 - h1)))
        }
        // Lanes whose flag is not <= 0 (NaN included): the pairs `corwinSchultz` takes again.
        var flagged = SIMD2<Int64>(repeating: 0)
        @inline(__always) func step(_ i: Int) {
            let k = from &+ i
            let p = pair(load(h + (k &- 1)), load(l + (k &- 1)), load(c + (k &- 1)), load(h + k), load(l + k),
                         load(own + i), load(own + (i &+ 1)))
            store(p.value, out + i)
            store(p.flag, flags + i)
            flagged |= unsafeBitCast(.!(p.flag .<= zero), to: SIMD2<Int64>.self)
        }
        var i = 0
        while i &+ 4 <= count {
            step(i)
            step(i &+ 2)
            i &+= 4
        }
        if i &+ 2 <= count {
            step(i)
            i &+= 2
        }
        if i < count {
            // The odd last pair in both lanes: lane 0 is what a step computes for it.
            let k = from &+ i
            let p = pair(V(repeating: h[k &- 1]), V(repeating: l[k &- 1]), V(repeating: c[k &- 1]),
                         V(repeating: h[k]), V(repeating: l[k]), V(repeating: own[i]), V(repeating: own[i &+ 1]))
            out[i] = p.value[0]
            flags[i] = p.flag[0]
            flagged |= unsafeBitCast(.!(p.flag .<= zero), to: SIMD2<Int64>.self)
        }
        // A price that is not positive (or NaN): every pair of the run through `corwinSchultz`.
        if !(lowest.min() > 0) {
            for i in 0..<count { flags[i] = 1 }
        } else if flagged == SIMD2(repeating: 0) {
            return
        }
        for i in 0..<count where !(flags[i] <= 0) {
            let k = from + i
            out[i] = corwinSchultz(high0: h[k - 1], low0: l[k - 1], close0: c[k - 1], high1: h[k], low1: l[k])
        }
    }

    /// The pair ending at bar `k` (>= 1) of the given columns.
    @inline(__always)
    static func pair(_ h: UnsafeBufferPointer<Double>, _ l: UnsafeBufferPointer<Double>,
                     _ c: UnsafeBufferPointer<Double>, _ k: Int) -> Double {
        corwinSchultz(high0: h[k - 1], low0: l[k - 1], close0: c[k - 1], high1: h[k], low1: l[k])
    }

    /// The spread estimate (a fraction, >= 0) for a fill on bar `t` from bars t−window ... t−1;
    /// nil with fewer than two bars before `t`.
    /// - Complexity: O(window).
    public static func spread(_ candles: CandleSeries, before t: Int, window: Int) -> Double? {
        spreadSample(candles, before: t, window: window).map { max(0, $0.mean) }
    }

    /// The Corwin-Schultz pairs of a window summed up: their signed mean and the standard error
    /// of that mean.
    public struct SpreadSample: Sendable, Equatable {
        /// Signed mean of the pairs (a fraction; negative when volatility outweighs the spread).
        public var mean: Double
        /// Standard deviation (n − 1) of the pairs over √n; infinity with one pair.
        public var standardError: Double
        /// Pairs averaged.
        public var pairs: Int
        public init(mean: Double, standardError: Double, pairs: Int) {
            self.mean = mean; self.standardError = standardError; self.pairs = pairs
        }

        /// From the pairs' sum and sum of squares (the squares about `mean`'s neighbourhood are
        /// large against the mean's square, so the difference loses little).
        init(sum: Double, squares: Double, pairs n: Int) {
            mean = sum / Double(n)
            guard n >= 2 else { standardError = .infinity; pairs = n; return }
            let variance = max(0, (squares - sum * mean) / Double(n - 1))
            standardError = (variance / Double(n)).squareRoot()
            pairs = n
        }
    }

    /// The pairs of bars t−window ... t−1 for a fill on bar `t`: their signed mean and its
    /// standard error; nil with fewer than two bars before `t`.
    /// - Complexity: O(window).
    public static func spreadSample(_ candles: CandleSeries, before t: Int, window: Int) -> SpreadSample? {
        let lo = max(0, t - window)
        guard t - lo >= 2 else { return nil }
        return candles.high.withUnsafeBufferPointer { h in
            candles.low.withUnsafeBufferPointer { l in
                candles.close.withUnsafeBufferPointer { c in
                    var sum = 0.0
                    for k in (lo + 1)..<t { sum += pair(h, l, c, k) }
                    let n = t - lo - 1, mean = sum / Double(n)
                    guard n >= 2 else { return SpreadSample(mean: mean, standardError: .infinity, pairs: n) }
                    var squares = 0.0
                    for k in (lo + 1)..<t { squares += (pair(h, l, c, k) - mean) * (pair(h, l, c, k) - mean) }
                    return SpreadSample(mean: mean, standardError: (squares / Double(n - 1) / Double(n)).squareRoot(), pairs: n)
                }
            }
        }
    }

    /// The full spread (a fraction) the volume relation gives a series with per-bar volatility
    /// `sigma` and mean dollar volume per bar `dollarVolume`: c (σ² / D)^{1/3}, c =
    /// `volumeRelationCoefficient`. Kyle and Obizhaeva's (2016) market microstructure invariance
    /// makes the spread proportional to (σ² / (P V))^{1/3}; Fong, Holden and Tobek (2018) fit
    /// c = 8.0 for the percent effective spread on daily returns and daily dollar volume (year-2000
    /// dollars). σ² and D both grow in proportion to the bar's length, so their ratio, and the
    /// spread, do not depend on it. nil when the dollar volume is not positive or either input is
    /// not finite.
    @inline(__always)
    public static func volumeRelationSpread(sigma: Double, dollarVolume: Double) -> Double? {
        guard dollarVolume > 0, dollarVolume.isFinite, sigma >= 0, sigma.isFinite else { return nil }
        return volumeRelationCoefficient * cbrt(sigma * sigma / dollarVolume)
    }

    /// c of `volumeRelationSpread` (Fong, Holden and Tobek 2018; used by Chen and Velikov 2023 as
    /// one of four low-frequency effective-spread measures).
    public static let volumeRelationCoefficient = 8.0

    /// The mean dollar volume (close × volume) per bar for a fill on bar `t`, from the `window`
    /// bars before it; bars whose product is not finite count as 0. nil when there is no bar
    /// before `t`.
    /// - Complexity: O(window).
    public static func meanDollarVolume(_ candles: CandleSeries, before t: Int, window: Int) -> Double? {
        candles.close.withUnsafeBufferPointer { c in
            candles.volume.withUnsafeBufferPointer { v in meanDollarVolume(c, v, before: t, window: window) }
        }
    }

    /// `meanVolume` and `meanDollarVolume` in one pass over the window.
    static func meanVolumes(_ c: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>,
                            before t: Int, window: Int) -> (volume: Double?, dollars: Double?) {
        let lo = max(0, t - window)
        guard t > lo else { return (nil, nil) }
        var volume = 0.0, dollars = 0.0
        for k in lo..<t {
            volume += v[k]
            let d = c[k] * v[k]
            if d.isFinite { dollars += d }
        }
        let n = Double(t - lo)
        guard volume.isFinite else { return (meanVolume(v, before: t, window: window), dollars / n) }
        return (volume / n, dollars / n)
    }

    static func meanDollarVolume(_ c: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>,
                                 before t: Int, window: Int) -> Double? {
        let lo = max(0, t - window)
        guard t > lo else { return nil }
        var sum = 0.0
        for k in lo..<t {
            let d = c[k] * v[k]
            if d.isFinite { sum += d }
        }
        return sum / Double(t - lo)
    }

    /// The volatility (per bar, a fraction) for a fill on bar `t`; nil with fewer than two returns.
    /// - Complexity: O(window).
    public static func volatility(_ close: [Double], before t: Int, window: Int) -> Double? {
        close.withUnsafeBufferPointer { volatility($0, before: t, window: window) }
    }

    static func volatility(_ c: UnsafeBufferPointer<Double>, before t: Int, window: Int) -> Double? {
        let lo = max(1, t - window)
        let n = t - lo
        guard n >= 2 else { return nil }
        let p = c.baseAddress!
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { buffer in
            let r = buffer.baseAddress!
            // The returns from the series two at a time; any outside its range (or a price that
            // is not positive, or NaN) sends them all through `lnRatio`.
            var worst = Lanes.V(repeating: 0), lowest = Lanes.V(repeating: .infinity)
            var i = 0
            while i &+ 2 <= n {
                let x = Lanes.load(p + (lo &+ i)), y = Lanes.load(p + (lo &+ i &- 1))
                let s = Lanes.lnSeries(x, y)
                Lanes.store(s.value, r + i)
                worst = Lanes.max(worst, s.z2)
                lowest = Lanes.min(lowest, Lanes.min(x, y))
                i &+= 2
            }
            var ok = worst.max() < 1e-4 && lowest.min() > 0
            if i < n {
                let x = p[lo &+ i], y = p[lo &+ i &- 1]
                let s = lnSeries(x, y)
                r[i] = s.value
                ok = ok && s.z2 < 1e-4 && x > 0 && y > 0
            }
            if !ok {
                for i in 0..<n {
                    let x = p[lo + i], y = p[lo + i - 1]
                    guard x > 0, y > 0 else { return nil }
                    r[i] = lnRatio(x, y)
                }
            }
            // Two passes: the mean, then the squared deviations from it.
            var mean = 0.0
            for i in 0..<n { mean += r[i] }
            mean /= Double(n)
            var squares = 0.0
            for i in 0..<n { squares += (r[i] - mean) * (r[i] - mean) }
            return (squares / Double(n - 1)).squareRoot()
        }
    }

    /// `volatility`, `meanVolume` and `meanDollarVolume` of a fill on bar `t` from one window of
    /// the bars before it, each to the bit: every sum takes the same terms in the same order as
    /// the function it stands for. Three short passes: the returns and the finite dollar volumes
    /// two lanes at a time (a product that is not finite stored as 0: added to a sum that starts
    /// at +0 it leaves the sum as skipping it does), the three sums in order, then the squared
    /// deviations. nil when `t <= window` (the returns' window then starts a bar later than the
    /// volumes'): the caller takes the functions one by one.
    /// - Complexity: O(window).
    static func impactWindow(_ c: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>,
                             before t: Int, window: Int) -> (sigma: Double?, volume: Double?, dollars: Double?)? {
        guard window >= 2, t > window, t <= c.count, t <= v.count else { return nil }
        let lo = t &- window, n = window
        let p = c.baseAddress! + lo, q = v.baseAddress! + lo
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 &* n) { buffer in
            typealias V = Lanes.V
            let r = buffer.baseAddress!, d = r + n
            let zero = V(repeating: 0)
            // The returns as `volatility` takes them (any outside the series' range, or a price
            // that is not positive, sends them all through `lnRatio`).
            var worst = zero, lowest = V(repeating: .infinity)
            var i = 0
            while i &+ 2 <= n {
                let x = Lanes.load(p + i), y = Lanes.load(p + (i &- 1))
                let s = Lanes.lnSeries(x, y)
                Lanes.store(s.value, r + i)
                worst = Lanes.max(worst, s.z2)
                lowest = Lanes.min(lowest, Lanes.min(x, y))
                let product = x * Lanes.load(q + i)
                // The product where it is finite (x - x is 0 only then), else +0.
                let finite = unsafeBitCast(product - product .== zero, to: SIMD2<UInt64>.self)
                Lanes.store(unsafeBitCast(unsafeBitCast(product, to: SIMD2<UInt64>.self) & finite, to: V.self), d + i)
                i &+= 2
            }
            var ok = worst.max() < 1e-4 && lowest.min() > 0
            if i < n {
                let x = p[i], y = p[i &- 1]
                let s = lnSeries(x, y)
                r[i] = s.value
                ok = ok && s.z2 < 1e-4 && x > 0 && y > 0
                let product = x * q[i]
                d[i] = product.isFinite ? product : 0
            }
            var defined = true
            if !ok {
                for i in 0..<n {
                    let x = p[i], y = p[i &- 1]
                    guard x > 0, y > 0 else { defined = false; break }
                    r[i] = lnRatio(x, y)
                }
            }
            var sum = 0.0, volume = 0.0, dollars = 0.0
            for i in 0..<n {
                sum += r[i]
                volume += q[i]
                dollars += d[i]
            }
            let count = Double(n)
            let volumeMean = volume.isFinite ? volume / count : meanVolume(v, before: t, window: window)
            guard defined else { return (nil, volumeMean, dollars / count) }
            let mean = sum / count
            var squares = 0.0
            for i in 0..<n { squares += (r[i] - mean) * (r[i] - mean) }
            return ((squares / Double(n &- 1)).squareRoot(), volumeMean, dollars / count)
        }
    }

    /// The mean volume for a fill on bar `t`; nil when there is no bar before `t`.
    /// - Complexity: O(window).
    public static func meanVolume(_ volume: [Double], before t: Int, window: Int) -> Double? {
        volume.withUnsafeBufferPointer { meanVolume($0, before: t, window: window) }
    }

    static func meanVolume(_ v: UnsafeBufferPointer<Double>, before t: Int, window: Int) -> Double? {
        let lo = max(0, t - window)
        guard t > lo else { return nil }
        var sum = 0.0
        for k in lo..<t { sum += v[k] }
        if !sum.isFinite {
            sum = 0
            for k in lo..<t where v[k].isFinite { sum += v[k] }
        }
        return sum / Double(t - lo)
    }

    // MARK: - Elementary functions near their fixed points

    /// ln(x / y) for x, y > 0. Near 1 (|x − y| / (x + y) < 0.01, every bar of minutes to days)
    /// it is 2 artanh(z) with z = (x − y)/(x + y) from its series to the 7th power of z: the
    /// truncation, z⁸/9 relative, is below half an ulp, and unlike `log(x / y)` nothing is lost to
    /// rounding the ratio (whose ulp is a relative 1e-13 of a logarithm near 1e-3). Farther from 1
    /// it is `log(x / y)`.
    @inline(__always)
    static func lnRatio(_ x: Double, _ y: Double) -> Double {
        let (value, z2) = lnSeries(x, y)
        return z2 < 1e-4 ? value : log(x / y)
    }

    /// The artanh series of `lnRatio` and z², valid when z² < 1e-4.
    @inline(__always)
    static func lnSeries(_ x: Double, _ y: Double) -> (value: Double, z2: Double) {
        let z = (x - y) / (x + y)
        let z2 = z * z
        // 1 + z²/3 + z⁴/5 + z⁶/7 in Estrin's order (shorter chains than Horner's).
        let p0 = z2 * (1.0 / 3) + 1, p1 = z2 * (1.0 / 7) + 1.0 / 5
        let s = (z2 * z2) * p1 + p0
        return (2 * z * s, z2)
    }

    /// 2(e^α − 1)/(1 + e^α) = 2 tanh(α/2). For |α/2| < 0.005 from tanh's series to the 7th power
    /// (truncation below 1e-20 relative), otherwise from `exp`.
    @inline(__always)
    static func twoTanhHalf(_ alpha: Double) -> Double {
        let (value, u2) = tanhSeries(alpha)
        guard u2 < 2.5e-5 else {
            let e = exp(alpha)
            return e.isFinite ? 2 * (e - 1) / (1 + e) : 2
        }
        return value
    }

    /// The series of `twoTanhHalf` and (α/2)², valid when (α/2)² < 2.5e-5.
    @inline(__always)
    static func tanhSeries(_ alpha: Double) -> (value: Double, u2: Double) {
        let u = alpha / 2, u2 = u * u
        // 1 − u²/3 + 2u⁴/15 − 17u⁶/315 in Estrin's order.
        let p0 = u2 * (-1.0 / 3) + 1, p1 = u2 * (-17.0 / 315) + 2.0 / 15
        let s = (u2 * u2) * p1 + p0
        return (2 * u * s, u2)
    }
}

/// Two-lane SIMD helpers of the estimators: unaligned loads and stores, the `lnSeries` of
/// `CandleEstimators` lane by lane (the same operations in the same order, so the same bits),
/// and max/min as compares and blends (`pointwiseMax` keeps IEEE NaN rules in scalar code).
enum Lanes {
    typealias V = SIMD2<Double>

    @inline(__always) static func load(_ p: UnsafePointer<Double>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }

    @inline(__always) static func store(_ v: V, _ p: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }

    @inline(__always) static func lnSeries(_ x: V, _ y: V) -> (value: V, z2: V) {
        let z: V = (x - y) / (x + y)
        let z2: V = z * z
        let p0: V = z2 * V(repeating: 1.0 / 3) + V(repeating: 1)
        let p1: V = z2 * V(repeating: 1.0 / 7) + V(repeating: 1.0 / 5)
        let s: V = (z2 * z2) * p1 + p0
        return (V(repeating: 2) * z * s, z2)
    }

    @inline(__always) static func max(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .> a) }
    @inline(__always) static func min(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .< a) }
}
