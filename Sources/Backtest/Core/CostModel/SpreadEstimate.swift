/// The spread the candle-only synthetic book quoted for one fill, and where it came from.
///
/// Two estimates of the full spread s, both from bars before the fill:
///
/// - **bars**: the Corwin-Schultz (2012) pairs of the `spreadWindow` bars, averaged signed, with
///   the standard error of that mean (`CandleEstimators.SpreadSample`);
/// - **relation**: the volume relation r = 8 (σ² / D)^{1/3} (Kyle and Obizhaeva 2016; Fong,
///   Holden and Tobek 2018), σ the volatility and D the mean dollar volume of the
///   `impactWindow` bars (`CandleEstimators.volumeRelationSpread`).
///
/// High-low estimators overstate the spread where it is small against the volatility (liquid
/// stocks: Corwin and Schultz 2012; Abdi and Ranaldo 2017; Ardia, Guidotti and Kroencke 2024),
/// and that bias does not average away (MSFT's daily bars 2000-2013 give 18 bps over 250 bars
/// against one-cent spreads of about 4 bps). The relation can only be too wide where the volume
/// is a slice of the market's (one venue of many, FX tick volume, contracts counted as units),
/// so it bounds the bars' estimate from above and never raises it past what the bars measure
/// precisely:
///
/// - bars' mean m >= r: s = r (**bounded**);
/// - otherwise s = w max(0, m) + (1 − w) r, with w = τ² / (τ² + se²) the weight of the bars and
///   τ = r the relation's own uncertainty (**shrunk**: a noisy mean moves toward the relation, a
///   precise one stays; a spread is never negative, so a negative mean counts as 0);
/// - no relation (no volume or fewer than two returns): s = max(0, m);
/// - then the tick floor: s >= tick / P.
///
/// The standard error of s is τ se / √(τ² + se²) when shrunk, τ when bounded, se alone without
/// a relation.
public struct SpreadEstimate: Sendable, Equatable {
    /// What decided a fill's spread.
    public enum Source: String, Sendable, CaseIterable {
        /// The bars' Corwin-Schultz mean (weight w >= 1/2 and below the relation).
        case bars
        /// The volume relation (it bounded the bars' mean, or the bars' weight was below 1/2).
        case relation
        /// One tick: both estimates were narrower.
        case tick
    }

    /// The full spread quoted (a fraction), tick floor included.
    public var spread: Double
    /// Standard error of the estimate before the tick floor (a fraction); infinity when unknown.
    public var standardError: Double
    public var source: Source
    /// The bars' signed Corwin-Schultz mean and its standard error; nil with fewer than two bars.
    public var bars: CandleEstimators.SpreadSample?
    /// The volume relation's spread; nil without volume or volatility.
    public var relation: Double?
    /// The bars' weight in the estimate (0: the relation alone; 1: the bars alone).
    public var barsWeight: Double

    public init(spread: Double, standardError: Double, source: Source, bars: CandleEstimators.SpreadSample?,
                relation: Double?, barsWeight: Double) {
        self.spread = spread; self.standardError = standardError; self.source = source
        self.bars = bars; self.relation = relation; self.barsWeight = barsWeight
    }

    /// The estimate from the bars' sample and the relation, floored at `floor` (tick / P, or 0).
    @inline(__always)
    public init(bars: CandleEstimators.SpreadSample?, relation: Double?, floor: Double) {
        self.bars = bars
        self.relation = relation
        var s: Double, se: Double, w: Double
        switch (bars, relation) {
        case (let b?, let r?) where b.mean >= r:
            (s, se, w) = (r, r, 0)
        case (let b?, let r?):
            let tau2 = r * r, e2 = b.standardError * b.standardError
            // A sample with no spread between its pairs (flat bars) is exact.
            w = e2 == 0 ? 1 : e2.isFinite ? tau2 / (tau2 + e2) : 0
            s = w * max(0, b.mean) + (1 - w) * r
            se = e2 == 0 ? 0 : e2.isFinite ? (tau2 * e2 / (tau2 + e2)).squareRoot() : r
        case (let b?, nil):
            (s, se, w) = (max(0, b.mean), b.standardError, 1)
        case (nil, let r?):
            (s, se, w) = (r, r, 0)
        case (nil, nil):
            (s, se, w) = (0, .infinity, 0)
        }
        barsWeight = w
        standardError = se
        if floor > s {
            spread = floor
            source = .tick
        } else {
            spread = s
            source = w >= 0.5 ? .bars : .relation
        }
    }
}

