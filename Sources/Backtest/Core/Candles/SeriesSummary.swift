/// Descriptive figures of one candle series, for `bt data summary`.
public struct SeriesSummary: Sendable, Equatable {
    public var symbol: String
    public var timeframe: Timeframe?
    public var bars: Int
    public var first: Int64
    public var last: Int64
    public var firstClose: Double
    public var lastClose: Double
    /// Lowest low and highest high.
    public var minLow: Double
    public var maxHigh: Double
    /// Total return `last close / first close - 1`, a fraction.
    public var totalReturn: Double
    /// Mean of the bar-to-bar simple close returns (GSL mean), a fraction; NaN below two bars.
    public var meanReturn: Double
    /// Sample standard deviation of those returns (n - 1), a fraction; NaN below three bars.
    public var returnStandardDeviation: Double

    /// - Precondition: `series` is not empty.
    public init(_ series: CandleSeries) {
        precondition(!series.isEmpty, "summary of an empty series")
        symbol = series.symbol
        timeframe = series.timeframe
        bars = series.count
        first = series.time[0]
        last = series.time[series.count - 1]
        firstClose = series.close[0]
        lastClose = series.close[series.count - 1]
        minLow = series.low.min()!
        maxHigh = series.high.max()!
        totalReturn = lastClose / firstClose - 1
        let returns = (1..<max(1, series.count)).map { series.close[$0] / series.close[$0 - 1] - 1 }
        meanReturn = GSL.mean(returns)
        returnStandardDeviation = GSL.standardDeviation(returns)
    }
}
