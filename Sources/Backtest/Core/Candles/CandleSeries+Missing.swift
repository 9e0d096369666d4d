extension CandleSeries {
    /// The first close-only bar: a known close, open = high = low = close and a missing (NaN)
    /// volume. nil when there is none (a bar that is NaN throughout is a gap, not close-only).
    public var firstMissingVolume: Int? {
        (0..<count).first { (i: Int) -> Bool in
            let c: Double = close[i]
            return volume[i].isNaN && c.isFinite && open[i] == c && high[i] == low[i] && high[i] == c
        }
    }

    /// True when some bar has a range (high above low). A close-only series (imported from
    /// closes alone: open = high = low = close) has none, so nothing may be read from its range.
    public var hasRange: Bool {
        for i in 0..<count where high[i] != low[i] { return true }
        return false
    }

    /// Refuses, for `what`, a series without the range or volume it needs, instead of computing
    /// from invented values.
    /// - Throws: `InputError` saying what is missing.
    public func require(range: Bool, volume needsVolume: Bool, for what: String) throws {
        let name = symbol.isEmpty ? "the series" : symbol
        if range && count > 1 && !hasRange {
            throw InputError("\(what) needs each bar's high and low, but \(name) is close-only (every bar has open = high = "
                                 + "low = close); import OHLC data for it")
        }
        if needsVolume, let i = firstMissingVolume {
            throw InputError("\(what) needs volume, but \(name) has none from \(UTCTime.iso(time[i])) (close-only data); "
                                 + "import data with volume for it")
        }
    }
}
