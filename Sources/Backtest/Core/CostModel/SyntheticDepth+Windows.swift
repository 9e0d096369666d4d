extension SyntheticDepth {
    /// The windows of the synthetic book a front end may set in bars.
    package enum Window: Sendable, Hashable {
        /// `spreadWindow`: the bars the spread is averaged over.
        case spread
        /// `impactWindow`: the bars volatility and volume are taken from.
        case impact
    }

    /// The warning that `window` bars of `kind` is longer than `candles`, and so is clamped to
    /// them (the engine's window is then the whole series: each fill uses every bar before it,
    /// as a window of the series' length would); nil when it is not. A front end running many
    /// series (screens, sweeps) says it once.
    package static func longWindowWarning(_ kind: Window, window: Int, candles: CandleSeries) -> ExecutionWarning? {
        guard !candles.isEmpty, window > candles.count else { return nil }
        let uses = kind == .spread ? "averages the spread over all the bars before it" : "takes volatility and volume from all the bars before it"
        return ExecutionWarning(setting: kind == .spread ? .spreadWindow : .impactWindow, value: String(window),
                                reason: "is longer than the series (\(candles.symbol): \(candles.count) bars): "
                                    + "it is clamped to the series, so each fill \(uses)")
    }
}
