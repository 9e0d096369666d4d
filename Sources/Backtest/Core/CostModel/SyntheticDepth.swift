/// The model book a fill meets when no recorded depth is used (`--depth synthetic`).
///
/// Everything for a fill on bar t comes from bars before t (and the fill's reference price P):
/// no look-ahead in the cost model either. Two books:
///
/// **Candle-only (the default).** Spread s: `spreadBps` when set, else the Corwin-Schultz (2012)
/// estimate with the overnight adjustment, averaged signed over the `spreadWindow` (250) bars
/// before t (`CandleEstimators.spreadSample`), bounded by the volume relation 8 (σ² / D)^{1/3}
/// of the `impactWindow` bars and shrunk toward it by its standard error (`SpreadEstimate`;
/// `volumeRelation` false: clipped at 0 alone), floored at one tick (tick / P) when `tick` is
/// known. Impact: the square-root law beyond a touch (Almgren et al. 2005; Tóth et
/// al. 2011; Bouchaud et al. 2018; the linear-to-square-root crossover of Bucci et al. 2019): with
/// σ the volatility and V the mean volume of the `impactWindow` (20) bars before t, the touch at
/// P(1 ± s/2) holds q_touch = V · `touchSeconds` / bar seconds (a minute's worth of average
/// volume by default), and an order of Q > q_touch units pays on average
/// `s/2 + Y σ (Q − q_touch)^{3/2} / (Q √V)` (Y = `impact`, 0.3), which tends to s/2 + Y σ √(Q/V);
/// the book is continuous and never runs dry (`DepthCurve.squareRoot`). Zero or missing volume
/// (V = 0) turns impact off: fills pay the half spread only.
///
/// **Calibrated profile.** With `bidDepth` and `askDepth` (from `bt calibrate`, a profile file or
/// the command line) a buy walks Q(x) = a x^b of the ask side and a sell the bid side
/// (`DepthCurve.powerLaw`), around a half spread of `spreadBps / 2` (the profile's median spread
/// unless overridden).
///
/// **Depletion.** Units a fill takes stay missing from that side and refill with a half-life of
/// `refillHalfLifeSeconds` (the profile's, else 60 s) of wall-clock time between fills:
/// T(t₁) = T(t₀) · 2^{−(t₁ − t₀)/half-life}. A later order starts where the earlier one stopped.
public struct SyntheticDepth: Sendable, Equatable {
    /// Fixed spread in basis points; nil estimates it from the bars.
    public var spreadBps: Double?
    /// Bars before the fill for the Corwin-Schultz average.
    public var spreadWindow = 250
    /// Bound the bars' spread by the volume relation and shrink it toward it (`SpreadEstimate`);
    /// false takes the Corwin-Schultz mean clipped at 0 alone.
    public var volumeRelation = true
    /// Price increment for the spread floor (one tick); nil: no floor.
    public var tick: Double?
    /// Where `tick` came from (`given`, `profile`, `inferred`), for manifests.
    public var tickSource: String?
    /// Y of the square-root law.
    public var impact = 0.3
    /// Seconds of average volume resting at the touch.
    public var touchSeconds = 60.0
    /// Bars before the fill for σ and V.
    public var impactWindow = 20
    /// Calibrated power-law sides; both set selects the profile book.
    public var bidDepth: DepthProfile.PowerLaw?
    public var askDepth: DepthProfile.PowerLaw?
    /// Refill half-life of taken depth in seconds; nil takes `defaultRefillHalfLifeSeconds`.
    public var refillHalfLifeSeconds: Double?
    /// Where the power-law book came from (a stored profile, a file), for manifests.
    public var profileSource: String?
    /// Multiplies every distance of the book (the cost-sensitivity table's depth multiplier).
    public var costScale = 1.0

    /// Refill half-life when neither a profile nor the caller gives one.
    public static let defaultRefillHalfLifeSeconds = 60.0

    public init(spreadBps: Double? = nil) { self.spreadBps = spreadBps }

    /// True when a buy walks a calibrated power law rather than the square-root book.
    public var usesProfile: Bool { bidDepth != nil && askDepth != nil }

