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
    /// 3 − 2√2, the constant of Corwin and Schultz's α.
    static let k = 3 - 2 * 2.0.squareRoot()
    /// (√2 − 1) / k: √(2β) − √β = (√2 − 1)√β.
    static let betaFactor = (2.0.squareRoot() - 1) / k
    /// 1 / √k: √(γ/k) = ln(max H / min L) / √k.
    static let gammaFactor = 1 / k.squareRoot()

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
        let a = lnRatio(high0, low0), b = lnRatio(h1, l1)
        let g: Double
        if high0 >= h1 && low0 <= l1 { g = a } else if h1 >= high0 && l1 <= low0 { g = b } else {
            g = lnRatio(max(high0, h1), min(low0, l1))
        }
        let alpha = betaFactor * (a * a + b * b).squareRoot() - gammaFactor * g
        return twoTanhHalf(alpha)
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
        let lo = max(0, t - window)
        guard t - lo >= 2 else { return nil }
        return candles.high.withUnsafeBufferPointer { h in
            candles.low.withUnsafeBufferPointer { l in
                candles.close.withUnsafeBufferPointer { c in
                    var sum = 0.0
                    for k in (lo + 1)..<t { sum += pair(h, l, c, k) }
                    return max(0, sum / Double(t - lo - 1))
                }
            }
        }
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
        // Sums shifted by the first return keep precision when returns are far from 0.
        var shift = 0.0, sum = 0.0, squares = 0.0
        for k in lo..<t {
            guard c[k] > 0, c[k - 1] > 0 else { return nil }
            let r = lnRatio(c[k], c[k - 1])
            if k == lo { shift = r }
            let d = r - shift
            sum += d
            squares += d * d
        }
        let variance = max(0, (squares - sum * sum / Double(n)) / Double(n - 1))
        return variance.squareRoot()
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
        for k in lo..<t { sum += v[k].isFinite ? v[k] : 0 }
        return sum / Double(t - lo)
    }

    // MARK: - Elementary functions near their fixed points

    /// ln(x / y) for x, y > 0. Near 1 (|x − y| / (x + y) < 0.01, every bar of minutes to days)
    /// it is 2 artanh(z) with z = (x − y)/(x + y) from its series, to the 13th power of z:
    /// the truncation is below 1e-26 relative and, unlike `log(x / y)`, nothing is lost to
    /// rounding the ratio (whose ulp is a relative 1e-13 of a logarithm near 1e-3). Farther from
    /// 1 it is `log(x / y)`.
    @inline(__always)
    static func lnRatio(_ x: Double, _ y: Double) -> Double {
        let z = (x - y) / (x + y)
        let z2 = z * z
        guard z2 < 1e-4 else { return log(x / y) }
        var s = 1.0 / 13
        s = s * z2 + 1.0 / 11
        s = s * z2 + 1.0 / 9
        s = s * z2 + 1.0 / 7
        s = s * z2 + 1.0 / 5
        s = s * z2 + 1.0 / 3
        s = s * z2 + 1
        return 2 * z * s
    }

    /// 2(e^α − 1)/(1 + e^α) = 2 tanh(α/2). For |α/2| < 0.005 from tanh's series to the 11th power
    /// (truncation below 1e-27 relative), otherwise from `exp`.
    @inline(__always)
    static func twoTanhHalf(_ alpha: Double) -> Double {
        let u = alpha / 2, u2 = u * u
        guard u2 < 2.5e-5 else {
            let e = exp(alpha)
            return e.isFinite ? 2 * (e - 1) / (1 + e) : 2
        }
        var s = -1382.0 / 155_925
        s = s * u2 + 62.0 / 2835
        s = s * u2 - 17.0 / 315
        s = s * u2 + 2.0 / 15
        s = s * u2 - 1.0 / 3
        s = s * u2 + 1
        return 2 * u * s
    }
}

/// The spread estimate kept incrementally as fills move forward through the bars: the pairs of
/// the window live in a ring, each pair is computed once, and the window sum is re-summed from
/// the ring after every `window` additions so rounding never accumulates.
/// - Complexity: O(1) amortized per bar the window passes; O(min(gap, window)) per fill.
struct SpreadWindow {
    let window: Int
    private var ring: [Double]
    /// The pairs in the window are those ending at bars start..<end.
    private var start = 1, end = 1
    private var sum = 0.0
    private var added = 0

    init(window: Int) {
        precondition(window >= 1, "spread window must be at least one bar")
        self.window = window
        ring = [Double](repeating: 0, count: window)
    }

    /// The estimate for a fill on bar `t` (t never decreases between calls), as
    /// `CandleEstimators.spread`.
    mutating func spread(_ h: UnsafeBufferPointer<Double>, _ l: UnsafeBufferPointer<Double>,
                         _ c: UnsafeBufferPointer<Double>, before t: Int) -> Double? {
        let lo = max(0, t - window)
        guard t - lo >= 2 else { return nil }
        let first = lo + 1  // pairs first..<t
        if first >= end || t < end {
            start = first; end = first; sum = 0; added = 0
        }
        while start < first {
            sum -= ring[start % window]
            start += 1
        }
        ring.withUnsafeMutableBufferPointer { r in
            var k = end
            while k < t {
                let s = CandleEstimators.pair(h, l, c, k)
                r[k % window] = s
                sum += s
                k += 1
            }
        }
        added += t - end
        end = t
        if added >= window {
            sum = 0
            for k in start..<end { sum += ring[k % window] }
            added = 0
        }
        return max(0, sum / Double(end - start))
    }
}
