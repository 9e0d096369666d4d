/// The bars of a run where a series its rules read with `@` (`close@SPY`, `sma(close, 50)@1d`)
/// had no bar closed yet, or only one older than it may be carried (`OtherSeries`): the value
/// was NaN there and the rules reading it were false.
public struct UnalignedBars: Sendable, Equatable {
    /// `SPY@1d`.
    public var series: String
    /// Whether the series is another symbol's, whose values go stale (`--max-stale`).
    public var canBeStale: Bool
    /// Indices of the bars, ascending.
    public var bars: [Int]

    public init(series: String, canBeStale: Bool, bars: [Int]) {
        self.series = series
        self.canBeStale = canBeStale
        self.bars = bars
    }

    /// The bars in `range`, counted from its start.
    func slice(_ range: Range<Int>) -> UnalignedBars {
        UnalignedBars(series: series, canBeStale: canBeStale,
                      bars: bars.filter(range.contains).map { $0 - range.lowerBound })
    }

    /// What a run says about them: `412 bars had no closed SPY@1d bar: ...`; nil for none.
    package var warning: RunWarning? {
        guard !bars.isEmpty else { return nil }
        let k = bars.count
        return RunWarning(.noClosedBar, "\(k) bar\(k == 1 ? "" : "s") had \(noClosedBar): "
                          + "the rules reading it were false there (no entries)")
    }

    /// `no closed SPY@1d bar`, with why for a series that goes stale.
    package var noClosedBar: String {
        "no closed \(series) bar" + (canBeStale ? " (none yet, or its last one was older than its bar length or --max-stale)" : "")
    }
}
