/// Numbers as text for manifests, JSON, CSV and option values.
public enum NumberText {
    /// Whole numbers below 1e15 without a fraction (`20`, not `20.0`); any other finite value in
    /// Swift's shortest round-trip form, so reading the text back gives the same Double.
    /// Non-finite values print as Swift spells them (`nan`, `inf`); callers that need `null` or
    /// an empty cell check first.
    public static func shortest(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}

extension NumberText {
    /// A fraction as a percentage for messages: `0.034` is `3.4%`, with two significant digits
    /// below 10% and none above.
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "n/a" }
        let p = fraction * 100
        if abs(p) >= 10 || p == 0 { return String(Int64(p.rounded())) + "%" }
        var digits = 1
        while abs(p) * pow10(digits) < 10 && digits < 6 { digits += 1 }
        let scale = pow10(digits)
        let rounded = (p * scale).rounded() / scale
        return shortest(rounded) + "%"
    }

    private static func pow10(_ k: Int) -> Double {
        var v = 1.0
        for _ in 0..<k { v *= 10 }
        return v
    }
}
