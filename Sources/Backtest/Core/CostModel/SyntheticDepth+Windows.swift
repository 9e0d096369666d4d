extension SyntheticDepth {
    /// The windows of the synthetic book a front end may set in bars.
    package enum Window: Sendable, Hashable {
        /// `spreadWindow`: the bars the spread is averaged over.
        case spread
        /// `impactWindow`: the bars volatility and volume are taken from.
        case impact
    }

    private static let warned = Locked(Set<Window>())

    /// The warning that `window` bars of `kind` (the setting named `name` by the front end) is
    /// longer than `candles`, and so is clamped to them (the engine's window is then the whole
    /// series: each fill uses every bar before it, as a window of the series' length would);
    /// nil when it is not, or when it was said already in this process (screens and sweeps read
    /// the settings from parallel jobs: said once, naming the first series it was longer than).
    package static func longWindowWarning(_ kind: Window, name: String, window: Int, candles: CandleSeries) -> String? {
        guard !candles.isEmpty, window > candles.count, warned.withLock({ $0.insert(kind).inserted }) else { return nil }
        let uses = kind == .spread ? "averages the spread over all the bars before it" : "takes volatility and volume from all the bars before it"
        return "warning: \(name) \(window) is longer than the series (\(candles.symbol): \(candles.count) bars): "
            + "it is clamped to the series, so each fill \(uses)"
    }
}
