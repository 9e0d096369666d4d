/// An indicator computed one bar at a time, for a live session: each `next` gives the outputs at
/// the newest bar in O(1) (O(period) for CCI and the rolling extremes), and they equal, to the
/// bit, what `IndicatorSpec.compute` gives at the last index of every bar so far.
///
/// That equality holds because the batch kernels are prefix-stable (a value never depends on
/// the bars after it) and each stream repeats its kernel's floating-point operations in the same
/// order (`StreamingRecurrence`, `StreamingSum`, ...). Gaps as in the batch: a NaN or infinite
/// input gives NaN and starts the indicator again, warm-up included. Where the batch throws
/// because the series is shorter than a period, the stream gives NaN.
public struct IndicatorStream: Sendable {
    public let spec: IndicatorSpec
    private var state: State
    /// Values taken in the current run (since the start or the last gap).
    private var run = 0

    /// - Throws: `InputError` for parameters no series could satisfy (`IndicatorSpec.validate`).
    public init(_ spec: IndicatorSpec) throws {
        try spec.validate()
        self.spec = spec
        state = State(spec)
    }

    /// The number of outputs (`spec.columns`).
    public var outputCount: Int { spec.kind.outputs.count }

    /// The outputs at the next bar of the one series the indicator reads (`Kind.readsOneSeries`),
    /// in `spec.columns` order.
    public mutating func next(_ x: Double) -> IndicatorValues {
        precondition(spec.kind.readsOneSeries, "\(spec.kind.rawValue) reads the candles' columns: give it a Candle")
        return step(Candle(time: 0, open: .nan, high: .nan, low: .nan, close: x, volume: .nan), finite: x.isFinite)
    }

    /// The outputs at the next bar: of its close for an indicator of one series, else of the
    /// columns the indicator reads.
    public mutating func next(_ bar: Candle) -> IndicatorValues {
        let finite: Bool
        switch spec.kind {
        case .sma, .ema, .wma, .rsi, .macd, .bb, .roc, .stddev: finite = bar.close.isFinite
        case .obv: finite = bar.close.isFinite && bar.volume.isFinite
        case .donchian: finite = bar.high.isFinite && bar.low.isFinite
        case .atr, .stoch, .willr, .cci, .adx: finite = bar.high.isFinite && bar.low.isFinite && bar.close.isFinite
        case .vwap: finite = bar.high.isFinite && bar.low.isFinite && bar.close.isFinite && bar.volume.isFinite
        }
        return step(bar, finite: finite)
    }

    private mutating func step(_ bar: Candle, finite: Bool) -> IndicatorValues {
        guard finite else {
            state = State(spec)
            run = 0
            return IndicatorValues(count: outputCount)
        }
        let r = run
        run += 1
        return state.next(bar, index: r, spec: spec)
    }
}

/// Up to three outputs of one bar (`IndicatorSpec.columns` order); NaN where undefined.
public struct IndicatorValues: Sendable, Equatable {
    public let count: Int
    private var values: (Double, Double, Double)

    init(count: Int, _ a: Double = .nan, _ b: Double = .nan, _ c: Double = .nan) {
        self.count = count
        values = (a, b, c)
    }

    public subscript(i: Int) -> Double {
        precondition(i >= 0 && i < count, "output \(i) of \(count)")
        return i == 0 ? values.0 : i == 1 ? values.1 : values.2
    }

    public static func == (l: Self, r: Self) -> Bool {
        l.count == r.count && (0..<l.count).allSatisfy { l[$0].bitPattern == r[$0].bitPattern }
    }
}
