import BacktestAnalysis
import BacktestCore

/// Candles as read from one input file, before validation: the columns plus where each row
/// came from, so every error can name its line (or JSON key).
package struct ParsedCandles {
    /// The input file as the user named it.
    var file: String
    var series: CandleSeries
    /// 1-based source line of each row.
    var lines: [Int] = []
    /// For JSON inputs keyed by date: the key of each row (used instead of the line).
    var keys: [String] = []

    init(file: String, symbol: String = "", capacity: Int = 0) {
        self.file = file
        series = CandleSeries(symbol: symbol)
        series.reserveCapacity(capacity)
        lines.reserveCapacity(capacity)
    }

    mutating func append(line: Int, time: Int64, open: Double, high: Double, low: Double, close: Double, volume: Double) {
        series.append(time: time, open: open, high: high, low: low, close: close, volume: volume)
        lines.append(line)
    }

    /// An error at row `i`: at its line, or its key for JSON inputs keyed by date.
    func error(_ reason: String, row i: Int) -> InputError {
        if i < keys.count { return InputError(reason, file: file, key: "\"\(keys[i])\"") }
        return InputError(reason, file: file, line: lines[i])
    }

    /// "file:line" or "file: key "2024-01-02"" for row `i`.
    func location(_ i: Int) -> String {
        error("", row: i).location!
    }

    /// Volumes bt accepts are at most this large, so that sums of them (volumes aggregated into
    /// coarser bars, however many) stay finite.
    package static let largestMagnitude = 1e250

    /// The prices bt supports (open, high, low and close, in any currency or unit): positive,
    /// from 1e-12 (a token quoted in another, as SHIB/BTC near 2.5e-10, with room to spare) to
    /// 1e12 (BRK.A near 7e5, BTC in dong or rupiah near 2.5e9). Within it, ratios of two prices,
    /// the synthetic book's spread floor (tick / price), quantities (cash / price) and the y-axis
    /// labels of charts stay ordinary numbers; beyond it a spread of 1e-300 prices overflowed
    /// and a 1e200 spike made the report's chart too wide to draw. A price of 0 or below (a
    /// delisted stock's last bar, a spread that goes negative) is not a price bt can trade at.
    package static let priceRange: ClosedRange<Double> = 1e-12...1e12

    /// The supported price range as the messages write it.
    static let priceRangeText = "1e-12 to 1e12"

    /// Relative tolerance of the OHLC consistency check: a high below max(open, close), or a
    /// low above min(open, close), by at most this fraction of the price is floating-point
    /// noise (an adjusted close scaled by adj/close, a price rounded by an exporter) and is
    /// clamped to it; anything larger is refused.
    static let ohlcTolerance = 1e-9

    /// `problem`'s verdict without its words, branch-free for the store's pass over every loaded
    /// bar (`CandleStore.checkContent`): 1 when the bar is one bt accepts, else 0. For finite
    /// prices it is 1 exactly when `problem` is nil (a test holds the two equal); a NaN or
    /// infinite price is 0.
    @inline(__always)
    static func accepts(time t: Int64, open o: Double, high h: Double, low l: Double, close c: Double, volume v: Double) -> UInt8 {
        let m = largestMagnitude, lo = priceRange.lowerBound, hi = priceRange.upperBound
        // Comparisons are false for NaN, so a NaN price fails `>= lo`, and an infinite one a bound.
        var ok: UInt8 = (o >= lo ? 1 : 0) & (o <= hi ? 1 : 0) & (h >= lo ? 1 : 0) & (h <= hi ? 1 : 0)
            & (l >= lo ? 1 : 0) & (l <= hi ? 1 : 0) & (c >= lo ? 1 : 0) & (c <= hi ? 1 : 0)
        let flat: UInt8 = (o == h ? 1 : 0) & (h == l ? 1 : 0) & (l == c ? 1 : 0)
        ok &= (v >= 0 && v <= m ? 1 : 0) | ((v != v ? 1 : 0) & flat)
        let top = o > c ? o : c, bottom = o < c ? o : c
        ok &= (top - h <= ohlcTolerance * Swift.abs(top) ? 1 : 0) & (l - bottom <= ohlcTolerance * Swift.abs(bottom) ? 1 : 0)
        return ok & (t >= UTCTime.supportedRange.lowerBound ? 1 : 0) & (t <= UTCTime.supportedRange.upperBound ? 1 : 0)
    }

    /// What is wrong with one bar, or nil when bt accepts it: the time within
    /// `UTCTime.supportedRange`, prices within `priceRange`, a volume at most `largestMagnitude`
    /// and only missing (NaN) on a close-only bar, high >= max(open, close) and low <=
    /// min(open, close) up to `ohlcTolerance`, volume >= 0. The importer refuses (or skips) a bar
    /// with a problem; the store refuses to load one (`CandleStore.loadStored`), so what an
    /// import refuses never comes back from a store.
    static func problem(time t: Int64, open o: Double, high h: Double, low l: Double, close c: Double, volume v: Double) -> String? {
        let top = Swift.max(o, c), bottom = Swift.min(o, c)
        if !UTCTime.supportedRange.contains(t) {
            return "time \(UTCTime.describe(t)) is outside the supported range 1970-01-01 to 9999-12-31"
        } else if let price = pricesOutOfRange(open: o, high: h, low: l, close: c) {
            return price
        } else if Swift.abs(v) > largestMagnitude || v.isInfinite {
            return "volume \(v) is beyond ±1e250 (sums of it could overflow)"
        } else if v.isNaN && !(o == h && h == l && l == c) {
            return "missing volume"
        }
        if h < top && top - h > ohlcTolerance * Swift.abs(top) { return "high \(h) is below max(open, close) \(top)" }
        if l > bottom && l - bottom > ohlcTolerance * Swift.abs(bottom) { return "low \(l) is above min(open, close) \(bottom)" }
        if v < 0 { return "negative volume \(v)" }
        return nil
    }

    /// The first price of a bar outside `priceRange`, worded with the range; nil when all four
    /// are within it.
    static func pricesOutOfRange(open o: Double, high h: Double, low l: Double, close c: Double) -> String? {
        for (name, value) in [("open", o), ("high", h), ("low", l), ("close", c)] where !priceRange.contains(value) {
            let shown = NumberText.shortest(value)
            if value.isNaN || value.isInfinite { return "\(name) \(shown) is not a price" }
            if value <= 0 {
                return "\(name) \(shown) is not a price bt supports: prices are positive, from \(priceRangeText) "
                    + "(a delisted symbol's series ends at its last traded bar)"
            }
            return "\(name) \(shown) is outside the supported price range, \(priceRangeText)"
        }
        return nil
    }

    /// Checks every row (time within `UTCTime.supportedRange`, prices within `priceRange`,
    /// volumes at most `largestMagnitude`, high >= max(open, close) and low <= min(open, close)
    /// up to `ohlcTolerance`, volume >= 0 or NaN for a close-only bar), sorts by time (stable),
    /// merges identical duplicate rows and refuses duplicates that differ. Prices are already
    /// known to be finite. With `skipBadRows`, rows failing a check are left out and listed
    /// instead (conflicting duplicates are still refused).
    /// - Throws: `InputError` naming the row's line or key.
    /// - Complexity: O(n) when already sorted, else O(n log n).
    func validated(skipBadRows: Bool = false) throws -> (series: CandleSeries, skipped: SkippedRows) {
        var s = series
        var skipped = SkippedRows()
        guard !s.isEmpty else { throw InputError("no data rows", at: file) }
        var bad: [Int] = []
        var clamped: [(row: Int, high: Double, low: Double)] = []
        var sorted = true
        let (ts, os, hs, ls, cs, vs) = (s.time, s.open, s.high, s.low, s.close, s.volume)
        try ts.withUnsafeBufferPointer { ts in
        try os.withUnsafeBufferPointer { os in
        try hs.withUnsafeBufferPointer { hs in
        try ls.withUnsafeBufferPointer { ls in
        try cs.withUnsafeBufferPointer { cs in
        try vs.withUnsafeBufferPointer { vs in
        for i in 0..<ts.count {
            let t = ts[i], o = os[i], c = cs[i], v = vs[i]
            var h = hs[i], l = ls[i]
            let problem = Self.problem(time: t, open: o, high: h, low: l, close: c, volume: v)
            if problem == nil {
                // Within the tolerance: floating-point noise, clamped.
                h = Swift.max(h, Swift.max(o, c))
                l = Swift.min(l, Swift.min(o, c))
            }
            if let problem {
                guard skipBadRows else { throw error(problem, row: i) }
                bad.append(i)
                skipped.add(i < lines.count ? lines[i] : i + 1, problem)
                continue
            }
            if h != hs[i] || l != ls[i] { clamped.append((i, h, l)) }
            if i > 0 && t <= ts[i - 1] { sorted = false }
        }
        }}}}}}
        for c in clamped {
            s.high[c.row] = c.high
            s.low[c.row] = c.low
        }
        if !bad.isEmpty {
            guard bad.count < s.count else {
                throw InputError("every data row is bad (\(skipped.summary))", at: file)
            }
            var keep = CandleSeries(symbol: s.symbol, timeframe: s.timeframe)
            var rows: [Int] = []
            var k = 0
            for i in 0..<s.count {
                if k < bad.count && bad[k] == i { k += 1; continue }
                keep.append(time: s.time[i], open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i], volume: s.volume[i])
                rows.append(i)
            }
            var rest = self
            rest.series = keep
            rest.lines = rows.map { $0 < lines.count ? lines[$0] : 0 }
            rest.keys = keys.isEmpty ? [] : rows.map { keys[$0] }
            let (out, _) = try rest.validated()
            return (out, skipped)
        }
        return (try ordered(s, sorted: sorted), skipped)
    }

    /// How the refusal of two rows with one time and different values begins (`ImportFixes`
    /// recognises it).
    static let duplicateReason = "duplicate time "

    /// `s` sorted by time with identical duplicates merged.
    private func ordered(_ s: CandleSeries, sorted: Bool) throws -> CandleSeries {
        if sorted { return s }
        let order = (0..<s.count).sorted { s.time[$0] != s.time[$1] ? s.time[$0] < s.time[$1] : $0 < $1 }
        var out = CandleSeries(symbol: s.symbol, timeframe: s.timeframe)
        out.reserveCapacity(s.count)
        var previous = -1
        for i in order {
            if previous >= 0 && s.time[i] == s.time[previous] {
                let same = s.open[i] == s.open[previous] && s.high[i] == s.high[previous]
                    && s.low[i] == s.low[previous] && s.close[i] == s.close[previous]
                    && s.volume[i].bitPattern == s.volume[previous].bitPattern
                if same { continue }
                let first = Swift.min(i, previous), second = Swift.max(i, previous)
                throw error(Self.duplicateReason + "\(UTCTime.iso(s.time[i])) with values different from \(location(first))",
                            row: second)
            }
            out.append(time: s.time[i], open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i], volume: s.volume[i])
            previous = i
        }
        return out
    }
}
