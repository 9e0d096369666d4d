extension Int {
    /// The bar `count` bars after this one, or `Int.max` (a bar no series reaches) when the sum
    /// does not fit: counts come from users (`--exit-after 9223372036854775807`), and a count
    /// beyond the series means "not within it". `count` is >= 0 (settings are validated >= 1).
    func barsLater(_ count: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(count)
        return overflow ? .max : sum
    }
}
