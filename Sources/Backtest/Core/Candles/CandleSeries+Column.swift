extension CandleSeries {
    /// One of the price and volume columns.
    public enum Column: String, Sendable, Hashable, CaseIterable {
        case open, high, low, close, volume
    }

    /// The values of `column`, one per bar.
    public subscript(column: Column) -> [Double] {
        switch column {
        case .open: open
        case .high: high
        case .low: low
        case .close: close
        case .volume: volume
        }
    }
}
