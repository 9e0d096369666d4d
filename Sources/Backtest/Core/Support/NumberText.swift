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