/// Where a run's spread came from and how sure it is, over its fills (`BacktestResult.spreadEstimate`).
/// An estimated spread keeps each fill's `SpreadEstimate`; the medians are computed when read
/// (reports), so a run, a sweep or a cost table pays only for recording them.
public struct SpreadSummary: Sendable, Equatable {
    /// How the spread was set.
    public enum Method: String, Sendable {
        /// Estimated from the bars before each fill (`SpreadEstimate`).
        case estimated
        /// Fixed by the caller (`SyntheticDepth.spreadBps`).
        case given
        /// A calibrated depth profile's median spread.
        case profile
        /// Fixed slippage, all of it counted as spread.
        case fixed
        /// The recorded book's own touch.
        case recorded
        /// No depth: no spread.
        case none
    }

    public var method: Method
    /// Fills the summary covers (estimated: the model fills that read an estimate).
    public var fills: Int
    /// `estimated`: each fill's estimate, in order of the fills.
    public var estimates: [SpreadEstimate]
    /// The spread of the other methods in bps (the fixed slippage's twice the slippage).
    private var setBps: Double?

    public init(method: Method, fills: Int, spreadBps: Double?) {
        self.method = method; self.fills = fills; setBps = spreadBps; estimates = []
    }

    /// The summary of the fills' estimates (method `estimated`).
    public init(estimates: [SpreadEstimate]) {
        method = .estimated
        fills = estimates.count
        self.estimates = estimates
    }

    /// The spread in basis points: for `estimated` the median over the fills, else the given or
    /// profile's one, twice the fixed slippage; nil for `recorded` and `none`.
    /// - Complexity: O(n log n) in the fills for `estimated`.
    public var spreadBps: Double? { method == .estimated ? Self.median(estimates.map { $0.spread * 10_000 }) : setBps }

    /// `estimated` only (nil otherwise or where no fill had one): the median standard error of the
    /// fills' estimates, the medians of the bars' Corwin-Schultz mean and its standard error, of
    /// the relation and of the bars' weight, all in bps but the weight.
    public var standardErrorBps: Double? { Self.median(estimates.map { $0.standardError * 10_000 }) }
    public var barsBps: Double? { Self.median(estimates.compactMap { $0.bars.map { $0.mean * 10_000 } }) }
    public var barsStandardErrorBps: Double? { Self.median(estimates.compactMap { $0.bars.map { $0.standardError * 10_000 } }) }
    public var relationBps: Double? { Self.median(estimates.compactMap { $0.relation.map { $0 * 10_000 } }) }
    public var barsWeight: Double? { Self.median(estimates.map(\.barsWeight)) }

    /// How many fills each source decided (`estimated`; empty otherwise).
    public var bySource: [SpreadEstimate.Source: Int] {
        var out: [SpreadEstimate.Source: Int] = [:]
        for e in estimates { out[e.source, default: 0] += 1 }
        return out
    }

    /// The source that decided most fills (ties in `Source` order); nil without estimates.
    public var mainSource: SpreadEstimate.Source? {
        let counts = bySource
        return SpreadEstimate.Source.allCases.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }.flatMap { counts[$0] ?? 0 > 0 ? $0 : nil }
    }

    /// The median of the finite values (`GSL.median`); nil without one.
    static func median(_ values: [Double]) -> Double? {
        let v = values.filter(\.isFinite)
        return v.isEmpty ? nil : GSL.median(v)
    }
}