    /// Takes the engine's parameters from `profile`: power laws, spread, refill half-life and
    /// tick (the tick only when none is set yet, or the current one was inferred).
    public mutating func use(_ profile: DepthProfile, source: String) {
        bidDepth = profile.bid
        askDepth = profile.ask
        spreadBps = profile.spreadBps
        refillHalfLifeSeconds = profile.refillHalfLifeSeconds
        profileSource = source
        if let t = profile.tick, tick == nil || tickSource == "inferred" {
            tick = t
            tickSource = "profile"
        }
    }

    /// The refill half-life used, in seconds.
    public var refillSeconds: Double { refillHalfLifeSeconds ?? Self.defaultRefillHalfLifeSeconds }

    /// Throws `InputError` naming the setting when a knob is out of range.
    func validate() throws {
        func check(_ ok: Bool, _ setting: Setting, _ value: Double?, _ why: String) throws {
            guard !ok else { return }
            throw InputError(why, setting: setting, value: value.map(NumberText.shortest))
        }
        try check(spreadBps.map { $0 >= 0 && $0 < 10_000 } ?? true, .spreadBps, spreadBps,
                  "spread must be in [0, 10000) basis points")
        try check(spreadWindow >= 2, .spreadWindow, Double(spreadWindow), "spread window must be at least 2 bars")
        try check(impactWindow >= 2, .impactWindow, Double(impactWindow), "impact window must be at least 2 bars")
        try check(impact >= 0 && impact.isFinite, .impact, impact, "impact must be a finite number >= 0")
        try check(touchSeconds >= 0 && touchSeconds.isFinite, .touchSeconds, touchSeconds,
                  "touch must be a finite number of seconds >= 0")
        try check(refillHalfLifeSeconds.map { $0 >= 0 && $0.isFinite } ?? true, .refillSeconds, refillHalfLifeSeconds,
                  "refill half-life must be a finite number of seconds >= 0")
        for (side, setting) in [(bidDepth, Setting.bidDepth), (askDepth, .askDepth)] {
            if let p = side {
                try check(p.a > 0 && p.a.isFinite && p.b > 0 && p.b.isFinite, setting, nil,
                          "depth needs A > 0 and b > 0 (Q(x) = A x^b)")
            }
        }
        if (bidDepth == nil) != (askDepth == nil) {
            throw InputError(.needsSetting, "a calibrated book needs both sides' depth",
                             setting: bidDepth == nil ? .bidDepth : .askDepth)
        }
    }

    // MARK: - The book of one fill

    /// The candle estimates for a fill on bar t, from bars before t.
    public struct Estimates: Sendable, Equatable {
        /// The Corwin-Schultz pairs of the spread window (signed mean, standard error); nil with
        /// fewer than two bars before t, or when the spread is given.
        public var bars: CandleEstimators.SpreadSample?
        /// Per-bar volatility; nil with fewer than two returns.
        public var sigma: Double?
        /// Mean volume; nil with no bar before t.
        public var volume: Double?
        /// Mean dollar volume (close × volume) of the impact window; nil with no bar before t.
        public var dollarVolume: Double?
        public init(bars: CandleEstimators.SpreadSample?, sigma: Double?, volume: Double?, dollarVolume: Double? = nil) {
            self.bars = bars; self.sigma = sigma; self.volume = volume; self.dollarVolume = dollarVolume
        }

        /// The bars' spread alone: their signed mean clipped at 0 (before the relation and the tick).
        public var spread: Double? { bars.map { max(0, $0.mean) } }
    }

    /// The estimates for a fill on bar `t`, computed directly (the reference for the engine's
    /// incremental sums).
    /// - Complexity: O(spreadWindow + impactWindow).
    public func estimates(_ candles: CandleSeries, at t: Int) -> Estimates {
        Estimates(bars: spreadBps == nil ? CandleEstimators.spreadSample(candles, before: t, window: spreadWindow) : nil,
                  sigma: CandleEstimators.volatility(candles.close, before: t, window: impactWindow),
                  volume: CandleEstimators.meanVolume(candles.volume, before: t, window: impactWindow),
                  dollarVolume: CandleEstimators.meanDollarVolume(candles, before: t, window: impactWindow))
    }

