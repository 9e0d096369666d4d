/// One funding settlement of a perpetual future: at `timeMs`, longs pay shorts `rate` times
/// their position's value (shorts pay longs when the rate is negative).
public struct FundingRate: Equatable, Sendable {
    /// The settlement time, UTC milliseconds.
    public var timeMs: Int64
    /// The rate as a fraction per funding period (0.0001 is 0.01%), within ±`largestRate`.
    public var rate: Double
    /// The mark price at the settlement, when the source gives one (> 0 and finite).
    public var markPrice: Double?

    public init(timeMs: Int64, rate: Double, markPrice: Double? = nil) {
        self.timeMs = timeMs
        self.rate = rate
        self.markPrice = markPrice
    }

    /// The largest |rate| bt accepts: 5% a period, far beyond any exchange's cap (Binance's
    /// widest is 3%), so a larger value is a wrong unit (percent for a fraction) or junk.
    public static let largestRate = 0.05

    /// What is wrong with the row, worded with the valid range; nil when bt accepts it: the time
    /// within `UTCTime.supportedRange`, a finite rate within ±`largestRate`, a mark price > 0 and
    /// finite when present. The importer, the fetch and the store's reading all check rows with it.
    public var problem: String? {
        if !UTCTime.supportedRange.contains(floorDiv(timeMs, 1000)) {
            return "time \(UTCTime.describe(floorDiv(timeMs, 1000))) is outside the supported range 1970-01-01 to 9999-12-31"
        }
        if !rate.isFinite { return "rate \(rate) is not finite" }
        if Swift.abs(rate) > Self.largestRate {
            return "rate \(rate) is outside -0.05...0.05 (a fraction per funding period, at most 5%; a percentage?)"
        }
        if let m = markPrice, !(m.isFinite && m > 0) { return "mark_price \(m) is not a positive finite price" }
        return nil
    }
}
