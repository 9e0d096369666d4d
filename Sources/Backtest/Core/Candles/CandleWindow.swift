/// The bars of a run restricted to a window of time (`--from`/`--to`): the series from its first
/// bar through the window's last, and where the window starts.
///
/// Signals, ranks and order expressions are computed on all of `series`, so indicators keep the
/// warm-up of the bars before the window (a 30-bar average on the window's first bar reads the
/// 29 bars before it); trades and statistics cover `candles` only, starting flat. Nothing after
/// the window's last bar is in `series`, so nothing after it is read.
public struct CandleWindow: Sendable {
    /// Every bar read: the warm-up before the window, then the window.
    public let series: CandleSeries
    /// Index of the window's first bar in `series` (the number of warm-up bars).
    public let start: Int
    /// The window's bars: what is traded and measured.
    public let candles: CandleSeries
    /// The bars of `series` that look like a split left in raw prices (`LikelySplit.find`),
    /// found by whoever read the series knowing whether it holds adjusted prices (the store's
    /// `loadWindow`); a run warns about them. Empty: none, or not looked for.
    public var likelySplits: [LikelySplit] = []

    /// The window of `series` from bar `start` (0: all of it, no warm-up).
    public init(_ series: CandleSeries, start: Int = 0) {
        precondition(start >= 0 && (start < series.count || start == 0), "the window must hold a bar of the series")
        self.series = series
        self.start = start
        candles = start == 0 ? series : series.slice(start..<series.count)
    }

    /// The window's bars as indexes of `series`.
    public var range: Range<Int> { start..<series.count }
}
