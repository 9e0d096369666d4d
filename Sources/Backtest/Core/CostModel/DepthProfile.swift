/// A symbol's calibrated depth profile, as `bt calibrate` fits it from a recorded L2 book:
/// the typical book a market order meets, not a forecast.
///
/// The engine uses `tick`, `spreadBps`, the per-side power laws and `refillHalfLifeSeconds`
/// (see `SyntheticDepth`); the rest describes the fit: the spread's 90th percentile, how depth
/// relates to bar volume, and the held-out cost errors.
public struct DepthProfile: Sendable, Equatable {
    /// Cumulative depth Q(x) = a · x^b units within x basis points of the mid.
    public struct PowerLaw: Sendable, Equatable {
        public var a: Double
        public var b: Double
        public init(a: Double, b: Double) { self.a = a; self.b = b }
    }

    /// Held-out absolute cost errors per order size (both sides pooled), in bps.
    public struct Holdout: Sendable, Equatable {
        public var sizes: [Double]
        public var medianAbsErrorBps: [Double]
        public var p90AbsErrorBps: [Double]
        public init(sizes: [Double], medianAbsErrorBps: [Double], p90AbsErrorBps: [Double]) {
            self.sizes = sizes; self.medianAbsErrorBps = medianAbsErrorBps; self.p90AbsErrorBps = p90AbsErrorBps
        }
    }

    public var symbol: String
    /// Price increment (the most common gap between adjacent levels near the mid); nil when unknown.
    public var tick: Double?
    /// Time-weighted median and 90th percentile of the quoted spread, in bps of the mid.
    public var spreadBps: Double
    public var spreadP90Bps: Double
    public var bid: PowerLaw
    public var ask: PowerLaw
    /// Spearman correlation of depth within 10 bps with bar volume; nil when it cannot be computed.
    public var volumeRankCorrelation: Double?
    /// Seconds for the cost of a reference order to recover half of a taker's jump; nil when
    /// there were no trades (or no recovery) to measure it.
    public var refillHalfLifeSeconds: Double?
    public var holdout: Holdout?

    public init(symbol: String, tick: Double?, spreadBps: Double, spreadP90Bps: Double, bid: PowerLaw, ask: PowerLaw,
                volumeRankCorrelation: Double? = nil, refillHalfLifeSeconds: Double? = nil, holdout: Holdout? = nil) {
        self.symbol = symbol; self.tick = tick; self.spreadBps = spreadBps; self.spreadP90Bps = spreadP90Bps
        self.bid = bid; self.ask = ask; self.volumeRankCorrelation = volumeRankCorrelation
        self.refillHalfLifeSeconds = refillHalfLifeSeconds; self.holdout = holdout
    }

    /// The profile as one JSON object, keys in this order: `{"symbol", "tick", "spread_bps",
    /// "spread_p90_bps", "bid": {"a", "b"}, "ask": {"a", "b"}, "volume_rank_correlation",
    /// "refill_half_life_seconds", "holdout": {"sizes", "median_abs_error_bps",
    /// "p90_abs_error_bps"}}`; unknown values are null.
    public var jsonValue: JSONValue {
        func number(_ v: Double?) -> JSONValue { v.map { .number($0) } ?? .null }
        func list(_ v: [Double]) -> JSONValue { .array(v.map { .number($0) }) }
        func side(_ p: PowerLaw) -> JSONValue { ["a": .number(p.a), "b": .number(p.b)] }
        let holdoutJSON: JSONValue = holdout.map {
            ["sizes": list($0.sizes), "median_abs_error_bps": list($0.medianAbsErrorBps), "p90_abs_error_bps": list($0.p90AbsErrorBps)]
        } ?? .null
        return ["symbol": .string(symbol), "tick": number(tick), "spread_bps": .number(spreadBps),
                "spread_p90_bps": .number(spreadP90Bps), "bid": side(bid), "ask": side(ask),
                "volume_rank_correlation": number(volumeRankCorrelation),
                "refill_half_life_seconds": number(refillHalfLifeSeconds), "holdout": holdoutJSON]
    }

    /// `jsonValue` as text on one line.
    public func json() -> String { jsonValue.serialized() }
}
