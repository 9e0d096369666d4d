import Foundation

/// Numbers as text for manifests, JSON, CSV and option values.
package enum NumberText {
    /// Whole numbers below 1e15 without a fraction (`20`, not `20.0`); any other finite value in
    /// Swift's shortest round-trip form, so reading the text back gives the same Double.
    /// Non-finite values print as Swift spells them (`nan`, `inf`); callers that need `null` or
    /// an empty cell check first.
    package static func shortest(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}

extension NumberText {
    /// A fraction as a percentage for messages: `0.034` is `3.4%`, with two significant digits
    /// below 10% and none above.
    package static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "n/a" }
        let p = fraction * 100
        if abs(p) >= 10 || p == 0 { return String(Int64(p.rounded())) + "%" }
        var digits = 1
        while abs(p) * pow10(digits) < 10 && digits < 6 { digits += 1 }
        let scale = pow10(digits)
        let rounded = (p * scale).rounded() / scale
        return shortest(rounded) + "%"
    }

    /// `v` rounded to 12 significant digits, the value `Double(String(format: "%.12g", v))`
    /// gives (so 0.1 + 0.2 is 0.3), without formatting text for each value (a million-value
    /// grid axis took over 10 s under ASan that way): m = round(v x 10^k) with
    /// 10^11 <= |m| < 10^12 is exact, and m / 10^k is the correctly rounded double of that
    /// decimal. When v x 10^k lies within 1e-6 of a rounding tie, or 10^k is not exact, the
    /// text path decides.
    package static func twelveSignificantDigits(_ v: Double) -> Double {
        guard v != 0, v.isFinite else { return v }
        let k = 11 - Int((log10(Swift.abs(v))).rounded(.down))
        guard (0...22).contains(k) else { return Double(String(format: "%.12g", v))! }
        let scale = pow10(k)
        let scaled = v * scale
        let fraction = Swift.abs(scaled - scaled.rounded(.towardZero))
        guard Swift.abs(fraction - 0.5) > 1e-6, Swift.abs(scaled.rounded()) < 1e12 else {
            return Double(String(format: "%.12g", v))!
        }
        return scaled.rounded() / scale
    }

    /// 10^k by repeated multiplication: exact for k <= 22.
    private static func pow10(_ k: Int) -> Double {
        var v = 1.0
        for _ in 0..<k { v *= 10 }
        return v
    }
}