    /// The impact window of a fill on bar `bar` as the engine reads it: the mean volume, the
    /// mean dollar volume (for an estimated spread bounded by the volume relation) and σ when it
    /// came with them (`CandleEstimators.impactWindow`): `.some` holds the computed σ, itself
    /// nil when undefined; nil when the window lies within the series' start (the caller
    /// computes σ alone if it needs it).
    func impactWindow(_ candles: CandleSeries, before bar: Int) -> (volume: Double?, dollars: Double?, sigma: Double??) {
        candles.close.withUnsafeBufferPointer { close in
            candles.volume.withUnsafeBufferPointer { volume in
                if spreadBps == nil && volumeRelation {
                    if let w = CandleEstimators.impactWindow(close, volume, before: bar, window: impactWindow) {
                        return (w.volume, w.dollars, .some(w.sigma))
                    }
                    let means = CandleEstimators.meanVolumes(close, volume, before: bar, window: impactWindow)
                    return (means.volume, means.dollars, nil)
                }
                return (CandleEstimators.meanVolume(volume, before: bar, window: impactWindow), nil, nil)
            }
        }
    }

    /// The estimated spread of a fill with these estimates at `reference` and where it came from
    /// (`SpreadEstimate`); nil when the spread is given (`spreadBps`). The relation needs σ and
    /// the dollar volume.
    @inline(__always)
    public func spreadEstimate(_ e: Estimates, reference p: Double) -> SpreadEstimate? {
        guard spreadBps == nil else { return nil }
        var relation: Double?
        if volumeRelation, let sigma = e.sigma, let d = e.dollarVolume {
            relation = CandleEstimators.volumeRelationSpread(sigma: sigma, dollarVolume: d)
        }
        let floor = tick.map { p > 0 ? $0 / p : 0 } ?? 0
        return SpreadEstimate(bars: e.bars, relation: relation, floor: floor.isFinite ? floor : 0)
    }

    /// The half spread (a fraction of `reference`) for a fill with these estimates.
    public func halfSpread(_ e: Estimates, reference p: Double) -> Double {
        if let spreadBps { return spreadBps / 20_000 }
        return (spreadEstimate(e, reference: p)?.spread ?? 0) / 2
    }

    /// The side of the model book a market order on `side` walks (asks for a buy).
    /// - Parameter barSeconds: the bar length, for the touch's share of average volume.
    public func curve(_ side: OrderSide, estimates e: Estimates, reference p: Double, barSeconds: Double) -> DepthCurve {
        curve(side, estimates: e, halfSpread: halfSpread(e, reference: p), barSeconds: barSeconds)
    }

    /// The same side around a half spread `h` already computed (the engine's, from its
    /// `spreadEstimate`).
    func curve(_ side: OrderSide, estimates e: Estimates, halfSpread h: Double, barSeconds: Double) -> DepthCurve {
        if let bid = bidDepth, let ask = askDepth {
            let law = side == .buy ? ask : bid
            return .powerLaw(a: law.a, b: law.b, halfSpread: h, scale: costScale)
        }
        guard let v = e.volume, v > 0, v.isFinite, let sigma = e.sigma, impact > 0 else {
            return DepthCurve(halfSpread: h, touchQuantity: .infinity, shape: .flat, scale: costScale)
        }
        return DepthCurve(halfSpread: h, touchQuantity: v * touchSeconds / max(barSeconds, 1e-9),
                          shape: .squareRoot(coefficient: 1.5 * impact * sigma, volume: v), scale: costScale)
    }

    /// The book a market order on `side` meets on bar `t` of `candles` at `reference`.
    public func curve(_ side: OrderSide, candles: CandleSeries, at t: Int, reference: Double) -> DepthCurve {
        curve(side, estimates: estimates(candles, at: t), reference: reference, barSeconds: Self.barSeconds(candles))
    }

    /// The bar length in seconds: the timeframe's, else the median spacing of the first bars
    /// (60 with fewer than two bars).
    public static func barSeconds(_ candles: CandleSeries) -> Double {
        if let tf = candles.timeframe { return Double(tf.seconds) }
        let n = min(candles.count, 1001)
        guard n >= 2 else { return 60 }
        let gaps = (1..<n).map { candles.time[$0] - candles.time[$0 - 1] }.sorted()
        return Double(max(1, gaps[gaps.count / 2]))
    }
}
