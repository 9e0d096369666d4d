extension CandleWindow {
    /// The window `bt run --from FROM --to TO` trades in `series`, for bars a caller already
    /// holds (the store's `loadWindow` reads them so): nothing after `to` is kept, the window
    /// starts at the first bar at or after `from`, and the bars before it are its warm-up. The
    /// texts are read as the command line reads them (`UTCTime.parseUserDate`; a bare date as
    /// `to` includes that whole day); nil is open.
    /// - Throws: `InputError` naming `.from` or `.to` for a text that is no date, a `to` before
    ///   the first bar, a `from` after the last bar kept (the window would be empty).
    public init(_ series: CandleSeries, from: String?, to: String?) throws {
        let first = try from.map { try UTCTime.parseUserDate($0, setting: .from) }
        let last = try to.map { try UTCTime.parseUserEnd($0, setting: .to) }
        guard let firstTime = series.time.first, let lastTime = series.time.last else {
            throw InputError("the series has no bars to trade", setting: from != nil ? .from : .to, value: from ?? to)
        }
        let end = last.map { series.lowerBound(of: $0 &+ 1) } ?? series.count
        guard end > 0 else {
            throw InputError("before the first bar (\(UTCTime.iso(firstTime))): the window holds no bar", setting: .to, value: to)
        }
        let start = first.map(series.lowerBound(of:)) ?? 0
        guard start < end else {
            let bound = end == series.count ? "after the last bar (\(UTCTime.iso(lastTime)))"
                : "after \(Setting.to.mention)'s last bar (\(UTCTime.iso(series.time[end - 1])))"
            throw InputError("\(bound): the window holds no bar", setting: .from, value: from)
        }
        self.init(end == series.count ? series : series.slice(0..<end), start: start)
    }
}
