import BacktestCore

/// Numbers that come over the network (JSON fields, headers), read into a checked range before
/// any conversion or arithmetic: a server may send 1e300, 2^63 or -1e19 anywhere a count is
/// expected, and such a value must be refused with its field's name, never trap.
///
/// Every range stays within ±2^53, where a `Double` holds whole numbers exactly, so the bounds
/// compare exactly and the conversion to `Int64` cannot overflow.
package enum NetworkNumber {
    /// The largest bound a range may have (2^53).
    static let exactLimit: Int64 = 1 << 53

    /// `value` as a whole number in `range`.
    /// - Throws: `InputError` naming `field` when `value` is not a whole number in `range`.
    package static func integer(_ value: Double, _ field: String, in range: ClosedRange<Int64>) throws -> Int64 {
        precondition(range.lowerBound >= -exactLimit && range.upperBound <= exactLimit, "ranges stay within ±2^53")
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw refusal(field, NumberText.shortest(value), range)
        }
        return Int64(value)
    }

    /// `text` (surrounding spaces allowed, as in a header) as a whole decimal number in `range`.
    /// - Throws: `InputError` naming `field` when it is not one.
    package static func integer(_ text: String, _ field: String, in range: ClosedRange<Int64>) throws -> Int64 {
        precondition(range.lowerBound >= -exactLimit && range.upperBound <= exactLimit, "ranges stay within ±2^53")
        let trimmed = text.trimmingSpaces
        guard let value = Int64(trimmed), range.contains(value) else { throw refusal(field, Excerpt.quoted(trimmed), range) }
        return value
    }

    /// `Retry-After` as seconds: a finite, non-negative number (Binance sends whole seconds;
    /// how long may be waited is the policy's `maxWaitSeconds`, at most a week). The HTTP date
    /// form is not used by these services and is ignored (nil: the backoff applies).
    package static func retryAfter(_ text: String?) -> Double? {
        guard let text, let v = Double(text.trimmingSpaces), v.isFinite, v >= 0 else { return nil }
        return v
    }

    private static func refusal(_ field: String, _ shown: String, _ range: ClosedRange<Int64>) -> InputError {
        InputError("\(field) \(shown) is not a whole number in \(range.lowerBound)...\(range.upperBound)")
    }
}
